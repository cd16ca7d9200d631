package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fpOf is a well-formed fingerprint of its own for each n.
func fpOf(n int) string {
	sum := sha256.Sum256([]byte{byte(n)})
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

// classroomRoster is classroom_roster.csv as Classroom writes it: gael
// accepted no assignment, so has no repository.
const classroomRoster = `"identifier","github_username","github_id","name"
"alice@univ.example","alice42","101","Alice Dupont"
"bob@univ.example","bob","102","Bob Martin"
"chloe@univ.example","chloe","103","Chloé Durand"
"denis@univ.example","denis-d","104","Denis Petit"
"emma@univ.example","emma","105","Emma Leroy"
"farid@univ.example","farid","106","Farid Benali"
"gael@univ.example","gael","107","Gaël Morel"
`

// classroomClone lays out what "gh classroom clone student-repos" makes
// for six students under dir: bob's repository holds only the
// template's README.md, chloe's acces.md and an identical docs/acces.md.
func classroomClone(t *testing.T, dir string) {
	t.Helper()
	files := map[string]string{}
	for i, login := range []string{"alice42", "bob", "chloe", "denis-d", "emma", "farid"} {
		repo := "acces-romeo-submissions/acces-romeo-" + login + "/"
		files[repo+"README.md"] = "# Accès ROMEO\n"
		files[repo+".git/HEAD"] = "ref: refs/heads/main\n"
		if login != "bob" {
			files[repo+"acces.md"] = accesPage(fpOf(i))
		}
	}
	files["acces-romeo-submissions/acces-romeo-chloe/docs/acces.md"] = accesPage(fpOf(2))
	for rel, body := range files {
		put(t, dir, rel, body)
	}
}

// validerReport is what the tests read of pret valider --format json.
type validerReport struct {
	Files []struct {
		Path, Apprenant, Participant string
		Valid                        bool
		Others                       []string
		Problems                     []struct{ Code, Message string }
	}
	Summary struct{ Files, Valid, Invalid int }
}

// readReport decodes the JSON report of pret valider.
func readReport(t *testing.T, out string) validerReport {
	t.Helper()
	var rep validerReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return rep
}

// TestValiderClassroomClone: an organiser on Classroom sees every
// student once, by login, bob (no acces.md) included, and chloe is not
// accused of sharing a key with herself; from the folder above
// ("pret valider ." where gh ran) as from the submissions folder.
func TestValiderClassroomClone(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	classroomClone(t, h.dir)
	for _, arg := range []string{".", "acces-romeo-submissions"} {
		r := h.must(1, "", "valider", "--format", "json", arg) // bob has no acces.md
		rep := readReport(t, r.stdout)
		seen := map[string]bool{}
		for _, f := range rep.Files {
			if seen[f.Apprenant] {
				t.Errorf("%s: %s twice", arg, f.Apprenant)
			}
			seen[f.Apprenant] = true
			for _, p := range f.Problems {
				if p.Code == "duplicate-fingerprint" {
					t.Errorf("%s: %s accused of sharing a key: %s", arg, f.Apprenant, p.Message)
				}
			}
			switch f.Apprenant {
			case "bob":
				if f.Valid || len(f.Problems) != 1 || f.Problems[0].Code != "no-acces-md" {
					t.Errorf("%s: bob %+v", arg, f)
				}
			case "chloe":
				if !f.Valid || len(f.Others) != 1 || !strings.HasSuffix(filepath.ToSlash(f.Others[0]), "docs/acces.md") {
					t.Errorf("%s: chloe %+v", arg, f)
				}
			}
		}
		if len(rep.Files) != 6 || !seen["alice42"] || !seen["denis-d"] || rep.Summary.Invalid != 1 {
			t.Errorf("%s: %d rows %v, summary %+v", arg, len(rep.Files), seen, rep.Summary)
		}
	}
}

// TestValiderClassroomRoster: --feuille classroom_roster.csv is read as
// the roster: rows carry the roster's name and identifier, and gael,
// without a repository, is no-submission with hers. A roster is never
// written back: --feuille-sortie with it is a usage error, nothing written.
func TestValiderClassroomRoster(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	classroomClone(t, h.dir)
	os.WriteFile(h.path("classroom_roster.csv"), []byte(classroomRoster), 0o644)
	r := h.must(1, "", "valider", "--format", "json", "--feuille", "classroom_roster.csv", "acces-romeo-submissions")
	rep := readReport(t, r.stdout)
	byName := map[string]int{}
	for i, f := range rep.Files {
		byName[f.Apprenant] = i
	}
	if len(rep.Files) != 7 {
		t.Fatalf("%d rows: %v", len(rep.Files), byName)
	}
	alice := rep.Files[byName["Alice Dupont"]]
	if alice.Participant != "alice@univ.example" || !alice.Valid {
		t.Errorf("alice: %+v", alice)
	}
	gael, ok := byName["Gaël Morel"]
	if !ok || rep.Files[gael].Problems[0].Code != "no-submission" || !strings.Contains(rep.Files[gael].Problems[0].Message, "gael@univ.example") {
		t.Errorf("gael: %+v", rep.Files)
	}
	r = h.pret("", "valider", "--feuille", "classroom_roster.csv", "--feuille-sortie", "remplie.csv", "acces-romeo-submissions")
	if r.code != 2 || !strings.Contains(r.stderr, "pret: erreur : --feuille-sortie avec le roster GitHub Classroom") ||
		!strings.Contains(r.stderr, "pret: conseil : retirez --feuille-sortie") || r.stdout != "" {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(h.path("remplie.csv")); err == nil {
		t.Error("a roster was written back")
	}
}

// TestValiderPlainFoldersNoneHandedIn: two learners' folders, one with
// nothing in it: not « 1 fichier, 1 valide » and exit 0, but a row for
// her, no-acces-md, and exit 1.
func TestValiderPlainFoldersNoneHandedIn(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	os.MkdirAll(h.path("rendus/lou"), 0o755)
	put(t, h.dir, "rendus/kim/acces.md", accesPage(fpOne))
	r := h.pret("", "valider", "rendus")
	if r.code != 1 || !strings.Contains(r.stdout, "lou") || !strings.Contains(r.stdout, "no-acces-md") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
