package submissions

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// appleDouble is what a Mac's zip writes in "._acces.md": metadata, not text.
const appleDouble = "\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        "

// TestMacAndHiddenFoldersAreNobodys: what is under __MACOSX or a hidden
// folder, or named "._acces.md", is no submission and no learner, on disk
// and in a zip: Bob's AppleDouble is not his graded file, Classroom's
// __MACOSX makes no learner "submissions", ghost's .git/acces.md and
// __MACOSX/x/acces.md are read by nobody, and a repository holding only
// .git/acces.md is no-acces-md.
func TestMacAndHiddenFoldersAreNobodys(t *testing.T) {
	const bob = "export/Martin Bob_102_assignsubmission_file_/"
	for name, tc := range map[string]struct {
		files map[string]entry
		want  map[string]string // learner: codes of her row ("" valid)
	}{
		"moodle": {map[string]entry{
			bob + "acces.md": {body: page(newKey(90).fp, false)},
			"export/Dupont Alice_101_assignsubmission_file_/acces.md": {body: page(newKey(91).fp, false)},
			"__MACOSX/" + bob + "._acces.md":                          {body: appleDouble},
		}, map[string]string{"Martin Bob": "", "Dupont Alice": ""}},
		"classroom": {map[string]entry{
			"acces-romeo-submissions/acces-romeo-bob/acces.md":            {body: page(newKey(92).fp, false)},
			"acces-romeo-submissions/acces-romeo-alice/acces.md":          {body: page(newKey(93).fp, false)},
			"acces-romeo-submissions/acces-romeo-dan/.git/acces.md":       {body: page(newKey(94).fp, false)},
			"__MACOSX/acces-romeo-submissions/acces-romeo-bob/._acces.md": {body: appleDouble},
		}, map[string]string{"bob": "", "alice": "", "dan": "no-acces-md"}},
		"plain": {map[string]entry{
			"classe/kim/acces.md":        {body: page(newKey(95).fp, false)},
			"classe/ghost/.git/acces.md": {body: page(newKey(96).fp, false)},
			"classe/__MACOSX/x/acces.md": {body: page(newKey(97).fp, false)},
			"classe/._acces.md":          {body: appleDouble},
		}, map[string]string{"kim": "", "ghost": "no-acces-md"}},
	} {
		for kind, arg := range bothWays(t, tc.files) {
			got := map[string]string{}
			for _, r := range Validate([]string{arg[0]}, Options{Rules: testRules}) {
				got[r.Apprenant] = codesOfResult(r)
				if p := filepath.ToSlash(r.Path + strings.Join(r.Others, " ")); strings.Contains(p, "__MACOSX") || strings.Contains(p, ".git") || strings.Contains(p, "._") {
					t.Errorf("%s %s: %s read: %s, others %q", name, kind, r.Apprenant, r.Path, r.Others)
				}
				if slices.ContainsFunc(r.Problems, func(p checklist.Problem) bool { return strings.Contains(p.Message, "._acces.md") }) {
					t.Errorf("%s %s: %s received ._acces.md: %+v", name, kind, r.Apprenant, r.Problems)
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("%s %s: learners %v, want %v", name, kind, got, tc.want)
			}
			for l, codes := range tc.want {
				if c, ok := got[l]; !ok || c != codes {
					t.Errorf("%s %s: %s %q (present %v), want %q", name, kind, l, c, ok, codes)
				}
			}
		}
	}
}

// TestMacFolderNamedAsArgumentIsNobodys: "pret valider -- *" names
// __MACOSX itself: still nobody's, nothing in it is read as a submission.
func TestMacFolderNamedAsArgumentIsNobodys(t *testing.T) {
	dir := t.TempDir()
	layout(t, dir, map[string]entry{
		"__MACOSX/x/acces.md": {body: page(newKey(97).fp, false)},
		"__MACOSX/acces.md":   {body: page(newKey(96).fp, false)},
		"kim/acces.md":        {body: page(newKey(95).fp, false)},
	})
	res := Validate([]string{filepath.Join(dir, "__MACOSX"), filepath.Join(dir, "kim")}, Options{Rules: testRules})
	if len(res) != 1 || res[0].Apprenant != "kim" {
		t.Errorf("%+v", res)
	}
}

// TestEachFolderArgumentIsReadAlone pins what organisateurs.md says of
// "pret valider -- *": each folder named is read alone, its subfolders as
// learners, where the class folder given whole names each its own.
func TestEachFolderArgumentIsReadAlone(t *testing.T) {
	dir := t.TempDir()
	layout(t, dir, map[string]entry{
		"bob smith/sub/acces.md": {body: page(newKey(95).fp, false)},
		"kim/acces.md":           {body: page(newKey(96).fp, false)},
		"notes/README.md":        {body: "x"},
	})
	who := func(args ...string) map[string]string {
		got := map[string]string{}
		for _, r := range Validate(args, Options{Rules: testRules}) {
			got[r.Apprenant] = codesOfResult(r)
		}
		return got
	}
	star := who(filepath.Join(dir, "bob smith"), filepath.Join(dir, "kim"), filepath.Join(dir, "notes"))
	if len(star) != 2 || star["sub"] != "" || star["kim"] != "" {
		t.Errorf("each folder: %v", star)
	}
	whole := who(dir)
	if len(whole) != 3 || whole["bob smith"] != "" || whole["kim"] != "" || whole["notes"] != "no-acces-md" {
		t.Errorf("the class folder: %v", whole)
	}
}
