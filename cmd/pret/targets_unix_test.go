//go:build unix

package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/romeo-pret/pret/checklist"

	"github.com/romeo-pret/pret/internal/testenv"
)

// outputTarget is one kind of thing a written path can name; make builds
// it at path and says where the bytes should land ("" for a device).
type outputTarget struct {
	name  string
	make  func(t *testing.T, h *home, path string) (land string)
	fails bool // nothing can be written there: exit != 0, kind unchanged
	// link: a link to a file or to nothing, which valider refuses (it
	// writes through no link); the others write the file it names.
	link bool
}

func mknodIn(t *testing.T, path string, minor int) {
	t.Helper()
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|minor); err != nil {
		t.Skipf("mknod refusé (%v) : créer un périphérique demande CAP_MKNOD (root) ; la CI tourne en root", err)
	}
}

func outputTargets() []outputTarget {
	regular := func(perm os.FileMode) func(t *testing.T, h *home, path string) string {
		return func(t *testing.T, h *home, path string) string {
			os.WriteFile(path, []byte("ancien\n"), perm)
			os.Chmod(path, perm)
			return path
		}
	}
	return []outputTarget{
		{name: "absent", make: func(t *testing.T, h *home, path string) string { return path }},
		{name: "regular 0600", make: regular(0o600)},
		{name: "regular 0644", make: regular(0o644)},
		{name: "link to regular", link: true, make: func(t *testing.T, h *home, path string) string {
			real := h.path("ailleurs/vrai")
			os.MkdirAll(filepath.Dir(real), 0o755)
			os.WriteFile(real, []byte("ancien\n"), 0o600)
			os.Symlink(real, path)
			return real
		}},
		{name: "dangling link", link: true, make: func(t *testing.T, h *home, path string) string {
			os.Symlink("cible-absente", path)
			return filepath.Join(filepath.Dir(path), "cible-absente")
		}},
		{name: "null-like device", make: func(t *testing.T, h *home, path string) string { mknodIn(t, path, 3); return "" }},
		{name: "link to a null-like device", make: func(t *testing.T, h *home, path string) string {
			mknodIn(t, h.path("nul"), 3)
			os.Symlink(h.path("nul"), path)
			return ""
		}},
		{name: "full-like device", fails: true, make: func(t *testing.T, h *home, path string) string { mknodIn(t, path, 7); return "" }},
		{name: "FIFO without a reader", fails: true, make: func(t *testing.T, h *home, path string) string {
			syscall.Mkfifo(path, 0o600)
			return ""
		}},
		{name: "socket", fails: true, make: func(t *testing.T, h *home, path string) string {
			l, err := net.Listen("unix", path)
			if err != nil {
				t.Skipf("socket Unix impossible ici : %v", err)
			}
			l.(*net.UnixListener).SetUnlinkOnClose(false)
			t.Cleanup(func() { l.Close() })
			return ""
		}},
		{name: "directory", fails: true, make: func(t *testing.T, h *home, path string) string { os.Mkdir(path, 0o755); return "" }},
	}
}

// TestOutputTargetKinds: every command that writes a whole file at a
// path the person chooses (valider --sortie in every format, man's
// pages, acces's acces.md) over every kind of target: the kind at the
// path is unchanged, the bytes land in the file a link names, a device
// is written into, never replaced (valider refuses a link to a file or
// to nothing: exit 2), permission bits are kept, what cannot
// be written is a French error with exit != 0, and nothing waits.
func TestOutputTargetKinds(t *testing.T) {
	t.Parallel()
	notShort(t)
	type writer struct {
		name string
		// run writes at path; want is what should land there.
		run func(h *home, path string) (r result, want []byte)
		// readsFirst: the command reads what is at the path before it
		// writes (acces compares), so a device or a FIFO there may be
		// refused as unreadable instead of written into.
		readsFirst bool
		// prepare runs before the target is made and returns what should
		// land (then run's want is not used).
		prepare func(h *home) []byte
	}
	writers := []writer{}
	// Every format goes through one writer: two of them, all in the long run.
	for _, f := range checklist.FileFormats[:testenv.Scaled(2, len(checklist.FileFormats))] {
		writers = append(writers, writer{name: "valider --sortie --format " + f, run: func(h *home, path string) (result, []byte) {
			put(t, h.dir, "rendus/etu1/acces.md", accesPage(fpOne))
			std := h.pret("", "valider", "--format", f, "rendus")
			return h.pret("", "valider", "--format", f, "--sortie", path, "rendus"), []byte(std.stdout)
		}})
	}
	writers = append(writers, writer{name: "man", run: func(h *home, path string) (result, []byte) {
		os.MkdirAll(filepath.Dir(path), 0o755)
		ref := h.pret("", "man", h.path("ref"))
		want, _ := os.ReadFile(h.path("ref/pret.1"))
		if ref.code != 0 {
			t.Fatalf("man: %s", ref.stderr)
		}
		return h.pret("", "man", filepath.Dir(path)), want
	}})
	writers = append(writers, writer{name: "acces --force", readsFirst: true,
		prepare: func(h *home) []byte {
			putKey(t, h.dir)
			ref := h.pret("", "acces", "--statut", "demande", "--date", "2026-10-01")
			want, err := os.ReadFile(h.path("acces.md"))
			if ref.code != 0 || err != nil {
				t.Fatalf("acces: %v %s", err, ref.stderr)
			}
			os.Remove(h.path("acces.md"))
			os.RemoveAll(h.path(".local/state"))
			return want
		},
		run: func(h *home, path string) (result, []byte) {
			return h.pret("", "acces", "--statut", "demande", "--date", "2026-10-01", "--force"), nil
		}})
	for _, w := range writers {
		for _, k := range outputTargets() {
			t.Run(w.name+"/"+k.name, func(t *testing.T) {
				h := newHome(t)
				h.env = append(h.env, "SOURCE_DATE_EPOCH=1790000000")
				path := h.path("sortie.txt")
				if w.name == "man" {
					path = h.path("man/pret.1")
					os.MkdirAll(filepath.Dir(path), 0o755)
				}
				if w.readsFirst {
					// Made aside, put at acces.md once the reference
					// acces.md is gone.
					path = h.path("acces.md")
				}
				var prepared []byte
				if w.prepare != nil {
					prepared = w.prepare(h)
				}
				land := k.make(t, h, path)
				fails := k.fails || k.link && strings.HasPrefix(w.name, "valider")
				before, _ := os.Lstat(path)
				var perm os.FileMode = 0o644
				if land != "" {
					if st, err := os.Stat(land); err == nil {
						perm = st.Mode().Perm()
					}
				}
				start := time.Now()
				r, want := w.run(h, path)
				if w.prepare != nil {
					want = prepared
				}
				if time.Since(start) > 30*time.Second {
					t.Fatal("waited")
				}
				if strings.Contains(r.stderr, "\x1b") {
					t.Fatalf("raw escape on stderr: %q", r.stderr)
				}
				if w.readsFirst && land == "" && r.code != 0 && strings.HasPrefix(r.stderr, "pret: erreur : ") {
					// Refused as unreadable, in French: nothing written.
				} else if fails {
					if r.code == 0 || !strings.HasPrefix(r.stderr, "pret: erreur : ") {
						t.Fatalf("exit %d\n%s", r.code, r.stderr)
					}
					if k.name == "FIFO without a reader" && strings.HasPrefix(w.name, "valider") && !strings.Contains(r.stderr, "aucun programme ne lit ce tube nommé") {
						t.Fatalf("FIFO without reader: %s", r.stderr)
					}
				} else if r.code > 1 || r.code == 1 && !strings.HasPrefix(w.name, "valider") || r.stderr != "" && r.code != 1 {
					t.Fatalf("exit %d\n%s", r.code, r.stderr)
				}
				after, err := os.Lstat(path)
				if err != nil || before != nil && after.Mode().Type() != before.Mode().Type() || before == nil && !after.Mode().IsRegular() {
					t.Fatalf("kind changed: %v -> %v (%v)", before, after, err)
				}
				if land != "" && !fails {
					got, err := os.ReadFile(land)
					if err != nil || !bytes.Equal(got, want) {
						t.Fatalf("%s holds %d bytes, want %d (%v)", land, len(got), len(want), err)
					}
					if st, _ := os.Stat(land); st.Mode().Perm() != perm {
						t.Fatalf("mode %v, want %v", st.Mode().Perm(), perm)
					}
				}
			})
		}
	}
}

// TestOutputIntoFIFOWithReader: --sortie onto a FIFO a reader holds
// open delivers the whole report to the reader, in every format; the
// FIFO stays a FIFO.
func TestOutputIntoFIFOWithReader(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	put(t, h.dir, "rendus/etu1/acces.md", accesPage(fpOne))
	for _, f := range checklist.FileFormats {
		std := h.pret("", "valider", "--format", f, "rendus")
		fifo := h.path("tube-" + f)
		got := testenv.FIFOReader(t, fifo, 20*time.Second)
		r := h.pret("", "valider", "--format", f, "--sortie", fifo, "rendus")
		if r.code != std.code || r.stdout != "" {
			t.Fatalf("%s: exit %d, want %d\n%s", f, r.code, std.code, r.stderr)
		}
		if b := got(); string(b) != std.stdout {
			t.Fatalf("%s: the reader got %d bytes, want %d", f, len(b), len(std.stdout))
		}
		if st, err := os.Lstat(fifo); err != nil || st.Mode().Type() != os.ModeNamedPipe {
			t.Fatalf("%s: %v", f, st)
		}
	}
}

// TestOutputSystemDevices: --sortie /dev/null takes the report and
// exits as without it; --sortie /dev/full says in French that the disk
// is full, exit 1. Both stay the system's character devices.
func TestOutputSystemDevices(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	put(t, h.dir, "rendus/etu1/acces.md", accesPage(fpOne))
	testenv.WritesIntoDevices(t, func(p string) { h.pret("", "valider", "--format", "json", "--sortie", p, "rendus") })
	for _, dev := range []string{"/dev/null", "/dev/full"} {
		before, _ := os.Stat(dev)
		for _, f := range checklist.FileFormats {
			r := h.pret("", "valider", "--format", f, "--sortie", dev, "rendus")
			switch {
			case dev == "/dev/null" && r.code != 0:
				t.Errorf("%s %s: exit %d\n%s", dev, f, r.code, r.stderr)
			case dev == "/dev/full" && (r.code != 1 || !strings.Contains(r.stderr, "plus de place sur le disque")):
				t.Errorf("%s %s: exit %d\n%s", dev, f, r.code, r.stderr)
			}
		}
		if after, err := os.Lstat(dev); err != nil || !os.SameFile(before, after) || after.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("%s replaced", dev)
		}
	}
}

// TestOutputNeverIntoKeyFolderAnyKind: a FIFO, a device or a regular
// file inside the key folder, named directly or through a link from
// outside, is refused (exit 2) by every command that writes a path the
// person chooses, before anything is opened: the device stays a device,
// the FIFO is never opened (no reader needed, no wait), the key is
// untouched.
func TestOutputNeverIntoKeyFolderAnyKind(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	ssh := h.path(".ssh")
	os.MkdirAll(ssh, 0o700)
	os.WriteFile(filepath.Join(ssh, "id_ed25519_romeo"), []byte("clé privée"), 0o600)
	os.WriteFile(filepath.Join(ssh, "id_ed25519_romeo.pub"), []byte("clé publique"), 0o644)
	if err := syscall.Mkfifo(filepath.Join(ssh, "tube"), 0o600); err != nil {
		t.Fatal(err)
	}
	targets := []string{".ssh/tube", "lien-tube", "lien-cle"}
	os.Symlink(filepath.Join(ssh, "tube"), h.path("lien-tube"))
	os.Symlink(filepath.Join(ssh, "id_ed25519_romeo"), h.path("lien-cle"))
	if err := syscall.Mknod(filepath.Join(ssh, "nul"), syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		os.Symlink(filepath.Join(ssh, "nul"), h.path("lien-nul"))
		targets = append(targets, ".ssh/nul", "lien-nul")
	} else {
		t.Logf("mknod refusé (%v) : les cas de périphérique demandent root (la CI tourne en root)", err)
	}
	put(t, h.dir, "rendus/etu/acces.md", accesPage(fpOne))
	before := dirSnapshot(ssh)
	for _, target := range targets {
		for _, args := range [][]string{
			{"valider", "rendus", "--sortie", h.path(target)},
			{"acces", "--statut", "demande", "--force", "--acces-fichier", h.path(target)},
		} {
			start := time.Now()
			r := h.pret("", args...)
			says(t, r, 2, "mène à la clé SSH")
			if time.Since(start) > 20*time.Second {
				t.Fatalf("%v waited", args)
			}
		}
	}
	if after := dirSnapshot(ssh); after != before {
		t.Fatalf("the key folder changed:\n%s\nwas\n%s", after, before)
	}
}
