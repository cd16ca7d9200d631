package submissions

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// listingEntries is a listing as (name, type) pairs, for comparing.
func listingEntries(l listing) []string {
	var out []string
	for i := range l.len() {
		out = append(out, l.name(i)+"\x00"+l.typ(i).String())
	}
	return out
}

// readDirListing is what the walk read before listDir: os.File.ReadDir,
// sorted by name.
func readDirListing(t *testing.T, dir string) listing {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return listingOf(entries)
}

// TestListDirIsReadDir holds listDir, which parses getdents64 itself,
// to os.File.ReadDir: the same names, byte for byte, the same types,
// the same order, for every kind of entry and for names of every byte
// but '/' and NUL, in folders small and large enough to take many
// calls of the kernel (and many of the 32 KiB buffer).
func TestListDirIsReadDir(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	randName := func() string {
		n := 1 + rng.IntN(60)
		if rng.IntN(20) == 0 {
			n = 200 + rng.IntN(56) // near NAME_MAX
		}
		b := make([]byte, n)
		for i := range b {
			for b[i] == 0 || b[i] == '/' {
				b[i] = byte(rng.IntN(256))
			}
		}
		s := string(b)
		if s == "." || s == ".." {
			return "x" + s
		}
		return s
	}
	// One scratch for every folder, as the walk lists them: a listing
	// stays whole once the next is made.
	var sc listScratch
	type kept struct {
		got  listing
		want []string
	}
	var listed []kept
	for _, size := range []int{0, 1, 7, 300, 5000, 3} {
		dir := t.TempDir()
		made := map[string]bool{}
		for len(made) < size {
			name := randName()
			if made[name] {
				continue
			}
			made[name] = true
			p := filepath.Join(dir, name)
			var err error
			switch rng.IntN(8) {
			case 0:
				err = os.Mkdir(p, 0o755)
			case 1:
				err = os.Symlink("ailleurs", p)
			case 2:
				err = syscall.Mkfifo(p, 0o600)
			default:
				err = os.WriteFile(p, nil, 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		// A socket, bound in the folder.
		if size > 0 {
			ln, err := net.Listen("unix", filepath.Join(dir, "sock"))
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
		}
		f, err := os.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := listDir(f, &sc)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := readDirListing(t, dir)
		if g, w := listingEntries(got), listingEntries(want); !slices.Equal(g, w) {
			t.Fatalf("%d entries: listDir gives %d entries, ReadDir %d; first lines %q / %q", size, len(g), len(w), g[:min(3, len(g))], w[:min(3, len(w))])
		}
		if !slices.IsSortedFunc(got.ents, func(a, b dirEnt) int { return strings.Compare(got.nameOf(a), got.nameOf(b)) }) {
			t.Fatal("listing not sorted")
		}
		if size > 0 && got.len() != size+1 {
			t.Fatalf("%d entries made, %d listed", size+1, got.len())
		}
		listed = append(listed, kept{got, listingEntries(want)})
	}
	for i, k := range listed {
		if !slices.Equal(listingEntries(k.got), k.want) {
			t.Fatalf("listing %d changed once the next folders were listed", i)
		}
	}
}

// dirent64 is one getdents64 record, as the kernel writes it.
func dirent64(ino uint64, typ byte, name string) []byte {
	reclen := (19 + len(name) + 1 + 7) &^ 7
	b := make([]byte, reclen)
	binary.NativeEndian.PutUint64(b[0:], ino)
	binary.NativeEndian.PutUint16(b[16:], uint16(reclen))
	b[18] = typ
	copy(b[19:], name)
	return b
}

// TestParseDirentsUnknownType: a file system that gives no type
// (DT_UNKNOWN) has each entry asked of the file itself, without
// following a link, as ReadDir does; an entry gone meanwhile is left
// out, "." and ".." are never entries, and a record cut short ends
// the buffer.
func TestParseDirentsUnknownType(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "acces.md"), nil, 0o600)
	os.Mkdir(filepath.Join(dir, "etu1"), 0o755)
	os.Symlink("etu1", filepath.Join(dir, "lien"))
	syscall.Mkfifo(filepath.Join(dir, "tube"), 0o600)
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b []byte
	for _, name := range []string{".", "..", "acces.md", "etu1", "lien", "parti", "tube"} {
		b = append(b, dirent64(1, unix.DT_UNKNOWN, name)...)
	}
	b = append(b, dirent64(1, unix.DT_REG, "coupé")[:20]...)
	names, ents, err := parseDirents(int(f.Fd()), dir, b, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := listingEntries(listing{names: string(names), ents: ents})
	want := listingEntries(readDirListing(t, dir))
	if !slices.Equal(got, want) {
		t.Fatalf("DT_UNKNOWN records give %q, ReadDir %q", got, want)
	}
	// Every known type, as the kernel names it, is ReadDir's.
	for dt, mode := range map[byte]fs.FileMode{
		unix.DT_REG: 0, unix.DT_DIR: fs.ModeDir, unix.DT_LNK: fs.ModeSymlink,
		unix.DT_FIFO: fs.ModeNamedPipe, unix.DT_SOCK: fs.ModeSocket,
		unix.DT_BLK: fs.ModeDevice, unix.DT_CHR: fs.ModeDevice | fs.ModeCharDevice,
	} {
		_, ents, err := parseDirents(-1, dir, dirent64(1, dt, "x"), nil, nil)
		if err != nil || len(ents) != 1 || ents[0].typ != mode {
			t.Errorf("d_type %d: %v %v, want %v", dt, ents, err, mode)
		}
	}
}

// BenchmarkListDir lists a folder of 10,000 submissions the walk's way
// (listDir) and the standard library's (ReadDir, then sorted by name):
// time, bytes and objects per listing.
func BenchmarkListDir(b *testing.B) {
	dir := b.TempDir()
	for i := range 10000 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("groupe%04d_etu%06d_acces.md", i/100, i)), nil, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	f, err := os.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.Run("listDir", func(b *testing.B) {
		b.ReportAllocs()
		var sc listScratch
		for b.Loop() {
			if _, err := f.Seek(0, 0); err != nil {
				b.Fatal(err)
			}
			if l, err := listDir(f, &sc); err != nil || l.len() != 10000 {
				b.Fatal(l.len(), err)
			}
		}
	})
	b.Run("ReadDir", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			entries, err := os.ReadDir(dir)
			if err != nil || len(entries) != 10000 {
				b.Fatal(len(entries), err)
			}
			slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		}
	})
}
