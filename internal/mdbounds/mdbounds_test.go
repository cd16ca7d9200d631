package mdbounds

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// deep is the bound as CommonMark's container markers spell it, the
// oracle TooDeep is held to: 17 quote or list markers opening one line.
var deep = regexp.MustCompile(`(?m)^(?:[ \t]*(?:>|[-+*][ \t]|[0-9]{1,9}[.)][ \t])){17}`)

func TestTooDeepIsTheBound(t *testing.T) {
	pages := []string{
		strings.Repeat("> ", 16) + "a", strings.Repeat("> ", 17) + "a", strings.Repeat(">", 17),
		"ok\n" + strings.Repeat("- ", 17), strings.Repeat("-", 17), strings.Repeat("1. ", 17),
		strings.Repeat("1234567890. ", 17), strings.Repeat("123456789) ", 17), strings.Repeat("\t* ", 17),
		"a\n\n" + strings.Repeat(" > - 1) ", 6), "",
	}
	rng := rand.New(rand.NewPCG(33, 1))
	for range 20000 {
		var b strings.Builder
		tokens := []string{">", "> ", "- ", "+\t", "*", "1.", "12) ", "1234567890. ", " ", "\t", "a", "\n"}
		for range rng.IntN(40) {
			// Markers mostly: a line of 17 is rare otherwise.
			b.WriteString(tokens[rng.IntN(len(tokens))*rng.IntN(2)])
		}
		pages = append(pages, b.String())
	}
	found := 0
	for _, p := range pages {
		want := -1
		if m := deep.FindStringIndex(p); m != nil {
			want = m[0]
			found++
		}
		if got := TooDeep(p); got != want {
			t.Fatalf("TooDeep(%q) = %d, want %d", p, got, want)
		}
	}
	t.Logf("%d of %d pages too deep", found, len(pages))
	if found < 100 {
		t.Fatalf("only %d pages of %d too deep: the bound was hardly tried", found, len(pages))
	}
}

// TestLoneCRs: a CR that ends no CRLF is a line end where no LF is, else
// a space; lengths stay.
func TestLoneCRs(t *testing.T) {
	for in, want := range map[string]string{
		"a\rb\r":    "a\nb\n",
		"a\r\nb\rc": "a\r\nb c",
		"a\nb\rc":   "a\nb c",
		"a\nb\r":    "a\nb ",
		"abc":       "abc",
		"\r\r":      "\n\n",
	} {
		if got := LoneCRs(in); got != want || len(got) != len(in) {
			t.Errorf("LoneCRs(%q) = %q, want %q", in, got, want)
		}
	}
}
