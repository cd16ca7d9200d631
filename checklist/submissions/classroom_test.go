package submissions

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/romeo-pret/pret/checklist"
)

// classroomClone is what "gh classroom clone student-repos" makes for six
// students: one repository each, "acces-romeo-LOGIN", with the template's
// README.md and a .git folder; bob handed nothing in, chloe has acces.md
// and docs/acces.md (identical, the copy in docs/ newer).
func classroomClone() map[string]entry {
	old, recent := time.Date(2026, 10, 1, 8, 0, 0, 0, time.UTC), time.Date(2026, 10, 20, 8, 0, 0, 0, time.UTC)
	files := map[string]entry{}
	for i, login := range []string{"alice42", "bob", "chloe", "denis-d", "emma", "farid"} {
		repo := "acces-romeo-" + login + "/"
		files[repo+"README.md"] = entry{body: "# Accès ROMEO\n"}
		files[repo+".git/HEAD"] = entry{body: "ref: refs/heads/main\n"}
		if login != "bob" {
			files[repo+"acces.md"] = entry{body: page(newKey(byte(60+i)).fp, false), mod: old}
		}
	}
	files["acces-romeo-chloe/docs/acces.md"] = entry{body: files["acces-romeo-chloe/acces.md"].body, mod: recent}
	return files
}

// TestClassroomCloneOneRowPerStudent: a Classroom clone, given as the
// submissions folder, as the folder above it (the "." of an organiser
// who ran gh there), or zipped with or without its top folder: one row
// per student, named by login; bob's no-acces-md; chloe's acces.md at the
// top of her repository graded, docs/acces.md listed, and no one accused
// of sharing a key with herself.
func TestClassroomCloneOneRowPerStudent(t *testing.T) {
	clone := classroomClone()
	wrapped := map[string]entry{}
	for name, e := range clone {
		wrapped["acces-romeo-submissions/"+name] = e
	}
	root := t.TempDir()
	layout(t, root, wrapped)
	zipTop := filepath.Join(root, "export.zip")
	zipFlat := filepath.Join(root, "acces-romeo-submissions.zip")
	os.WriteFile(zipTop, zipLayout(t, wrapped), 0o644)
	os.WriteFile(zipFlat, zipLayout(t, clone), 0o644)
	parent := filepath.Join(root, "parent")
	layout(t, parent, wrapped)
	for name, arg := range map[string]string{
		"submissions folder": filepath.Join(root, "acces-romeo-submissions"),
		"folder above":       parent,
		"zip with top":       zipTop,
		"zip without top":    zipFlat,
	} {
		res := Validate([]string{arg}, Options{Rules: testRules})
		byLearner := map[string]checklist.FileResult{}
		for _, r := range res {
			if _, dup := byLearner[r.Apprenant]; dup {
				t.Errorf("%s: two rows for %q", name, r.Apprenant)
			}
			byLearner[r.Apprenant] = r
		}
		if got := slices.Sorted(func(yield func(string) bool) {
			for k := range byLearner {
				if !yield(k) {
					return
				}
			}
		}); !slices.Equal(got, []string{"alice42", "bob", "chloe", "denis-d", "emma", "farid"}) {
			t.Fatalf("%s: learners %q", name, got)
		}
		bob := byLearner["bob"]
		if bob.Valid || codesOfResult(bob) != "no-acces-md" || !strings.Contains(bob.Problems[0].Message, "README.md reçu") {
			t.Errorf("%s: bob %+v", name, bob)
		}
		chloe := byLearner["chloe"]
		if !chloe.Valid || len(chloe.Problems) != 0 || !strings.HasSuffix(filepath.ToSlash(chloe.Path), "acces-romeo-chloe/acces.md") ||
			len(chloe.Others) != 1 || !strings.HasSuffix(filepath.ToSlash(chloe.Others[0]), "acces-romeo-chloe/docs/acces.md") {
			t.Errorf("%s: chloe %s %+v, others %q", name, chloe.Path, chloe.Problems, chloe.Others)
		}
		for _, l := range []string{"alice42", "denis-d", "emma", "farid"} {
			if !byLearner[l].Valid {
				t.Errorf("%s: %s %+v", name, l, byLearner[l].Problems)
			}
		}
	}
}

// TestPlainLearnerFolders: outside Moodle and Classroom, a folder per
// learner is one row each; one with no acces.md is no-acces-md when a
// neighbour handed one in, and nothing at all is said of folders none of
// which holds one (a tree that is not an export).
func TestPlainLearnerFolders(t *testing.T) {
	files := map[string]entry{
		"kim/acces.md":  {body: page(newKey(70).fp, false)},
		"lou/notes.txt": {body: "rien"},
		"max/":          {kind: fs.ModeDir},
	}
	for kind, arg := range bothWays(t, files) {
		res := byPath(Validate([]string{arg[0]}, Options{Rules: testRules}), arg[1])
		if len(res) != 3 || !res["kim/acces.md"].Valid {
			t.Fatalf("%s: %v", kind, mapKeys(res))
		}
		for p, learner := range map[string]string{"lou/": "lou", "max/": "max"} {
			r, ok := res[p]
			if !ok && kind == "zip" {
				r, ok = res[strings.TrimSuffix(p, "/")+"/"], true
			}
			if !ok || r.Apprenant != learner || codesOfResult(r) != "no-acces-md" {
				t.Errorf("%s %s: %+v", kind, p, r)
			}
		}
	}
	other := bothWays(t, map[string]entry{"src/main.go": {body: "package main"}, "docs/a.txt": {body: "x"}})
	for kind, arg := range other {
		if res := Validate([]string{arg[0]}, Options{Rules: testRules}); len(res) != 0 {
			t.Errorf("%s: a tree with no acces.md at all: %+v", kind, res)
		}
	}
}

// TestTiesDecidedAsMoodleDoes: two copies with one time (a tool that
// drops times) are ordered as they are named, "acces (1).md", "acces-1.md"
// or "acces_1.md" after "acces.md"; two names no platform orders are
// chosen by path, and the result says so (OthersTied).
func TestTiesDecidedAsMoodleDoes(t *testing.T) {
	same := time.Date(2026, 10, 1, 8, 0, 0, 0, time.UTC)
	const alice, bob = "Dupont Alice_1_assignsubmission_file_/", "Martin Bob_2_assignsubmission_file_/"
	copies := map[string]string{alice: "acces (1).md", "Durand Chloé_3_assignsubmission_file_/": "acces-1.md", "Petit Dan_4_assignsubmission_file_/": "acces_1.md"}
	keyOf := map[string]byte{alice: 71, "Durand Chloé_3_assignsubmission_file_/": 73, "Petit Dan_4_assignsubmission_file_/": 74}
	files := map[string]entry{
		bob + "acces.md":     {body: page(newKey(72).fp, false), mod: same},
		bob + "mon-acces.md": {body: page(newKey(72).fp, false), mod: same},
	}
	for who, name := range copies {
		files[who+"acces.md"] = entry{body: page(newKey(keyOf[who]).fp, true), mod: same}
		files[who+name] = entry{body: page(newKey(keyOf[who]).fp, false), mod: same}
	}
	for kind, arg := range bothWays(t, files) {
		res := byPath(Validate([]string{arg[0]}, Options{Rules: testRules}), arg[1])
		for who, name := range copies {
			if a, ok := res[who+name]; !ok || !a.Valid || a.OthersTied || len(a.Others) != 1 {
				t.Errorf("%s: %s %v %+v", kind, who, mapKeys(res), a)
			}
		}
		var b checklist.FileResult
		for p, r := range res {
			if strings.HasPrefix(p, bob) {
				b = r
			}
		}
		if !b.OthersTied || len(b.Others) != 1 {
			t.Errorf("%s: Bob %+v, want a tie said", kind, b)
		}
		// Said in every format read by people, texte included.
		run := Read([]string{arg[0]}, Options{Rules: testRules})
		for _, format := range []string{"texte", "csv", "junit", "json", "github"} {
			var out bytes.Buffer
			if err := checklist.WriteFilesReport(&out, format, checklist.FilesReport{Name: "pret valider", Results: run, All: true, Learners: run.Learners()}); err != nil {
				t.Fatal(err)
			}
			tie := "même date que le fichier lu"
			if format == "json" {
				tie = `"others_tied": true`
			}
			if !strings.Contains(out.String(), tie) || !strings.Contains(out.String(), "mon-acces.md") {
				t.Errorf("%s %s: the tie is not said:\n%s", kind, format, out.String())
			}
			if format == "texte" && !strings.Contains(out.String(), "Résumé : 4 apprenants, 4 valides, 0 invalide") {
				t.Errorf("%s: the summary does not count learners:\n%s", kind, out.String())
			}
		}
	}
}

// TestFolderOfLearnersFolders: "groupe/etu/acces.md", a folder holding
// learners' folders and no acces.md of its own, is not a learner: each
// etu is one, as the tree is read on disk or in a zip.
func TestFolderOfLearnersFolders(t *testing.T) {
	files := map[string]entry{
		"groupeA/etu1/acces.md":     {body: page(newKey(73).fp, false)},
		"groupeA/etu2/acces.md":     {body: page(newKey(74).fp, false)},
		"groupeA/etu2/old/acces.md": {body: page(newKey(74).fp, false)},
		"groupeB/etu3/acces.md":     {body: page(newKey(75).fp, false)},
		"groupeB/etu4/acces.md":     {body: page(newKey(76).fp, false)},
	}
	for kind, arg := range bothWays(t, files) {
		res := Validate([]string{arg[0]}, Options{Rules: testRules})
		var who []string
		for _, r := range res {
			who = append(who, r.Apprenant)
			if !r.Valid {
				t.Errorf("%s: %s %+v", kind, r.Path, r.Problems)
			}
		}
		if !slices.Equal(who, []string{"etu1", "etu2", "etu3", "etu4"}) {
			t.Errorf("%s: learners %q", kind, who)
		}
	}
}

// TestClassroomRepositoryIsNeverSplit: a repository with no acces.md at
// its root and one in each of two subfolders is still one student's
// (carol), never learners "v1" and "v2" accused of sharing her key: in
// "ASSIGNMENT-submissions", given alone, zipped, or among siblings
// sharing the assignment's prefix.
func TestClassroomRepositoryIsNeverSplit(t *testing.T) {
	key := newKey(98)
	repos := map[string]entry{
		"acces-romeo-carol/v1/acces.md": {body: page(key.fp, false), mod: time.Date(2026, 10, 1, 8, 0, 0, 0, time.UTC)},
		"acces-romeo-carol/v2/acces.md": {body: page(key.fp, false), mod: time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC)},
		"acces-romeo-bob/acces.md":      {body: page(newKey(99).fp, false)},
	}
	wrapped := map[string]entry{}
	for name, e := range repos {
		wrapped["acces-romeo-submissions/"+name] = e
	}
	root := t.TempDir()
	layout(t, filepath.Join(root, "clone"), wrapped)
	layout(t, filepath.Join(root, "siblings"), repos)
	zp := filepath.Join(root, "clone.zip")
	os.WriteFile(zp, zipLayout(t, wrapped), 0o644)
	for name, arg := range map[string]string{
		"submissions folder": filepath.Join(root, "clone", "acces-romeo-submissions"),
		"one repository":     filepath.Join(root, "clone", "acces-romeo-submissions", "acces-romeo-carol"),
		"siblings":           filepath.Join(root, "siblings"),
		"zip":                zp,
	} {
		var carol []checklist.FileResult
		for _, r := range Validate([]string{arg}, Options{Rules: testRules}) {
			if r.Apprenant != "bob" {
				carol = append(carol, r)
			}
		}
		if len(carol) != 1 || carol[0].Apprenant != "carol" || !carol[0].Valid ||
			!strings.HasSuffix(filepath.ToSlash(carol[0].Path), "carol/v2/acces.md") || len(carol[0].Others) != 1 {
			t.Errorf("%s: %+v", name, carol)
		}
	}
}
