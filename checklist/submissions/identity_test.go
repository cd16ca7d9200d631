package submissions

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// TestLearnerIdentity: a learner is not "a folder". Two distinct files are
// two submissions, so a shared key is duplicate-fingerprint on each, unless
// they are demonstrably one learner's: one name and its copy mark in one
// folder ("acces.md" and "acces (1).md", a resubmission: no error, by
// judgement), one Moodle name and id (two downloads of one export), or one
// file reached twice (read once). Each case runs over every way of handing
// the files in: folder, files named on the command line, archive root,
// archive folder.
func TestLearnerIdentity(t *testing.T) {
	k := newKey(7)
	body := page(k.fp, false)
	cases := []struct {
		name  string
		files []string // two files sharing k
		dup   bool
	}{
		{"two learners flat", []string{"alice-acces.md", "bob-acces.md"}, true},
		{"two learners flat, accents", []string{"alice_accès.md", "bob_ACCES.md"}, true},
		{"moodle flat, two ids", []string{"Dupont Alice_1_assignsubmission_file_acces.md", "Dupont Alice_2_assignsubmission_file_acces.md"}, true},
		{"copy mark", []string{"acces.md", "acces (1).md"}, false},
		{"copy mark dash", []string{"kim-acces.md", "kim-acces-2.md"}, false},
		{"moodle same id", []string{"Dupont Alice_1_assignsubmission_file_acces.md", "Dupont Alice_1_assignsubmission_file_acces (1).md"}, false},
	}
	for _, c := range cases {
		for _, kind := range []string{"folder", "files", "zip root", "zip folder"} {
			t.Run(c.name+"/"+kind, func(t *testing.T) {
				dir := t.TempDir()
				var args []string
				switch kind {
				case "folder", "files":
					flat := filepath.Join(dir, "flat")
					os.Mkdir(flat, 0o755)
					for _, f := range c.files {
						p := filepath.Join(flat, f)
						if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
							t.Fatal(err)
						}
						args = append(args, p)
					}
					if kind == "folder" {
						args = []string{flat}
					}
				default:
					prefix := ""
					if kind == "zip folder" {
						prefix = "lot/"
					}
					p := filepath.Join(dir, "lot.zip")
					os.WriteFile(p, zipOf(t, prefix, c.files, body), 0o644)
					args = []string{p}
				}
				res := Validate(args, Options{Rules: testRules, Workers: 2})
				if len(res) != 2 {
					t.Fatalf("%d results, want 2: %+v", len(res), res)
				}
				for _, r := range res {
					got := strings.Contains(codesOfResult(r), "duplicate-fingerprint")
					if got != c.dup {
						t.Errorf("%s: duplicate-fingerprint %v, want %v (%+v)", r.Path, got, c.dup, r.Problems)
					}
				}
			})
		}
	}
}

// TestSameMoodleLearnerInTwoDownloads: dl1.zip and dl2.zip, one export
// downloaded twice, are one learner twice each, not a shared key.
func TestSameMoodleLearnerInTwoDownloads(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 30 {
		files = append(files, "Dupont Alice"+string(rune('a'+i%26))+"_"+strconv.Itoa(100+i)+"_assignsubmission_file_/acces.md")
	}
	var args []string
	for _, n := range []string{"dl1.zip", "dl2.zip"} {
		p := filepath.Join(dir, n)
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for i, f := range files {
			w, _ := zw.Create(f)
			w.Write([]byte(page(newKey(byte(10+i)).fp, false)))
		}
		zw.Close()
		os.WriteFile(p, buf.Bytes(), 0o644)
		args = append(args, p)
	}
	res := Validate(args, Options{Rules: testRules})
	if len(res) != 60 {
		t.Fatalf("%d results, want 60", len(res))
	}
	for _, r := range res {
		if !r.Valid {
			t.Errorf("%s: %+v", r.Path, r.Problems)
		}
	}
}

func codesOfResult(r checklist.FileResult) string {
	var c []string
	for _, p := range r.Problems {
		c = append(c, p.Code)
	}
	return strings.Join(c, " ")
}

func zipOf(t *testing.T, prefix string, names []string, body string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.Create(prefix + n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	zw.Close()
	return buf.Bytes()
}

// TestPackDateRoundTrip: a date kept as a number comes back as it was
// stated, and anything but AAAA-MM-JJ is kept as none.
func TestPackDateRoundTrip(t *testing.T) {
	for _, s := range []string{"2026-10-16", "2000-01-01", "2100-12-31", "0999-09-09"} {
		if got := unpackDate(packDate(s)); got != s {
			t.Errorf("%s came back as %s", s, got)
		}
	}
	for _, s := range []string{"", "2026-1-16", "2026/10/16", "2026-10-1x", "12026-10-16"} {
		if n := packDate(s); n != 0 {
			t.Errorf("packDate(%q) = %d, want 0", s, n)
		}
	}
}
