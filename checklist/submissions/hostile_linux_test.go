package submissions

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// TestNameRule generates names from the pieces platforms put around
// "acces.md" and checks each against the rule of organisateurs.md.
func TestNameRule(t *testing.T) {
	stems := map[string]bool{"acces": true, "Accès": true, "ACCES": true, "acce\u0300s": true, "mesacces": false, "acess": false, "access": false}
	prefixes := map[string]bool{"": true, "Dupont Alice_123456_assignsubmission_file_": true, "mon-": true, "mon.": true, "devoir ": true, "mon": false}
	marks := map[string]bool{"": true, " (1)": true, "(2)": true, "-1": true, "_2": true, " 3": true, "(x)": false, "-": false}
	exts := map[string]bool{".md": true, ".MD": true, ".Md": true, ".md.bak": false, ".txt": false, "": false}
	n := 0
	for s, okS := range stems {
		for p, okP := range prefixes {
			for m, okM := range marks {
				for e, okE := range exts {
					name := p + s + m + e
					want := okS && okP && okM && okE
					if got := IsSubmissionName(name); got != want {
						t.Errorf("IsSubmissionName(%q) = %v, want %v", name, got, want)
					}
					n++
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d names", n)
	}
}

func TestLearnerNames(t *testing.T) {
	for _, c := range []struct {
		parts    []string
		fallback string
		want     string
	}{
		{[]string{"Dupont Alice_123_assignsubmission_file_acces.md"}, "x", "Dupont Alice"},
		{[]string{"Dupont Alice_123_assignsubmission_file_", "acces.md"}, "x", "Dupont Alice"},
		{[]string{"etu042", "acces.md"}, "x", "etu042"},
		{[]string{"etu042", "sous", "acces.md"}, "x", "etu042"},
		{[]string{"..", "..", "etu", "acces.md"}, "x", "etu"},
		{[]string{"acces.md"}, "rendus", "rendus"},
		{[]string{"Nom_abc_assignsubmission_file_acces.md"}, "x", "x"},
		// The outermost Moodle name is the learner: a name chosen
		// inside a learner's folder is hers.
		{[]string{"Dupont Alice_123_assignsubmission_file_", "Martin Bob_456_assignsubmission_file_acces.md"}, "x", "Dupont Alice"},
		{[]string{"Dupont Alice_123_assignsubmission_file_", "Martin Bob_456_assignsubmission_file_", "acces.md"}, "x", "Dupont Alice"},
	} {
		if got, _, _ := learnerAt(nil, c.parts, level{}, c.fallback); got != c.want {
			t.Errorf("learnerAt(%q) = %q, want %q", c.parts, got, c.want)
		}
	}
}

func only(t *testing.T, results []checklist.FileResult, path string) checklist.FileResult {
	t.Helper()
	for _, r := range results {
		if r.Path == path {
			return r
		}
	}
	t.Fatalf("%s not in the results: %+v", path, results)
	return checklist.FileResult{}
}

func isUnreadable(r checklist.FileResult) bool {
	return len(r.Problems) == 1 && r.Problems[0].Code == "unreadable" && !r.Valid
}

// TestLinksAndSpecialFilesInFolders: inside a walked folder, every kind
// of link and special file is reported unreadable with a French reason,
// nothing behind it is read or quoted, and the rest of the run goes on.
func TestLinksAndSpecialFilesInFolders(t *testing.T) {
	root := t.TempDir()
	secret := filepath.Join(root, "secret")
	os.WriteFile(secret, []byte("SECRET-CONTENT Date de la demande 2026-10-01\n"), 0o600)
	dir := filepath.Join(root, "rendus")
	links := map[string]string{
		"a/acces.md": "../../secret",
		"b/acces.md": "/etc/shadow",
		"c/acces.md": "/dev/zero",
		"d/acces.md": "/nonexistent/target",
		"e/acces.md": "acces.md", // loops on itself
		"f/lot.zip":  secret,
	}
	files := map[string]entry{
		"kim/acces.md": {body: page(newKey(1).fp, false)},
		"vrai/":        {kind: fs.ModeDir},
		"g/acces.md":   {kind: fs.ModeNamedPipe},
		// Links whose names are not submission names are passed over
		// silently, wherever they point: folder aliases, loops to ".", a
		// link to a folder named like a learner.
		"lien-dossier":   {body: filepath.Join(dir, "vrai"), kind: fs.ModeSymlink},
		"here":           {body: ".", kind: fs.ModeSymlink},
		"vrai/up":        {body: "..", kind: fs.ModeSymlink},
		"kim/alias":      {body: "../kim", kind: fs.ModeSymlink},
		"kim/notes.txt":  {body: "../../secret", kind: fs.ModeSymlink},
		"alias-vers-kim": {body: "kim", kind: fs.ModeSymlink},
	}
	for rel, target := range links {
		files[rel] = entry{body: target, kind: fs.ModeSymlink}
	}
	layout(t, dir, files)
	results := Validate([]string{dir}, Options{Rules: testRules, Workers: 2})
	for rel := range links {
		r := only(t, results, filepath.Join(dir, rel))
		if !isUnreadable(r) || !strings.Contains(r.Problems[0].Message, "lien symbolique") {
			t.Errorf("%s: %+v", rel, r)
		}
	}
	// +3: g's FIFO, kim, and vrai, a learner's folder holding no acces.md.
	if len(results) != len(links)+3 {
		t.Errorf("%d results, want %d (links to follow nothing are passed over): %+v", len(results), len(links)+3, results)
	}
	if r := only(t, results, filepath.Join(dir, "vrai")); codesOfResult(r) != "no-acces-md" {
		t.Errorf("vrai: %+v", r)
	}
	if r := only(t, results, filepath.Join(dir, "g", "acces.md")); !isUnreadable(r) || !strings.Contains(r.Problems[0].Message, "pas un fichier ordinaire") {
		t.Errorf("FIFO: %+v", r)
	}
	if r := only(t, results, filepath.Join(dir, "kim", "acces.md")); !r.Valid {
		t.Errorf("the run did not go on: %+v", r)
	}
	for _, format := range checklist.FileFormats {
		var buf bytes.Buffer
		checklist.WriteFilesReport(&buf, format, checklist.FilesReport{Files: results})
		if strings.Contains(buf.String(), "SECRET-CONTENT") || strings.Contains(buf.String(), "2026-10-01") {
			t.Errorf("%s quotes what a link points to", format)
		}
		for _, english := range []string{"permission denied", "no such file", "too many levels", "stat ", "open "} {
			if strings.Contains(buf.String(), english) {
				t.Errorf("%s says %q in English", format, english)
			}
		}
	}
}

// TestCommandLineArguments: a link named on the command line is followed
// (the organiser chose it); a dangling or looping one, a FIFO or a device
// is a result of its own, and the run goes on.
func TestCommandLineArguments(t *testing.T) {
	root := t.TempDir()
	good := filepath.Join(root, "kim", "acces.md")
	os.MkdirAll(filepath.Dir(good), 0o755)
	os.WriteFile(good, []byte(page(newKey(1).fp, false)), 0o644)
	link := filepath.Join(root, "lien.md")
	os.Symlink(good, link)
	dangling := filepath.Join(root, "casse.md")
	os.Symlink(filepath.Join(root, "nulle-part"), dangling)
	loop := filepath.Join(root, "boucle.md")
	os.Symlink(loop, loop)
	fifo := filepath.Join(root, "tube.md")
	syscall.Mkfifo(fifo, 0o644)
	results := Validate([]string{dangling, link, loop, fifo, "/dev/zero", good}, Options{Rules: testRules})
	// The link is followed, to good: one file, read once, under the
	// first of its names in order.
	if r := only(t, results, good); !r.Valid {
		t.Errorf("%+v", r)
	}
	for _, p := range []string{dangling, loop, fifo, "/dev/zero"} {
		if r := only(t, results, p); !isUnreadable(r) {
			t.Errorf("%s: %+v", p, r)
		}
	}
	// good and the link to it are one file: read once.
	if len(results) != 5 {
		t.Errorf("%d results: %+v", len(results), results)
	}
}

// TestPathsTooLong: a folder whose path the system refuses is reported,
// not skipped in silence.
func TestPathsTooLong(t *testing.T) {
	root := t.TempDir()
	long := strings.Repeat("d", 200)
	dir, err := os.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	fd := int(dir.Fd())
	// Build 25 levels with *at calls: the full path is over PATH_MAX.
	for i := 0; i < 25; i++ {
		if err := syscall.Mkdirat(fd, long, 0o755); err != nil {
			t.Fatal(err)
		}
		nfd, err := syscall.Openat(fd, long, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			syscall.Close(fd)
		}
		fd = nfd
	}
	f, _ := syscall.Openat(fd, "acces.md", syscall.O_WRONLY|syscall.O_CREAT, 0o644)
	syscall.Write(f, []byte("x"))
	syscall.Close(f)
	syscall.Close(fd)
	dir.Close()
	defer exec0(t, root)
	results := Validate([]string{root}, Options{Rules: testRules})
	n := 0
	for _, r := range results {
		if isUnreadable(r) && strings.Contains(r.Problems[0].Message, "trop long") {
			n++
		}
	}
	if n == 0 {
		t.Fatalf("the too-long folder was skipped in silence: %+v", results)
	}
}

// exec0 removes a tree deeper than PATH_MAX, which os.RemoveAll handles.
func exec0(t *testing.T, root string) {
	if err := os.RemoveAll(root); err != nil {
		t.Log(err)
	}
}

// TestOneFileReadOnce: one tree under two spellings, a file also named
// on the command line, and acces.md beside accès.md with the same key in
// kim's folder: one result listing the other, no duplicate-fingerprint.
func TestOneFileReadOnce(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "rendus")
	fp := newKey(3).fp
	os.MkdirAll(filepath.Join(dir, "kim"), 0o755)
	os.WriteFile(filepath.Join(dir, "kim", "acces.md"), []byte(page(fp, false)), 0o644)
	os.WriteFile(filepath.Join(dir, "kim", "accès.md"), []byte(page(fp, false)), 0o644)
	os.Symlink(dir, filepath.Join(root, "autre-nom"))
	results := Validate([]string{dir, filepath.Join(root, "autre-nom"), dir + "/./kim/../", filepath.Join(dir, "kim", "acces.md")}, Options{Rules: testRules})
	if len(results) != 1 || len(results[0].Others) != 1 {
		t.Fatalf("%d results, want 1 listing the other: %+v", len(results), results)
	}
	for _, r := range results {
		if !r.Valid || len(r.Problems) != 0 {
			t.Errorf("%+v", r)
		}
	}
}

// bomb is a zip whose one entry inflates to size zero bytes.
func bomb(t testing.TB, name string, size int64) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
	if err != nil {
		t.Fatal(err)
	}
	zeros := make([]byte, 1<<20)
	for written := int64(0); written < size; written += int64(len(zeros)) {
		w.Write(zeros)
	}
	zw.Close()
	return buf.Bytes()
}

// lie rewrites the sizes a zip's headers claim for its entries, as a
// hostile archive would, so that only the cap while inflating holds.
func lie(data []byte) []byte {
	out := append([]byte(nil), data...)
	for i := 0; i+30 < len(out); i++ {
		switch {
		case bytes.Equal(out[i:i+4], []byte("PK\x01\x02")): // central directory
			copy(out[i+24:i+28], []byte{10, 0, 0, 0})
		}
	}
	return out
}

// TestHostileArchives: a 1 GB bomb, the same with lying headers, a
// corrupt archive and ".." or absolute entry names. Each is reported, the
// others are read, memory stays bounded and nothing reaches the disk.
func TestHostileArchives(t *testing.T) {
	root := t.TempDir()
	gig := bomb(t, "etu1/acces.md", 1<<30)
	if len(gig) > 8<<20 {
		t.Fatalf("bomb of %d bytes", len(gig))
	}
	os.WriteFile(filepath.Join(root, "bombe.zip"), gig, 0o644)
	os.WriteFile(filepath.Join(root, "menteuse.zip"), lie(gig), 0o644)
	good := classroom().zipped(t, "")
	os.WriteFile(filepath.Join(root, "abimee.zip"), good[:len(good)/2], 0o644)
	os.WriteFile(filepath.Join(root, "vide.zip"), []byte("PK\x05\x06 pas un zip"), 0o644)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"../../../etc/acces.md", "/tmp/absolu/acces.md", `..\..\win\acces.md`, "ok/acces.md"} {
		w, _ := zw.Create(name)
		w.Write([]byte(page(newKey(byte(len(name))).fp, false)))
	}
	zw.Close()
	os.WriteFile(filepath.Join(root, "chemins.zip"), buf.Bytes(), 0o644)
	before := listTree(t, root)

	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	results := Validate([]string{root}, Options{Rules: testRules, Workers: 2})
	runtime.ReadMemStats(&m1)
	if grew := m1.TotalAlloc - m0.TotalAlloc; grew > 64<<20 {
		t.Errorf("reading the archives allocated %d MiB: the per-entry cap does not hold", grew>>20)
	}
	for _, p := range []string{"bombe.zip!/etu1/acces.md", "menteuse.zip!/etu1/acces.md"} {
		r := only(t, results, filepath.Join(root, p))
		if r.Valid || len(r.Problems) != 1 || (r.Problems[0].Code != "too-large" && r.Problems[0].Code != "unreadable") {
			t.Errorf("%s: %+v", p, r)
		}
	}
	for _, p := range []string{"abimee.zip", "vide.zip"} {
		if r := only(t, results, filepath.Join(root, p)); !isUnreadable(r) || !strings.Contains(r.Problems[0].Message, "archive") {
			t.Errorf("%s: %+v", p, r)
		}
	}
	for _, e := range []string{"../../../etc/acces.md", "/tmp/absolu/acces.md", `..\..\win\acces.md`, "ok/acces.md"} {
		if r := only(t, results, filepath.Join(root, "chemins.zip")+"!/"+e); !r.Valid {
			t.Errorf("%s: %+v", e, r)
		}
	}
	if after := listTree(t, root); after != before {
		t.Errorf("the run wrote to disk:\n%s\n---\n%s", before, after)
	}
	if _, err := os.Stat("/tmp/absolu"); err == nil {
		t.Error("an absolute entry name reached the disk")
	}
}

func listTree(t *testing.T, root string) string {
	var b strings.Builder
	filepath.Walk(filepath.Dir(root), func(p string, info os.FileInfo, err error) error {
		if err == nil {
			b.WriteString(p + "\n")
		}
		return nil
	})
	return b.String()
}
