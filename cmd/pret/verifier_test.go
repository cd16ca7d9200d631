package main

import (
	"regexp"
	"strings"
	"testing"
)

// emptyParens is "()" with nothing, or a list with a missing item,
// inside: what a message built from an empty value shows.
var emptyParens = regexp.MustCompile(`\(\s*[,;:]?\s*\)|\(\s*[,;]|[,;]\s*\)`)

// TestVerifierEmptyHome: a learner who has done nothing runs pret
// verifier: exit 1, and in every format the first fix is "lancez pret";
// nothing is created, and no output holds empty parentheses.
func TestVerifierEmptyHome(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	for _, f := range []string{"texte", "json", "junit"} {
		r := h.pret("", "verifier", "--format", f)
		if r.code != exitFailed || !strings.Contains(r.stdout, "lancez pret : l") {
			t.Fatalf("%s: exit %d\n%s%s", f, r.code, r.stdout, r.stderr)
		}
		if emptyParens.MatchString(r.stdout + r.stderr) {
			t.Fatalf("%s: empty parentheses\n%s", f, r.stdout)
		}
	}
	if r := h.pret("", "verifier"); strings.Contains(r.stdout, "Et maintenant") {
		t.Fatalf("next steps shown to a learner with nothing done:\n%s", r.stdout)
	}
}
