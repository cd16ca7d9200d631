package submissions

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/keytest"
)

// TestUnreadablePartOfASubmission: a folder or an archive of a learner's
// hand-in that cannot be read makes her result invalid, with the reason,
// even beside a valid acces.md: a key there would go unseen (outside
// tester: a key file 2,100 folders deep, and a zip in her Moodle folder,
// left a valid row and exit 0).
func TestUnreadablePartOfASubmission(t *testing.T) {
	dir := t.TempDir()
	// A zip inside the Moodle export, in her folder, beside her acces.md.
	var inner, outer bytes.Buffer
	zw := zip.NewWriter(&inner)
	w, _ := zw.Create("id_ed25519")
	w.Write([]byte("des octets\n"))
	zw.Close()
	zw = zip.NewWriter(&outer)
	w, _ = zw.Create("Dan D_14_assignsubmission_file_/acces.md")
	w.Write([]byte(page(newKey(1).fp, false)))
	w, _ = zw.Create("Dan D_14_assignsubmission_file_/rendu.zip")
	w.Write(inner.Bytes())
	w, _ = zw.Create("Eve E_15_assignsubmission_file_/acces.md")
	w.Write([]byte(page(newKey(2).fp, false)))
	zw.Close()
	export := filepath.Join(dir, "export.zip")
	os.WriteFile(export, outer.Bytes(), 0o644)
	cases := map[string][]string{"zip in her folder": {export, "Dan D", "archive dans une archive"}}

	// A folder too deep for the system's paths, in her folder.
	if runtime.GOOS == "linux" {
		tree := filepath.Join(dir, "rendus")
		os.MkdirAll(filepath.Join(tree, "kim"), 0o755)
		os.MkdirAll(filepath.Join(tree, "lee"), 0o755)
		os.WriteFile(filepath.Join(tree, "kim", "acces.md"), []byte(page(newKey(3).fp, false)), 0o644)
		os.WriteFile(filepath.Join(tree, "lee", "acces.md"), []byte(page(newKey(4).fp, false)), 0o644)
		root, err := os.OpenRoot(filepath.Join(tree, "kim"))
		if err != nil {
			t.Fatal(err)
		}
		for range 2100 { // 4,200 bytes of "d/": past PATH_MAX
			root.Mkdir("d", 0o755)
			below, err := root.OpenRoot("d")
			root.Close()
			if err != nil {
				t.Fatal(err)
			}
			root = below
		}
		root.WriteFile("id_ed25519", []byte("des octets\n"), 0o600)
		root.Close()
		cases["folder too deep"] = []string{tree, "kim", "chemin trop long"}
	}
	for name, c := range cases {
		res := Validate(c[:1], Options{Rules: testRules})
		found := false
		for _, r := range res {
			if !strings.Contains(r.Path, c[1]) {
				if !r.Valid {
					t.Errorf("%s: the other learner's result changed: %+v", name, r)
				}
				continue
			}
			found = true
			if r.Valid || !hasCode(r, checklist.CodeUnreadable) || !strings.Contains(r.Problems[len(r.Problems)-1].Message, c[2]) {
				t.Errorf("%s: %s %v %+v", name, r.Path, r.Valid, r.Problems)
			}
			if len(r.Others) > 0 { // named by its problem, not listed again
				t.Errorf("%s: listed as another file too: %v", name, r.Others)
			}
		}
		if !found || len(res) != 2 {
			t.Errorf("%s: %d results, want one per learner: %+v", name, len(res), res)
		}
	}
}

func hasCode(r checklist.FileResult, code checklist.Code) bool {
	for _, p := range r.Problems {
		if p.Code == code {
			return true
		}
	}
	return false
}

// TestFlatMoodleArchiveIsHers: in a Moodle download extracted flat, an
// archive named with a learner's prefix is hers, all it holds: a key in
// it is on her row, an acces.md in it is her submission (outside tester:
// each became a learner of its own, and the worksheet graded the key's
// owner 20 and the acces.md's 0).
func TestFlatMoodleArchiveIsHers(t *testing.T) {
	archive := func(name, body string) []byte {
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		w, _ := zw.Create(name)
		w.Write([]byte(body))
		zw.Close()
		return b.Bytes()
	}
	dir := t.TempDir()
	files := map[string][]byte{
		// No acces.md, her key instead: the key on her no-acces-md row.
		"Leroy Dan_104_assignsubmission_file_id_ed25519_romeo": []byte(keytest.Forms(t)[0].File()),
		"Dupont Alice_101_assignsubmission_file_acces.md":      []byte(page(newKey(1).fp, false)),
		"Dupont Alice_101_assignsubmission_file_cles.zip":      archive("id_ed25519", keytest.Forms(t)[0].File()),
		"Martin Bob_102_assignsubmission_file_rendu.zip":       archive("acces.md", page(newKey(2).fp, false)),
	}
	for name, data := range files {
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	res := Validate([]string{dir}, Options{Rules: testRules})
	if len(res) != 3 {
		t.Fatalf("%d rows, want one per learner: %+v", len(res), res)
	}
	for _, r := range res {
		switch r.Apprenant {
		case "Leroy Dan":
			if r.Valid || !hasCode(r, checklist.CodePrivateKeyLeak) || !hasCode(r, checklist.CodeNoAccesMD) {
				t.Errorf("Dan: %+v", r)
			}
		case "Dupont Alice":
			if r.Valid || !hasCode(r, checklist.CodePrivateKeyLeak) {
				t.Errorf("Alice: %+v", r)
			}
		case "Martin Bob":
			if !r.Valid || !strings.HasSuffix(r.Path, "rendu.zip!/acces.md") {
				t.Errorf("Bob: %+v", r)
			}
		default:
			t.Errorf("a row for %q: %+v", r.Apprenant, r)
		}
	}
}
