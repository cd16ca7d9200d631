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
