package submissions

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/romeo-pret/pret/checklist"
)

// TestNamesNotInUTF8: a submission name written in Latin-1 on disk, or in
// CP437 in an archive without the UTF-8 flag, is read as its decoded name
// says, never skipped; every format shows its path without raw bytes.
// Names that do not match once decoded stay unread.
func TestNamesNotInUTF8(t *testing.T) {
	body := page(newKey(5).fp, false)
	disk := map[string]bool{
		"Acc\xe8s.md":         true,
		"ACC\xc8S.md":         true,
		"kim-acc\xe8s (1).md": true,
		"Dupont \xc9lise_7_assignsubmission_file_acc\xe8s.md": true,
		"mesacc\xe8s.md":  false,
		"acc\xe8s.md.bak": false,
	}
	inZip := map[string]bool{
		"etu/Acc\x8as.md":          true, // è in CP437
		"etu2/ACC\x90S.md":         true, // É in CP437
		"\x90lise/acc\x8as (2).md": true,
		"etu3/mesacc\x8as.md":      false,
	}
	for name, want := range disk {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "etu", name), body)
		res := Validate([]string{dir}, Options{Rules: testRules})
		if got := len(res) == 1 && res[0].Valid; got != want || !want && len(res) != 0 {
			t.Errorf("disk %q: %+v, want read %v", name, res, want)
		}
		checkShown(t, res)
	}
	for name, want := range inZip {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, NonUTF8: true})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
		zw.Close()
		p := filepath.Join(t.TempDir(), "lot.zip")
		os.WriteFile(p, buf.Bytes(), 0o644)
		res := Validate([]string{p}, Options{Rules: testRules})
		if got := len(res) == 1 && res[0].Valid; got != want || !want && len(res) != 0 {
			t.Errorf("zip %q: %+v, want read %v", name, res, want)
		}
		for _, r := range res {
			if !utf8.ValidString(r.Path) || !strings.ContainsAny(r.Path, "èÉ") {
				t.Errorf("zip %q shown as %q, not decoded from CP437", name, r.Path)
			}
		}
		checkShown(t, res)
	}
}

// checkShown: no format writes a name's raw invalid bytes.
func checkShown(t *testing.T, res []checklist.FileResult) {
	t.Helper()
	for _, format := range checklist.FileFormats {
		var out bytes.Buffer
		checklist.WriteFilesReport(&out, format, checklist.FilesReport{Files: res})
		if !utf8.Valid(out.Bytes()) {
			t.Errorf("%s writes raw bytes of a name", format)
		}
	}
}
