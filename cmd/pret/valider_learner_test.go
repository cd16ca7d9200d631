package main

import (
	"strings"
	"testing"
)

// TestValiderLearnerIsTheOutermostMoodleName: a learner who names a
// file inside her Moodle folder after a classmate's folder
// ("Martin Bob_456_assignsubmission_file_acces.md", a copy of his file)
// does not hide behind his name: the copy is hers, both files state one
// key for two learners, both are invalid and the exit code is 1; a
// learner who sent no acces.md has a result naming what she sent.
func TestValiderLearnerIsTheOutermostMoodleName(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	writeZip(t, h.path("rendus.zip"), map[string]string{
		"Dupont Alice_123_assignsubmission_file_/Martin Bob_456_assignsubmission_file_acces.md": accesPage(fpOne),
		"Martin Bob_456_assignsubmission_file_/acces.md":                                        accesPage(fpOne),
		"Durand Chloé_789_assignsubmission_file_/acces.docx":                                    "PK",
	})
	r := h.must(1, "", "valider", "--format", "json", "rendus.zip")
	rep := readReport(t, r.stdout)
	want := map[string][2]string{
		"rendus.zip!/Dupont Alice_123_assignsubmission_file_/Martin Bob_456_assignsubmission_file_acces.md": {"Dupont Alice", "duplicate-fingerprint"},
		"rendus.zip!/Martin Bob_456_assignsubmission_file_/acces.md":                                        {"Martin Bob", "duplicate-fingerprint"},
		"rendus.zip!/Durand Chloé_789_assignsubmission_file_/":                                              {"Durand Chloé", "no-acces-md"},
	}
	if len(rep.Files) != len(want) {
		t.Fatalf("%d results, want %d:\n%s", len(rep.Files), len(want), r.stdout)
	}
	for _, f := range rep.Files {
		w, ok := want[f.Path]
		if !ok || f.Apprenant != w[0] || f.Valid || len(f.Problems) != 1 || f.Problems[0].Code != w[1] {
			t.Errorf("%s: %s, valid %v, %+v; want %v", f.Path, f.Apprenant, f.Valid, f.Problems, w)
		}
		if w[1] == "no-acces-md" && !strings.Contains(f.Problems[0].Message, "acces.docx reçu") {
			t.Errorf("%s: %q does not name what was received", f.Path, f.Problems[0].Message)
		}
	}
}
