package submissions

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/romeo-pret/pret/checklist"
)

// TestLearnerIdentity: two distinct files are two submissions, so a
// shared key is duplicate-fingerprint on each, unless they are
// demonstrably one learner's: one Moodle name and id (two downloads of one
// export), one file reached twice (read once), or one name and its copy
// mark ("acces.md" and "acces (1).md", a resubmission) in a learner's
// folder, one strictly below the argument or the archive's root: one
// result, the other file listed in it. Directly in the argument folder,
// at an archive's root (also spelt "./" or "//") or named on the command
// line, copies are different learners' attachments a browser renamed; so
// are files of two names in one folder. Each case runs over every way of
// handing the files in.
func TestLearnerIdentity(t *testing.T) {
	k := newKey(7)
	body := page(k.fp, false)
	cases := []struct {
		name  string
		files []string // two files sharing k
		// dup in a learner's folder; flat: dup directly in the argument,
		// at an archive's root or named on the command line
		dup, flat bool
	}{
		{"two learners flat", []string{"alice-acces.md", "bob-acces.md"}, true, true},
		{"two learners flat, accents", []string{"alice_accès.md", "bob_ACCES.md"}, true, true},
		{"moodle flat, two ids", []string{"Dupont Alice_1_assignsubmission_file_acces.md", "Dupont Alice_2_assignsubmission_file_acces.md"}, true, true},
		{"copy mark", []string{"acces.md", "acces (1).md"}, false, true},
		{"copy mark 2", []string{"acces (1).md", "acces (2).md"}, false, true},
		{"copy mark dash", []string{"kim-acces.md", "kim-acces-2.md"}, false, true},
		{"moodle same id", []string{"Dupont Alice_1_assignsubmission_file_acces.md", "Dupont Alice_1_assignsubmission_file_acces (1).md"}, false, false},
	}
	for _, c := range cases {
		for _, kind := range []string{"folder", "files", "folder below", "zip root", "zip ./", "zip //", "zip folder", "zip folder ./", "zip folder //"} {
			t.Run(c.name+"/"+kind, func(t *testing.T) {
				dir := t.TempDir()
				var args []string
				want := c.dup
				switch kind {
				case "folder", "files", "folder below":
					flat := filepath.Join(dir, "flat")
					if kind == "folder below" {
						flat = filepath.Join(dir, "flat", "etu042")
					}
					os.MkdirAll(flat, 0o755)
					for _, f := range c.files {
						p := filepath.Join(flat, f)
						if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
							t.Fatal(err)
						}
						args = append(args, p)
					}
					if kind != "files" {
						args = []string{filepath.Join(dir, "flat")}
					}
					if kind != "folder below" {
						want = c.flat
					}
				default:
					prefix := map[string]string{"zip root": "", "zip ./": "./", "zip //": "/", "zip folder": "lot/", "zip folder ./": "lot/./", "zip folder //": "lot//"}[kind]
					if !strings.Contains(kind, "folder") {
						want = c.flat
					}
					p := filepath.Join(dir, "lot.zip")
					os.WriteFile(p, zipOf(t, prefix, c.files, body), 0o644)
					args = []string{p}
				}
				res := Validate(args, Options{Rules: testRules, Workers: 2})
				if !want { // one learner's two files
					if len(res) != 1 || len(res[0].Others) != 1 || res[0].Others[0] == res[0].Path || !res[0].Valid {
						t.Fatalf("one learner's two files: %+v", res)
					}
					return
				}
				if len(res) != 2 {
					t.Fatalf("%d results, want 2: %+v", len(res), res)
				}
				for _, r := range res {
					got := strings.Contains(codesOfResult(r), "duplicate-fingerprint")
					if got != want {
						t.Errorf("%s: duplicate-fingerprint %v, want %v (%+v)", r.Path, got, want, r.Problems)
					}
				}
			})
		}
	}
}

// TestFlatDownloadCopiesAreLearners: generated flat download folders
// (n attachments acces.md, acces (1).md, … sharing k keys among them),
// given as the argument or as an archive's root: a file is
// duplicate-fingerprint exactly when another file states its key. The
// same layout one folder down (a learner's folder) is one result, the
// other files listed in it.
func TestFlatDownloadCopiesAreLearners(t *testing.T) {
	for seed := range 12 {
		n := 2 + seed%5
		keysUsed := 1 + seed%3
		var names []string
		fps := map[string]string{}
		count := map[string]int{}
		for i := range n {
			name := "acces.md"
			if i > 0 {
				name = "acces (" + strconv.Itoa(i) + ").md"
			}
			if seed%2 == 1 {
				name = strings.Replace(name, "acces", "Accès", 1)
			}
			names = append(names, name)
			fp := newKey(byte(20 + (i*7+seed)%keysUsed)).fp
			fps[name] = fp
			count[fp]++
		}
		dir := t.TempDir()
		for _, layout := range []string{"argument", "archive root", "learner folder", "archive learner folder"} {
			var args []string
			base := filepath.Join(dir, layout)
			switch layout {
			case "argument", "learner folder":
				at := base
				if layout == "learner folder" {
					at = filepath.Join(base, "etu042")
				}
				os.MkdirAll(at, 0o755)
				for _, nm := range names {
					os.WriteFile(filepath.Join(at, nm), []byte(page(fps[nm], false)), 0o644)
				}
			default:
				var buf bytes.Buffer
				zw := zip.NewWriter(&buf)
				for _, nm := range names {
					prefix := ""
					if layout == "archive learner folder" {
						prefix = "etu042/"
					}
					w, _ := zw.Create(prefix + nm)
					w.Write([]byte(page(fps[nm], false)))
				}
				zw.Close()
				base += ".zip"
				os.WriteFile(base, buf.Bytes(), 0o644)
			}
			args = []string{base}
			res := Validate(args, Options{Rules: testRules, Workers: 1 + seed%3})
			if strings.Contains(layout, "learner") {
				if len(res) != 1 || len(res[0].Others) != n-1 || strings.Contains(codesOfResult(res[0]), "duplicate-fingerprint") {
					t.Fatalf("seed %d %s: %+v, want one result listing %d others", seed, layout, res, n-1)
				}
				continue
			}
			if len(res) != n {
				t.Fatalf("seed %d %s: %d results, want %d", seed, layout, len(res), n)
			}
			for _, r := range res {
				nm := filepath.Base(strings.ReplaceAll(r.Path, "!/", "/"))
				want := count[fps[nm]] > 1 && !strings.Contains(layout, "learner")
				if got := strings.Contains(codesOfResult(r), "duplicate-fingerprint"); got != want {
					t.Errorf("seed %d %s %s: duplicate-fingerprint %v, want %v", seed, layout, r.Path, got, want)
				}
			}
		}
	}
}

// TestSameMoodleLearnerInTwoDownloads: dl1.zip and dl2.zip, one export
// downloaded twice, are one learner each, not a shared key: one result
// per learner, the other download's file listed in it.
func TestSameMoodleLearnerInTwoDownloads(t *testing.T) {
	dir := t.TempDir()
	files := map[string]entry{}
	for i := range 30 {
		files["Dupont Alice"+string(rune('a'+i%26))+"_"+strconv.Itoa(100+i)+"_assignsubmission_file_/acces.md"] = entry{body: page(newKey(byte(10+i)).fp, false)}
	}
	var args []string
	for _, n := range []string{"dl1.zip", "dl2.zip"} {
		p := filepath.Join(dir, n)
		os.WriteFile(p, zipLayout(t, files), 0o644)
		args = append(args, p)
	}
	res := Validate(args, Options{Rules: testRules})
	if len(res) != 30 {
		t.Fatalf("%d results, want 30", len(res))
	}
	for _, r := range res {
		if !r.Valid || len(r.Others) != 1 || !strings.HasPrefix(r.Path, args[1]) || !strings.HasPrefix(r.Others[0], args[0]) {
			t.Errorf("%s: %+v, others %v", r.Path, r.Problems, r.Others)
		}
	}
}

// codesOfResult are a result's problem codes as listed.
func codesOfResult(r checklist.FileResult) string {
	var c []string
	for _, p := range r.Problems {
		c = append(c, string(p.Code))
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

// TestOneLearnerWhateverTheSpelling: two downloads of one learner, her
// name in NFC in one and NFD in the other (a Mac's unzip), or her number
// written 0101 and 101, are one learner: one verdict, the other listed,
// no duplicate-fingerprint against herself.
func TestOneLearnerWhateverTheSpelling(t *testing.T) {
	good := page(newKey(42).fp, false)
	dir := t.TempDir()
	names := []string{norm.NFC.String("Petit Chloé_103"), norm.NFD.String("Petit Chloé_103"), "Dupont Alice_101", "Dupont Alice_0101"}
	for i, name := range names {
		data := zipOf(t, "Devoir/", []string{name + "_assignsubmission_file_/acces.md"}, good)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d-%d.zip", i/2, i%2)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, pair := range [][]string{{"0-0.zip", "0-1.zip"}, {"1-0.zip", "1-1.zip"}} {
		results := Validate([]string{filepath.Join(dir, pair[0]), filepath.Join(dir, pair[1])}, Options{Rules: testRules})
		if len(results) != 1 || !results[0].Valid || len(results[0].Others) != 1 {
			t.Errorf("%v: %d results, want one valid with the other listed: %+v", pair, len(results), results)
		}
	}
}
