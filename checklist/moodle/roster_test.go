package moodle

import (
	"errors"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// rosterCSV is classroom_roster.csv as GitHub Classroom writes it: every
// field quoted; a student not yet linked to a GitHub account has no
// github_username nor github_id.
const rosterCSV = `"identifier","github_username","github_id","name"
"alice@univ.example","alice42","1234567","Alice Dupont"
"bob@univ.example","Bob","2345678","Bob Martin"
"chloe@univ.example","chloe","3456789",""
"zoe@univ.example","","",""
`

func TestRosterRecognisedByItsHeader(t *testing.T) {
	for _, data := range []string{rosterCSV, "\ufeff" + rosterCSV} {
		if _, err := ParseRoster([]byte(data)); err != nil {
			t.Errorf("the roster is not recognised: %v", err)
		}
	}
	for _, other := range []string{sheetFR, sheetEN, "identifier,name\n", "\"identifier,github_username\n"} {
		if _, err := ParseRoster([]byte(other)); !errors.Is(err, errNotRoster) {
			t.Errorf("taken for a roster: %q: %v", other[:12], err)
		}
	}
}

// TestRosterMatch: rows carry the roster's name and identifier, a
// student is found by her login whatever its case, or by a repository
// name ending in "-LOGIN"; every student without a repository is
// no-submission, with her identifier and name.
func TestRosterMatch(t *testing.T) {
	ro, err := ParseRoster([]byte(rosterCSV))
	if err != nil {
		t.Fatal(err)
	}
	run := results{
		{Path: "s/acces-romeo-alice42/acces.md", Apprenant: "alice42", Valid: true},
		{Path: "s/acces-romeo-bob", Apprenant: "acces-romeo-bob", Problems: []checklist.Problem{{Code: "no-acces-md", Severity: checklist.SevError}}},
		{Path: "s/acces-romeo-intrus/acces.md", Apprenant: "intrus", Valid: true},
	}
	m := MatchRoster(run, ro, "classroom_roster.csv")
	if m.Len() != 5 || m.Missing() != 2 {
		t.Fatalf("len %d, missing %d", m.Len(), m.Missing())
	}
	if f := m.At(0); f.Apprenant != "Alice Dupont" || f.Participant != "alice@univ.example" {
		t.Errorf("alice: %+v", f)
	}
	if f := m.At(1); f.Apprenant != "Bob Martin" || f.Participant != "bob@univ.example" || f.Problems[0].Code != "no-acces-md" {
		t.Errorf("bob: %+v", f)
	}
	if f := m.At(2); f.Apprenant != "intrus" || f.Participant != "" {
		t.Errorf("not in the roster: %+v", f)
	}
	chloe, zoe := m.At(3), m.At(4)
	if chloe.Apprenant != "chloe" || chloe.Participant != "chloe@univ.example" || chloe.Path != "classroom_roster.csv" || chloe.Valid ||
		chloe.Problems[0].Code != "no-submission" || chloe.Problems[0].Line != 4 || !strings.Contains(chloe.Problems[0].Message, "chloe (chloe@univ.example)") {
		t.Errorf("chloe: %+v", chloe)
	}
	if zoe.Apprenant != "zoe@univ.example" || zoe.Problems[0].Code != "no-submission" || !strings.Contains(zoe.Problems[0].Message, "pas de compte GitHub") {
		t.Errorf("zoe: %+v", zoe)
	}
}

// TestRosterMatchesRepositoryNames (outside tester, stop 40): logins that
// share a start ("x-bob", "x-carol") leave their repositories a longer
// shared prefix ("acces-romeo-x-"), which the walk cuts from the learner's
// name, yet the repository's name ends in "-LOGIN"; and in
// acces-romeo-submissions, acces-romeo-bob is bob's, though its name also
// ends in "-romeo-bob", another student's login.
func TestRosterMatchesRepositoryNames(t *testing.T) {
	for _, c := range []struct {
		roster       string
		run          results
		want0, want1 string
	}{
		{"e1,x-bob,1,Xavier Bob\ne2,X-Carol,2,Xavier Carol\n", results{
			{Path: "classe/acces-romeo-x-bob/acces.md", Apprenant: "bob", Valid: true},
			{Path: "classe.zip!/acces-romeo-x-carol/acces.md", Apprenant: "carol", Valid: true},
		}, "Xavier Bob", "Xavier Carol"},
		{"s1,bob,1,Bob\ns2,romeo-bob,2,Romeo Bob\n", results{
			{Path: "acces-romeo-submissions/acces-romeo-bob/acces.md", Apprenant: "bob", Valid: true},
			{Path: "acces-romeo-submissions/acces-romeo-romeo-bob/acces.md", Apprenant: "romeo-bob", Valid: true},
		}, "Bob", "Romeo Bob"},
	} {
		ro, err := ParseRoster([]byte("identifier,github_username,github_id,name\n" + c.roster))
		if err != nil {
			t.Fatal(err)
		}
		m := MatchRoster(c.run, ro, "classroom_roster.csv")
		if m.Len() != 2 || m.Missing() != 0 || m.At(0).Apprenant != c.want0 || m.At(1).Apprenant != c.want1 {
			t.Errorf("len %d, missing %d: %+v %+v", m.Len(), m.Missing(), m.At(0), m.At(1))
		}
	}
}

// TestRosterRefusesALoginTwice: two students with one GitHub account
// (GitHub ignores case) would share her repository; the roster is
// refused, as a worksheet naming a participant twice is.
func TestRosterRefusesALoginTwice(t *testing.T) {
	_, err := ParseRoster([]byte("identifier,github_username,github_id,name\netu1,alice42,1,Alice Durand\netu2,,,\netu3,,,\netu4,Alice42,2,Bob Martin\n"))
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "lignes 2 et 5 : le même compte GitHub « Alice42 »") {
		t.Fatalf("a login twice: %v", err)
	}
}
