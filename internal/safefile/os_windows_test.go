package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/windows"
)

// TestLinkNewNeverReplaces: the rename without replacement fails on an
// existing name and leaves both files as they were.
func TestLinkNewNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "id")
	os.WriteFile(path, []byte("original"), 0o600)
	f, err := createStaged(dir, ".id.tmp-", 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("nouveau")
	f.Close()
	if err := linkNew(f.Name(), path); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("linkNew over an existing name: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "original" {
		t.Fatalf("replaced: %q", b)
	}
	if b, _ := os.ReadFile(f.Name()); string(b) != "nouveau" {
		t.Fatalf("staged file lost: %q", b)
	}
	fresh := filepath.Join(dir, "id2")
	if err := linkNew(f.Name(), fresh); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(fresh); string(b) != "nouveau" {
		t.Fatalf("moved file holds %q", b)
	}
}

// TestCreateStagedExclusive: every staged file is a new name.
func TestCreateStagedExclusive(t *testing.T) {
	dir := t.TempDir()
	seen := map[string]bool{}
	for range 50 {
		f, err := createStaged(dir, ".x.tmp-", 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if seen[f.Name()] || !strings.HasPrefix(filepath.Base(f.Name()), ".x.tmp-") {
			t.Fatalf("name %s", f.Name())
		}
		seen[f.Name()] = true
	}
}

// TestOpenReadRegularFile: the no-follow open (FILE_FLAG_OPEN_REPARSE_POINT
// and the reparse tag check) reads a plain file.
func TestOpenReadRegularFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "id.pub")
	os.WriteFile(path, []byte("ssh-ed25519 AAAA c\n"), 0o644)
	f, err := openRead(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	link, reparse, err := reparseKind(windows.Handle(f.Fd()))
	if err != nil || link || reparse {
		t.Fatalf("plain file seen as link=%v reparse=%v err=%v", link, reparse, err)
	}
	if b, err := Read(path, Key, NoFollow); err != nil || string(b) != "ssh-ed25519 AAAA c\n" {
		t.Fatalf("Read: %q %v", b, err)
	}
}
