package testenv

import (
	"testing"
)

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

func TestLongFollowsTheSwitch(t *testing.T) {
	for _, c := range []struct {
		value   string
		skipped bool
	}{{"", true}, {"0", true}, {"yes", true}, {"1", false}} {
		t.Setenv(LongEnv, c.value)
		ran := false
		t.Run("PRET_LONG="+c.value, func(t *testing.T) {
			Long(t)
			ran = true
		})
		if ran == c.skipped {
			t.Errorf("PRET_LONG=%q: ran %v, want skipped %v", c.value, ran, c.skipped)
		}
	}
}

func TestScaledFollowsTheSwitch(t *testing.T) {
	t.Setenv(LongEnv, "1")
	if got := Scaled(300, 3000); got != 3000 {
		t.Errorf("PRET_LONG=1: %d, want 3000", got)
	}
	t.Setenv(LongEnv, "")
	want := 300
	if testing.Short() {
		want = 30
	}
	if got := Scaled(300, 3000); got != want {
		t.Errorf("plain: %d, want %d", got, want)
	}
	if got := Scaled(5, 50); got < 1 {
		t.Errorf("Scaled(5, 50) = %d", got)
	}
}
