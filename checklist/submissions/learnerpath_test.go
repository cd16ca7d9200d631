package submissions

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMoodleNameWinsOnThePath: generated paths where a Moodle name
// ("Nom Prénom_id_assignsubmission_file_") sits at one place from the
// argument down or above it (the argument folder itself, a folder below
// it, a folder above a file or folder named on the command line, the
// folder of an archive, a folder inside the archive, the file name), on
// disk and in archives, given as a folder, an archive or the file itself:
// the learner is always the Moodle name, never the raw folder or entry
// folder.
func TestMoodleNameWinsOnThePath(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 11))
	firsts := []string{"Alice", "Bob", "Chloé", "Denis", "Émile", "Zoë"}
	lasts := []string{"Dupont", "Martin", "Durand", "Petit", "N'Guyen", "de la Tour"}
	for i := range 80 {
		learner := lasts[rng.IntN(len(lasts))] + " " + firsts[rng.IntN(len(firsts))]
		m := fmt.Sprintf("%s_%d_assignsubmission_file_", learner, 1+rng.IntN(999999))
		fp := newKey(byte(40 + i%20)).fp
		body := []byte(page(fp, false))
		dir := t.TempDir()
		top := filepath.Join(dir, "mz")
		write := func(p string, data []byte) {
			t.Helper()
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		zipped := func(entries ...string) []byte { return zipOf(t, "", entries, string(body)) }
		sub := []string{"", "e3/", "e3/x/", "./e3/", "e3//"}[rng.IntN(5)]
		var args []string
		var layout string
		switch i % 10 {
		case 0: // the Moodle folder is the argument
			layout = "argument folder"
			write(filepath.Join(top, m, filepath.FromSlash(sub), "acces.md"), body)
			args = []string{filepath.Join(top, m)}
		case 1: // the file inside the Moodle folder is named
			layout = "file named in the Moodle folder"
			write(filepath.Join(top, m, "acces.md"), body)
			args = []string{filepath.Join(top, m, "acces.md")}
		case 2: // a folder below the argument
			layout = "folder below"
			write(filepath.Join(top, "groupe", m, filepath.FromSlash(sub), "acces.md"), body)
			args = []string{top}
		case 3: // an archive in the Moodle folder, walked
			layout = "archive's folder, walked"
			write(filepath.Join(top, m, "rendu.zip"), zipped(sub+"acces.md"))
			args = []string{top}
		case 4: // an archive in the Moodle folder, the folder as argument
			layout = "archive's folder as argument"
			write(filepath.Join(top, m, "rendu.zip"), zipped(sub+"acces.md"))
			args = []string{filepath.Join(top, m)}
		case 5: // the archive itself named
			layout = "archive named"
			write(filepath.Join(top, m, "rendu.zip"), zipped(sub+"acces.md"))
			args = []string{filepath.Join(top, m, "rendu.zip")}
		case 6: // a Moodle folder inside the archive
			layout = "folder in the archive"
			write(filepath.Join(top, "lot.zip"), zipped("e1/"+m+"/"+sub+"acces.md"))
			args = []string{filepath.Join(top, "lot.zip")}
		case 7: // the file name
			layout = "file name"
			if rng.IntN(2) == 0 {
				write(filepath.Join(top, "x", m+"acces.md"), body)
				args = []string{top}
			} else {
				write(filepath.Join(top, "lot.zip"), zipped(sub+m+"acces.md"))
				args = []string{filepath.Join(top, "lot.zip")}
			}
		case 8: // a file deep below the Moodle folder, named
			layout = "file named below the Moodle folder"
			write(filepath.Join(top, m, "a", "b", "acces.md"), body)
			args = []string{filepath.Join(top, m, "a", "b", "acces.md")}
		case 9: // a folder below the Moodle folder is the argument
			layout = "folder below the Moodle folder as argument"
			write(filepath.Join(top, m, "a", filepath.FromSlash(sub), "acces.md"), body)
			args = []string{filepath.Join(top, m, "a")}
		}
		res := Validate(args, Options{Rules: testRules, Workers: 2})
		if len(res) != 1 {
			t.Fatalf("%s %q: %d results", layout, args, len(res))
		}
		if res[0].Apprenant != learner {
			t.Errorf("%s (%s): learner %q, want %q", layout, res[0].Path, res[0].Apprenant, learner)
		}
		if strings.Contains(res[0].Apprenant, "assignsubmission") {
			t.Errorf("%s: raw Moodle folder name %q", layout, res[0].Apprenant)
		}
	}
}
