package safefile

import (
	"bytes"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// swapping sets up the outside tester's race: a key folder, and w/m, a
// folder, swapped many times a second (renameat2 RENAME_EXCHANGE) with
// w/mx, a link to the key folder. stop ends the swaps and says how many
// there were.
func swapping(t *testing.T, secret []byte) (m, keyDir, key string, stop func() int) {
	t.Helper()
	root := t.TempDir()
	keyDir = filepath.Join(root, "ssh")
	os.MkdirAll(keyDir, 0o700)
	key = filepath.Join(keyDir, "id_ed25519_romeo")
	os.WriteFile(key, secret, 0o600)
	w := filepath.Join(root, "w")
	os.MkdirAll(filepath.Join(w, "m"), 0o755)
	if err := os.Symlink(keyDir, filepath.Join(w, "mx")); err != nil {
		t.Fatal(err)
	}
	var done atomic.Bool
	swaps := make(chan int)
	go func() {
		n := 0
		for !done.Load() {
			if err := unix.Renameat2(unix.AT_FDCWD, filepath.Join(w, "m"), unix.AT_FDCWD, filepath.Join(w, "mx"), unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("renameat2: %v", err)
				break
			}
			n++
		}
		swaps <- n
	}()
	return filepath.Join(w, "m"), keyDir, key, func() int { done.Store(true); return <-swaps }
}

// TestFolderSwapRace: while another goroutine swaps the output's folder
// with a link to the key folder many times a second (as the outside
// tester did from a script), hundreds of guarded writes, replacing
// (acces.md, reports) or never replacing (pret modele), never change a
// byte in the key folder nor leave a name there, not even a temporary
// one: the folder is checked as the open folder the write goes in, not
// as a path that may change after the check.
func TestFolderSwapRace(t *testing.T) {
	secret := []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nclé\n-----END OPENSSH PRIVATE KEY-----\n")
	for name, write := range map[string]func(g Protected, m string) error{
		"WriteReplace": func(g Protected, m string) error {
			return g.WriteReplace(filepath.Join(m, "id_ed25519_romeo"), []byte("rapport\n"), 0o644)
		},
		// After the first write the name is taken (ErrExists): each try
		// still opens, checks and stages before it links.
		"WriteNew": func(g Protected, m string) error {
			return g.WriteNew(filepath.Join(m, "sommeil.sbatch"), []byte("#!/bin/bash\n"), 0o644)
		},
	} {
		m, keyDir, key, stop := swapping(t, secret)
		guard := Protect([]string{keyDir}, key, key+".pub")
		refused := 0
		for range 1500 {
			if write(guard, m) != nil {
				refused++
			}
		}
		n := stop()
		if got, _ := os.ReadFile(key); !bytes.Equal(got, secret) {
			t.Fatalf("%s: the key was replaced: %q", name, got)
		}
		if st, _ := os.Stat(key); st.Mode().Perm() != 0o600 {
			t.Fatalf("%s: the key's mode changed: %v", name, st.Mode())
		}
		if names, _ := os.ReadDir(keyDir); len(names) != 1 {
			t.Fatalf("%s: %d names in the key folder: %v", name, len(names), names)
		}
		if n < 100 || refused == 0 {
			t.Fatalf("%s: %d swaps, %d refusals: the race was not run", name, n, refused)
		}
		t.Logf("%s: %d swaps, %d refused", name, n, refused)
	}
}
