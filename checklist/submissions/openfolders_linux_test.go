package submissions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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

// TestFoldersOpenBounded: the walk reads each folder's files by name in
// it, then closes it before going down, so a tree deep and wide, with
// files at every level, is read whole, in path order, with any number
// of workers, and leaves no folder open. Each learner's folder (n000 and
// all below it, each w…) is one result listing its other files.
func TestFoldersOpenBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	const maxOpenDirs = 64
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
		if len(got) != 1+4*maxOpenDirs {
			t.Fatalf("%d workers: %d results, want one per learner's folder", workers, len(got))
		}
		seen := map[string]bool{}
		for i, r := range got {
			if i > 0 && r.Path < got[i-1].Path {
				t.Fatalf("%d workers: %s after %s", workers, r.Path, got[i-1].Path)
			}
			if len(r.Problems) > 0 && strings.HasPrefix(string(r.Problems[0].Code), "unreadable") {
				t.Fatalf("%d workers: %s unreadable: %v", workers, r.Path, r.Problems)
			}
			seen[r.Path] = true
			for _, o := range r.Others {
				seen[o] = true
			}
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

// TestLowDescriptorLimit: under a small descriptor limit (a shell's
// ulimit -n 48, which Go cannot raise), every file of a wide tree is
// read: the walk holds one folder open at a time.
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
		fmt.Printf("files=%d unreadable=%d\n", len(got), bad)
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
	if !strings.Contains(string(out), "files=300 unreadable=0\n") {
		t.Fatalf("under ulimit -n 48: %s", out)
	}
}

// TestSwappedFolderNeverLeadsOutside: a folder on the way to a
// subfolder swapped for a link to another tree after the walk listed
// it (the race of a learner's folder replaced while pret valider runs)
// never makes the walk read the other tree: the subfolder, reached by
// a path that now goes through the link, is refused, not read.
func TestSwappedFolderNeverLeadsOutside(t *testing.T) {
	for _, depth := range []int{1, 2, 3} {
		root := t.TempDir()
		tree, outside := filepath.Join(root, "tree"), filepath.Join(root, "outside")
		rel := "v"
		for d := 1; d < depth; d++ {
			rel = filepath.Join(rel, fmt.Sprintf("d%d", d))
		}
		for _, base := range []string{tree, outside} {
			dir := filepath.Join(base, rel)
			os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
			body := page(newKey(1).fp, false)
			if base == outside {
				body = "SECRET " + page(newKey(2).fp, false)
			}
			os.WriteFile(filepath.Join(dir, "acces.md"), []byte(body), 0o644)
			os.WriteFile(filepath.Join(dir, "sub", "acces.md"), []byte(body), 0o644)
		}
		var items []item
		swapped := false
		w := &walker{seen: map[fileID]bool{}, filled: map[string]bool{}}
		w.emit = func(it item) {
			items = append(items, it)
			if !swapped {
				// The walk is in the deepest folder: swap the top one.
				swapped = true
				v := filepath.Join(tree, "v")
				if err := os.Rename(v, v+".real"); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.Join(outside, "v"), v); err != nil {
					t.Fatal(err)
				}
			}
		}
		w.arg(tree)
		refused := 0
		for _, it := range items {
			if errors.Is(it.err, errFolderMoved) {
				refused++
			}
			if strings.Contains(string(it.data), "SECRET") {
				t.Fatalf("depth %d: %s read from the other tree", depth, it.path)
			}
		}
		if !swapped || refused != 1 {
			t.Fatalf("depth %d: swapped %v, %d folders refused (want 1): %d items", depth, swapped, refused, len(items))
		}
	}
}

// TestFIFONeverOpened: a FIFO named like a submission in a folder, or
// named on the command line, is reported, never opened: a writer waiting on it stays waiting (opening
// it, even without blocking, would release the writer into a SIGPIPE).
func TestFIFONeverOpened(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "etu", "acces.md")
	os.MkdirAll(filepath.Dir(fifo), 0o755)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	opened := make(chan struct{})
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			f.Close()
		}
		close(opened)
	}()
	// Met in a folder, and named on the command line: reported as the
	// reader reports any file that is not regular, never opened.
	for _, args := range [][]string{{dir}, {fifo}} {
		got := Validate(args, Options{Rules: testRules})
		if len(got) != 1 || len(got[0].Problems) != 1 || got[0].Problems[0].Code != "unreadable" ||
			!strings.HasPrefix(got[0].Problems[0].Message, "fichier illisible : ce n'est pas un fichier ordinaire") {
			t.Fatalf("a FIFO, %v: %+v", args, got)
		}
	}
	select {
	case <-opened:
		t.Fatal("the FIFO was opened: its waiting writer was released")
	case <-time.After(200 * time.Millisecond):
	}
	// Release the writer.
	if f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
		<-opened
		f.Close()
	}
}

// TestArgumentThroughLinkAndDotDot: a folder given through a link and
// ".." ("M/A/L/.." where L is a link to ../T/S) is the folder the
// kernel lists (M/T): its files and subfolders are read there, as the
// listing says, never at its cleaned spelling (M/A), and no subfolder
// is taken for one swapped during the walk.
func TestArgumentThroughLinkAndDotDot(t *testing.T) {
	root := t.TempDir()
	m := filepath.Join(root, "M")
	wrong := "SECRET " + page(newKey(2).fp, true)
	layout(t, m, map[string]entry{
		"T/acces.md":   {body: page(newKey(1).fp, false)},
		"T/S/acces.md": {body: page(newKey(3).fp, false)},
		"A/acces.md":   {body: wrong},
		"A/S/acces.md": {body: wrong},
		"A/L":          {body: "../T/S", kind: fs.ModeSymlink},
	})
	// As typed: filepath.Join would clean it to M/A.
	got := Validate([]string{m + "/A/L/.."}, Options{Rules: testRules})
	if len(got) != 2 {
		t.Fatalf("%d results, want the 2 files of M/T: %+v", len(got), got)
	}
	for _, r := range got {
		if !r.Valid || len(r.Problems) > 0 {
			t.Errorf("%s: %+v (M/T's files are valid; M/A's are not, and must not be read)", r.Path, r.Problems)
		}
	}
}

// TestOpenDirNeverOpensFIFO: a FIFO where a folder was (swapped in
// after the listing, or named as one) is refused by O_DIRECTORY before
// it is opened. A writer checks that no reader ever had it open.
func TestOpenDirNeverOpensFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "dossier")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, follow := range []bool{true, false} {
		f, _, err := openDir(fifo, follow)
		if err == nil {
			f.Close()
			t.Fatalf("follow=%v: a FIFO opened as a folder", follow)
		}
		if !errors.Is(err, syscall.ENOTDIR) {
			t.Fatalf("follow=%v: %v, want ENOTDIR", follow, err)
		}
	}
	// No reader: a writer that does not wait is told so (ENXIO).
	if fd, err := syscall.Open(fifo, syscall.O_WRONLY|syscall.O_NONBLOCK, 0); err != syscall.ENXIO {
		if err == nil {
			syscall.Close(fd)
		}
		t.Fatalf("writer: %v, want ENXIO (no reader)", err)
	}
}
