package keys

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// killedRun stages path as Create does and never links nor discards it:
// what a run killed between the two leaves.
func killedRun(t *testing.T, path string) string {
	t.Helper()
	before, _ := os.ReadDir(filepath.Dir(path))
	if _, _, err := disk.Stage(path, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range after {
		if !slices.ContainsFunc(before, func(b os.DirEntry) bool { return b.Name() == e.Name() }) {
			return filepath.Join(filepath.Dir(path), e.Name())
		}
	}
	t.Fatal("Stage made no file")
	return ""
}

// TestLeftoversAreOnlyOurs: the temporary files a killed run left beside
// the key and its .pub (Stage's own names) are found and removed; a file
// named like them but a link, a folder, a file larger than a key, or a
// name of another pattern stays, and so does whatever a link points to.
func TestLeftoversAreOnlyOurs(t *testing.T) {
	s := Store{Files: disk, Dir: t.TempDir(), Name: "id_ed25519_romeo", Comment: "c"}
	ours := []string{killedRun(t, s.PrivatePath()), killedRun(t, s.PublicPath()), killedRun(t, s.PrivatePath())}
	outside := filepath.Join(t.TempDir(), "cible")
	os.WriteFile(outside, []byte("à garder"), 0o600)
	keep := map[string]func(p string) error{
		".id_ed25519_romeo.tmp-":               write(1),
		".id_ed25519_romeo.tmp-abc!":           write(1),
		".id_ed25519_romeo.tmp-1 2":            write(1),
		".id_ed25519_romeo.tmp-12345678901234": write(1),
		"id_ed25519_romeo.tmp-12345":           write(1),
		".id_ed25519_romeo.tmp-12345.pub":      write(1),
		".id_ed25519_romeo.swp":                write(1),
		".autre.tmp-12345":                     write(1),
		".acces.md.tmp-12345":                  write(1),
		"id_ed25519_romeo.tmp":                 write(1),
		".id_ed25519_romeo.tmp-11111":          func(p string) error { return os.Mkdir(p, 0o700) },
		".id_ed25519_romeo.pub.tmp-22222":      write(MaxFileSize + 1),
	}
	if runtime.GOOS != "windows" {
		keep[".id_ed25519_romeo.tmp-33333"] = func(p string) error { return os.Symlink(outside, p) }
		keep[".id_ed25519_romeo.tmp-abcdef"] = write(1) // base 36 is Windows' pattern, not this system's
	}
	for name, make := range keep {
		if err := make(filepath.Join(s.Dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	found, err := s.Leftovers()
	slices.Sort(found)
	slices.Sort(ours)
	if err != nil || !slices.Equal(found, ours) {
		t.Fatalf("found %v, want %v (%v)", found, ours, err)
	}
	removed, err := s.RemoveLeftovers()
	slices.Sort(removed)
	if err != nil || !slices.Equal(removed, ours) {
		t.Fatalf("removed %v, want %v (%v)", removed, ours, err)
	}
	for _, p := range ours {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s still there", p)
		}
	}
	for name := range keep {
		if _, err := os.Lstat(filepath.Join(s.Dir, name)); err != nil {
			t.Errorf("%s removed", name)
		}
	}
	if data, _ := os.ReadFile(outside); string(data) != "à garder" {
		t.Error("the link's target changed")
	}
	if again, err := s.RemoveLeftovers(); err != nil || len(again) != 0 {
		t.Fatalf("second pass: %v %v", again, err)
	}
	// Nothing there, not even the folder: nothing to do.
	if found, err := (Store{Files: disk, Dir: filepath.Join(s.Dir, "absent"), Name: "k"}).RemoveLeftovers(); err != nil || found != nil {
		t.Fatalf("%v %v", found, err)
	}
}

func write(n int) func(p string) error {
	return func(p string) error { return os.WriteFile(p, []byte(strings.Repeat("x", n)), 0o600) }
}

// TestLeftoversWaitForTheLock: while another run holds the folder lock,
// its staged file is its own, not a leftover: RemoveLeftovers waits for
// the lock, and once the run has linked its key, finds nothing to remove.
func TestLeftoversWaitForTheLock(t *testing.T) {
	s := Store{Files: disk, Dir: t.TempDir(), Name: "id_ed25519_romeo", Comment: "c"}
	unlock, err := disk.LockDir(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	priv, _, err := Generate(rand.Reader, "c", []byte("une passphrase"))
	if err != nil {
		t.Fatal(err)
	}
	link, discard, err := disk.Stage(s.PrivatePath(), priv, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan []string, 1)
	go func() {
		removed, err := s.RemoveLeftovers()
		if err != nil {
			t.Error(err)
		}
		done <- removed
	}()
	select {
	case removed := <-done:
		t.Fatalf("removed %v while another run held the lock", removed)
	case <-time.After(300 * time.Millisecond):
	}
	if err := link(); err != nil {
		t.Fatal(err)
	}
	discard()
	unlock()
	if removed := <-done; len(removed) != 0 {
		t.Fatalf("removed %v", removed)
	}
	if data, err := os.ReadFile(s.PrivatePath()); err != nil || string(data) != string(priv) {
		t.Fatal("the other run's key is not whole")
	}
}
