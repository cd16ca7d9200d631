//go:build unix

package safefile

import (
	"bytes"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/romeo-pret/pret/internal/testenv"
)

// Target is one kind of thing an output path can name, made in a temp
// folder: the property below holds for each.
type Target struct {
	Name string
	// Make creates the thing at path (in dir, for link targets) and
	// returns where the bytes should land ("" for nowhere readable) and
	// a cleanup; skip says why the kind cannot be made here.
	Make func(t *testing.T, dir, path string) (land string, done func() []byte)
	// Fails: the write must fail with a French reason, nothing changed.
	Fails bool
}

// mknodOrSkip makes a character device like /dev/null (1,3) or
// /dev/full (1,7) at path. Only root may (CAP_MKNOD): as an ordinary
// user the kind is skipped, with that reason; CI runs as root.
func mknodOrSkip(t *testing.T, path string, minor int) {
	t.Helper()
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, int(1<<8|minor)); err != nil {
		t.Skipf("mknod refusé (%v) : créer un périphérique demande CAP_MKNOD, c'est-à-dire root ; la CI tourne en root", err)
	}
}

// Targets are the kinds TestWriteReplaceTargetKinds and the commands'
// property tests go over.
func Targets() []Target {
	regular := func(perm os.FileMode) func(t *testing.T, dir, path string) (string, func() []byte) {
		return func(t *testing.T, dir, path string) (string, func() []byte) {
			if err := os.WriteFile(path, []byte("ancien\n"), perm); err != nil {
				t.Fatal(err)
			}
			os.Chmod(path, perm)
			return path, nil
		}
	}
	return []Target{
		{Name: "absent", Make: func(t *testing.T, dir, path string) (string, func() []byte) { return path, nil }},
		{Name: "regular 0600", Make: regular(0o600)},
		{Name: "regular 0644", Make: regular(0o644)},
		{Name: "regular 0444", Make: regular(0o444)},
		{Name: "link to regular", Make: func(t *testing.T, dir, path string) (string, func() []byte) {
			other := filepath.Join(dir, "ailleurs", "vrai.txt")
			os.MkdirAll(filepath.Dir(other), 0o700)
			os.WriteFile(other, []byte("ancien\n"), 0o600)
			if err := os.Symlink(filepath.Join("..", filepath.Base(dir), "ailleurs", "vrai.txt"), path); err != nil {
				t.Fatal(err)
			}
			return other, nil
		}},
		{Name: "dangling link", Make: func(t *testing.T, dir, path string) (string, func() []byte) {
			other := filepath.Join(dir, "cible-absente.txt")
			if err := os.Symlink("cible-absente.txt", path); err != nil {
				t.Fatal(err)
			}
			return other, nil
		}},
		{Name: "null-like device", Make: func(t *testing.T, dir, path string) (string, func() []byte) {
			mknodOrSkip(t, path, 3)
			return "", nil
		}},
		{Name: "link to null-like device", Make: func(t *testing.T, dir, path string) (string, func() []byte) {
			dev := filepath.Join(dir, "nul")
			mknodOrSkip(t, dev, 3)
			os.Symlink(dev, path)
			return "", nil
		}},
		{Name: "full-like device", Fails: true, Make: func(t *testing.T, dir, path string) (string, func() []byte) {
			mknodOrSkip(t, path, 7)
			return "", nil
		}},
		{Name: "FIFO with a reader", Make: func(t *testing.T, dir, path string) (string, func() []byte) {
			return "", testenv.FIFOReader(t, path, 10*time.Second)
		}},
		{Name: "FIFO without a reader", Fails: true, Make: func(t *testing.T, dir, path string) (string, func() []byte) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
			return "", nil
		}},
		{Name: "socket", Fails: true, Make: func(t *testing.T, dir, path string) (string, func() []byte) {
			l, err := net.Listen("unix", path)
			if err != nil {
				t.Skipf("socket Unix impossible ici : %v", err)
			}
			l.(*net.UnixListener).SetUnlinkOnClose(false)
			t.Cleanup(func() { l.Close() })
			return "", nil
		}},
		{Name: "directory", Fails: true, Make: func(t *testing.T, dir, path string) (string, func() []byte) {
			os.Mkdir(path, 0o700)
			return "", nil
		}},
	}
}

// TestWriteReplaceTargetKinds: over every kind of target, the kind at
// the path is the same after the write, the bytes landed where a careful
// user expects (the file a link names, the device, the FIFO's reader),
// permission bits are kept, and what cannot be written is refused in
// French with nothing changed.
func TestWriteReplaceTargetKinds(t *testing.T) {
	for _, k := range Targets() {
		t.Run(k.Name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "sortie")
			land, done := k.Make(t, dir, path)
			before, _ := os.Lstat(path)
			var landBefore fs.FileInfo
			if land != "" {
				landBefore, _ = os.Stat(land)
			}
			data := []byte(strings.Repeat("rapport é\n", 20000)) // more than a pipe holds
			start := time.Now()
			err := Protected{}.WriteReplace(path, data, 0o644)
			if time.Since(start) > 20*time.Second {
				t.Fatal("the write waited")
			}
			if k.Fails {
				if err == nil {
					t.Fatal("written without an error")
				}
				checkFrench(t, err)
				if k.Name == "FIFO without a reader" && !errors.Is(err, ErrNoReader) {
					t.Fatalf("a FIFO without reader: %v", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			after, lerr := os.Lstat(path)
			switch {
			case before == nil && lerr != nil:
				t.Fatalf("nothing at the path: %v", lerr)
			case before != nil && after.Mode().Type() != before.Mode().Type():
				t.Fatalf("kind changed: %v -> %v", before.Mode(), after.Mode())
			case before == nil && !after.Mode().IsRegular():
				t.Fatalf("created %v", after.Mode())
			}
			if done != nil {
				if got := done(); !bytes.Equal(got, data) {
					t.Fatalf("the reader got %d bytes of %d", len(got), len(data))
				}
			}
			if land != "" && !k.Fails {
				got, err := os.ReadFile(land)
				if err != nil || !bytes.Equal(got, data) {
					t.Fatalf("%s: %d bytes, %v", land, len(got), err)
				}
				st, _ := os.Stat(land)
				want := os.FileMode(0o644)
				if landBefore != nil {
					want = landBefore.Mode().Perm()
				}
				if st.Mode().Perm() != want {
					t.Fatalf("mode %v, want %v", st.Mode().Perm(), want)
				}
			}
			if strings.Contains(k.Name, "link") {
				if l, err := os.Readlink(path); err != nil || l == "" {
					t.Fatalf("the link is gone: %v", err)
				}
			}
			assertNoTemp(t, dir)
			if land != "" {
				assertNoTemp(t, filepath.Dir(land))
			}
		})
	}
}

// TestWriteReplaceSystemDevices writes into the real /dev/null and
// /dev/full, the only system nodes a test touches: both stay character
// devices, /dev/full's ENOSPC is an error in French.
func TestWriteReplaceSystemDevices(t *testing.T) {
	testenv.WritesIntoDevices(t, func(p string) { Protected{}.WriteReplace(p, []byte("rapport\n"), 0o644) })
	for _, dev := range []string{"/dev/null", "/dev/full"} {
		before, err := os.Stat(dev)
		if err != nil || before.Mode()&fs.ModeCharDevice == 0 {
			t.Fatalf("%s: %v %v", dev, before, err)
		}
		err = Protected{}.WriteReplace(dev, []byte("rapport\n"), 0o644)
		if dev == "/dev/full" {
			if err == nil || !strings.Contains(err.Error(), "plus de place sur le disque") || !errors.Is(err, ErrIncomplete) || !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("%s: %v", dev, err)
			}
		} else if err != nil {
			t.Fatalf("%s: %v", dev, err)
		}
		after, err := os.Lstat(dev)
		if err != nil || after.Mode().Type() != before.Mode().Type() || !os.SameFile(before, after) {
			t.Fatalf("%s changed: %v", dev, after)
		}
	}
}

// TestDotDotAfterLinkAsTheSystem: "x2/../f" with x2 a link to deep/inner
// is deep/f to the system, not f; and "absent/../f" names nothing. A
// write lands where the system reads the path, or fails (securite.md).
func TestDotDotAfterLinkAsTheSystem(t *testing.T) {
	for in, want := range map[string]string{"x2/../f": "x2/..", "f": ".", "/f": "/", "a//f": "a", "a/b/": "a/b"} {
		if got := Dir(in); got != want {
			t.Errorf("Dir(%q) = %q, want %q", in, got, want)
		}
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "deep", "inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("deep", "inner"), filepath.Join(dir, "x2")); err != nil {
		t.Fatal(err)
	}
	writes := map[string]func(string, []byte, os.FileMode) error{"WriteNew": Protected{}.WriteNew, "WriteReplace": Protected{}.WriteReplace}
	for name, write := range writes {
		if err := write(dir+"/x2/../"+name, []byte(name), 0o644); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, err := os.ReadFile(filepath.Join(dir, "deep", name)); err != nil || string(got) != name {
			t.Errorf("%s: deep/%s holds %q (%v)", name, name, got, err)
		}
		if err := write(dir+"/absent/../"+name+"2", []byte(name), 0o644); err == nil {
			t.Errorf("%s wrote through an absent folder", name)
		}
		for _, stray := range []string{name, name + "2"} {
			if _, err := os.Lstat(filepath.Join(dir, stray)); err == nil {
				t.Errorf("%s: %s written beside the link, where the path does not lead", name, stray)
			}
		}
	}
}
