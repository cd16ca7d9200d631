package submissions

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// TestFoldersOpenBounded: the walk keeps each folder open while its
// files are read (they are read by name in it), so a tree deeper and
// wider than maxOpenDirs, with files at every level, is read whole, in
// path order, with any number of workers, and leaves no folder open;
// while it runs, never more than maxOpenDirs folders are open.
func TestFoldersOpenBounded(t *testing.T) {
	root := t.TempDir()
	var want []string
	deep := root
	for i := range 3 * maxOpenDirs {
		deep = filepath.Join(deep, fmt.Sprintf("n%03d", i))
		if err := os.MkdirAll(deep, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(deep, "acces.md")
		os.WriteFile(p, []byte(page(newKey(byte(i)).fp, i%2 == 0)), 0o644)
		want = append(want, p)
	}
	for i := range 4 * maxOpenDirs {
		d := filepath.Join(root, fmt.Sprintf("w%03d", i))
		os.MkdirAll(d, 0o755)
		for _, n := range []string{"acces.md", "acces (1).md"} {
			p := filepath.Join(d, n)
			os.WriteFile(p, []byte(page(newKey(byte(i)).fp, false)), 0o644)
			want = append(want, p)
		}
	}
	before := openFDs(t)
	for _, workers := range []int{1, 2, 3, 8} {
		got := Validate([]string{root}, Options{Rules: testRules, Workers: workers})
		if len(got) != len(want) {
			t.Fatalf("%d workers: %d results, want %d", workers, len(got), len(want))
		}
		seen := map[string]bool{}
		for i, r := range got {
			if i > 0 && r.Path < got[i-1].Path {
				t.Fatalf("%d workers: %s after %s", workers, r.Path, got[i-1].Path)
			}
			if len(r.Problems) > 0 && strings.HasPrefix(r.Problems[0].Code, "unreadable") {
				t.Fatalf("%d workers: %s unreadable: %v", workers, r.Path, r.Problems)
			}
			seen[r.Path] = true
		}
		for _, p := range want {
			if !seen[p] {
				t.Fatalf("%d workers: %s not read", workers, p)
			}
		}
		if after := openFDs(t); after != before {
			t.Fatalf("%d workers: %d descriptors open after the run, %d before", workers, after, before)
		}
	}
}

// TestWalkerFolderSlots: the walker never holds more than maxOpenDirs
// folders, and waits for a slot only after handing out what it holds.
func TestWalkerFolderSlots(t *testing.T) {
	root := t.TempDir()
	for i := range 3 * maxOpenDirs {
		d := filepath.Join(root, fmt.Sprintf("d%03d", i))
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "acces.md"), []byte("x"), 0o644)
	}
	var held []source
	w := &walker{seen: map[fileID]bool{}, dirSlots: make(chan struct{}, maxOpenDirs)}
	w.emit = func(s source) { held = append(held, s) }
	w.flush = func() {
		// The workers: every source handed out is read and done.
		for _, s := range held {
			if s.read != nil {
				if _, _, err := s.read(nil); err != nil {
					t.Errorf("%s: %v", s.path, err)
				}
			}
			if s.done != nil {
				s.done()
			}
		}
		held = nil
	}
	base := openFDs(t)
	w.arg(root)
	if n := openFDs(t) - base; n > maxOpenDirs || len(w.dirSlots) > maxOpenDirs {
		t.Fatalf("%d folders open (%d slots taken), bound %d", n, len(w.dirSlots), maxOpenDirs)
	}
	w.flush()
	if n := len(w.dirSlots); n != 0 {
		t.Fatalf("%d folder slots still taken after every file was read", n)
	}
	if n := openFDs(t) - base; n != 0 {
		t.Fatalf("%d descriptors left open", n)
	}
}

// TestLowDescriptorLimit: under a small descriptor limit (a shell's
// ulimit -n 48, which Go cannot raise), folders held open for their
// files never starve the reads: every file of a wide tree is read.
func TestLowDescriptorLimit(t *testing.T) {
	if dir := os.Getenv("PRET_TEST_LOWFD_DIR"); dir != "" {
		got := Validate([]string{dir}, Options{Rules: testRules, Workers: 8})
		bad := 0
		for _, r := range got {
			for _, p := range r.Problems {
				if p.Code == "unreadable" {
					bad++
				}
			}
		}
		fmt.Printf("files=%d unreadable=%d allowed=%d\n", len(got), bad, openDirsAllowed())
		return
	}
	root := t.TempDir()
	for i := range 300 {
		d := filepath.Join(root, fmt.Sprintf("d%03d", i))
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "acces.md"), []byte(page(newKey(byte(i)).fp, false)), 0o644)
	}
	cmd := exec.Command("sh", "-c", `ulimit -n 48 && exec "$0" -test.run='^TestLowDescriptorLimit$' -test.count=1`, os.Args[0])
	cmd.Env = append(os.Environ(), "PRET_TEST_LOWFD_DIR="+root)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "files=300 unreadable=0 allowed=4\n") {
		t.Fatalf("under ulimit -n 48: %s", out)
	}
}
