package testenv

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEnvironStaysInHome: every folder variable points inside home, so no
// test can touch the real user's files.
func TestEnvironStaysInHome(t *testing.T) {
	home := t.TempDir()
	seen := map[string]string{}
	Setenv(func(k, v string) { seen[k] = v }, home)
	for _, name := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"} {
		v, ok := seen[name]
		if !ok {
			t.Errorf("%s not set", name)
			continue
		}
		if rel, err := filepath.Rel(home, v); err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("%s=%s is outside %s", name, v, home)
		}
	}
	if seen["PRET_AUJOURDHUI"] != Today {
		t.Errorf("PRET_AUJOURDHUI=%q, want %s", seen["PRET_AUJOURDHUI"], Today)
	}
	if len(seen) != len(Environ(home)) {
		t.Errorf("Setenv and Environ differ: %v", seen)
	}
}

func TestDay(t *testing.T) {
	if d := Day(SessionDay); d.Format("2006-01-02") != SessionDay || !Day(Today).Before(d) {
		t.Fatalf("Day(%s) = %v", SessionDay, d)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Day accepted a day that does not exist")
		}
	}()
	Day("2026-02-30")
}

func TestEditRefusesMissingText(t *testing.T) {
	if got := Edit("a b a", "a", "c"); got != "c b a" {
		t.Fatalf("Edit: %q", got)
	}
	if got := EditAll("a b a", "a", "c"); got != "c b c" {
		t.Fatalf("EditAll: %q", got)
	}
	for _, f := range []func(){func() { Edit("abc", "x", "y") }, func() { EditAll("abc", "x", "y") }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("an edit of absent text passed")
				}
			}()
			f()
		}()
	}
}
