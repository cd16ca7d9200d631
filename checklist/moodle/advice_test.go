package moodle

import (
	"html"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// TestFeedbackAdvisesTheLearner: whatever the code, the worksheet's
// feedback tells the learner what to do (the code's Advice, once per code
// however often it occurs) and never speaks of her in the third person
// as the organiser's help does.
func TestFeedbackAdvisesTheLearner(t *testing.T) {
	s := mustParse(t, sheetFR)
	for _, c := range checklist.Codes {
		run := results{{Path: "r/Durand Chloé_103_assignsubmission_file_/acces.md", Participant: "103", Problems: []checklist.Problem{
			{Code: c.Code, Severity: c.Severity, Message: "premier", Line: 2},
			{Code: c.Code, Severity: c.Severity, Message: "second", Line: 4},
		}}}
		m, err := Match(run, s, "f.csv")
		if err != nil {
			t.Fatal(err)
		}
		f := html.UnescapeString(m.Fills(Grades{Valid: "1", Invalid: "0"})["103"].Feedback)
		if n := strings.Count(f, c.Advice); n != 1 {
			t.Errorf("%s: advice %d times in %q", c.Code, n, f)
		}
		if strings.Contains(f, "apprenant") || strings.Contains(f, c.Help) {
			t.Errorf("%s: the organiser's words in the learner's feedback: %q", c.Code, f)
		}
	}
}
