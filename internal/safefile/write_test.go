package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestWriteReplaceIsWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "acces.md")
	for i, content := range []string{"premier\n", "second, plus long\n", ""} {
		if err := (Protected{}).WriteReplace(path, []byte(content), 0o644); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if b, _ := os.ReadFile(path); string(b) != content {
			t.Fatalf("%d: %q", i, b)
		}
		// Windows has no mode bits: the file keeps its folder's ACL.
		if st, _ := os.Stat(path); runtime.GOOS != "windows" && st.Mode().Perm() != 0o644 {
			t.Fatalf("mode %v", st.Mode())
		}
	}
	assertNoTemp(t, dir)
	if err := (Protected{}).WriteReplace(filepath.Join(dir, "absent", "x"), []byte("x"), 0o644); err == nil {
		t.Fatal("write into a missing folder succeeded")
	}
	assertNoTemp(t, dir)
}

// TestWriteNewNeverReplaces: a taken name, a link included, is never
// replaced, and no temporary file is left.
func TestWriteNewNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := (Protected{}).WriteNew(path, []byte("premier"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := (Protected{}).WriteNew(path, []byte("second"), 0o600); !errors.Is(err, ErrExists) {
		t.Fatalf("%v", err)
	}
	other := filepath.Join(dir, "autre")
	os.WriteFile(other, []byte("autre"), 0o600)
	link := filepath.Join(dir, "lien")
	if err := os.Symlink(other, link); err == nil {
		if err := (Protected{}).WriteNew(link, []byte("x"), 0o600); !errors.Is(err, ErrSymlink) {
			t.Fatalf("lien : %v", err)
		}
		if b, _ := os.ReadFile(other); string(b) != "autre" {
			t.Fatalf("écrit à travers le lien : %q", b)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "premier" {
		t.Fatalf("%q", b)
	}
	assertNoTemp(t, dir)
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Fatalf("fichier temporaire laissé : %s", e.Name())
		}
	}
}

// TestStagedNameIsStage: every temporary name stage gives is one
// KeyFiles.Staged recognises for its path, and for no other path.
func TestStagedNameIsStage(t *testing.T) {
	dir := t.TempDir()
	path, other := filepath.Join(dir, "id_ed25519_romeo"), filepath.Join(dir, "id_ed25519_romeo.pub")
	for range 50 {
		p, err := stage(path, from([]byte("x")), 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p.tmp)
		p.Discard()
		if !(KeyFiles{}).Staged(path, name) || (KeyFiles{}).Staged(other, name) {
			t.Fatalf("%q: %v for its path, %v for another", name, (KeyFiles{}).Staged(path, name), (KeyFiles{}).Staged(other, name))
		}
	}
}
