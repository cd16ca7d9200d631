package safefile

import (
	"bytes"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// TestWriteReplaceFolderSwapRace: while another goroutine swaps the
// output's folder with a link to the key folder many times a second
// (renameat2 RENAME_EXCHANGE, as the outside tester did from a script),
// hundreds of guarded writes never change a byte in the key folder nor
// leave a name there: the folder is checked as the open folder the write
// goes in, not as a path that may change after the check.
func TestWriteReplaceFolderSwapRace(t *testing.T) {
	root := t.TempDir()
	keyDir := filepath.Join(root, "ssh")
	os.MkdirAll(keyDir, 0o700)
	key := filepath.Join(keyDir, "id_ed25519_romeo")
	secret := []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nclé\n-----END OPENSSH PRIVATE KEY-----\n")
	os.WriteFile(key, secret, 0o600)
	w := filepath.Join(root, "w")
	os.MkdirAll(filepath.Join(w, "m"), 0o755)
	if err := os.Symlink(keyDir, filepath.Join(w, "mx")); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	swaps := make(chan int)
	go func() {
		n := 0
		for !stop.Load() {
			if err := unix.Renameat2(unix.AT_FDCWD, filepath.Join(w, "m"), unix.AT_FDCWD, filepath.Join(w, "mx"), unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("renameat2: %v", err)
				break
			}
			n++
		}
		swaps <- n
	}()
	guard := Protect(keyDir, key, key+".pub")
	refused, written := 0, 0
	for range 1500 {
		switch err := guard.WriteReplace(filepath.Join(w, "m", "id_ed25519_romeo"), []byte("rapport\n"), 0o644); {
		case err == nil:
			written++
		default:
			refused++
		}
	}
	stop.Store(true)
	n := <-swaps
	got, _ := os.ReadFile(key)
	if !bytes.Equal(got, secret) {
		t.Fatalf("the key was replaced: %q", got)
	}
	if st, _ := os.Stat(key); st.Mode().Perm() != 0o600 {
		t.Fatalf("the key's mode changed: %v", st.Mode())
	}
	if names, _ := os.ReadDir(keyDir); len(names) != 1 {
		t.Fatalf("%d names in the key folder: %v", len(names), names)
	}
	if n < 100 || refused == 0 {
		t.Fatalf("%d swaps, %d writes, %d refusals: the race was not run", n, written, refused)
	}
	t.Logf("%d swaps, %d writes, %d refused", n, written, refused)
}

// TestWriteNewFolderSwapRace: the same race for the never-replacing
// writer of outputs (pret modele): nothing ever appears in the key
// folder, not even a temporary name.
func TestWriteNewFolderSwapRace(t *testing.T) {
	root := t.TempDir()
	keyDir := filepath.Join(root, "ssh")
	os.MkdirAll(keyDir, 0o700)
	key := filepath.Join(keyDir, "id_ed25519_romeo")
	os.WriteFile(key, []byte("clé\n"), 0o600)
	w := filepath.Join(root, "w")
	os.MkdirAll(filepath.Join(w, "m"), 0o755)
	if err := os.Symlink(keyDir, filepath.Join(w, "mx")); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	swaps := make(chan int)
	go func() {
		n := 0
		for !stop.Load() {
			if err := unix.Renameat2(unix.AT_FDCWD, filepath.Join(w, "m"), unix.AT_FDCWD, filepath.Join(w, "mx"), unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("renameat2: %v", err)
				break
			}
			n++
		}
		swaps <- n
	}()
	guard := Protect(keyDir, key, key+".pub")
	refused := 0
	// After the first write the name is taken (ErrExists): each try
	// still opens, checks and stages before it links.
	for range 1500 {
		if err := guard.WriteNew(filepath.Join(w, "m", "sommeil.sbatch"), []byte("#!/bin/bash\n"), 0o644); err != nil {
			refused++
		}
	}
	stop.Store(true)
	n := <-swaps
	if names, _ := os.ReadDir(keyDir); len(names) != 1 {
		t.Fatalf("%d names in the key folder: %v", len(names), names)
	}
	if n < 100 || refused == 0 {
		t.Fatalf("%d swaps, %d refusals: the race was not run", n, refused)
	}
}
