package dates

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/romeo-pret/pret/internal/textfold"
)

var testCtx = Context{Today: time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC), Session: time.Date(2026, 11, 5, 0, 0, 0, 0, time.UTC)}

// checkParseFind is the property that makes the wizard and the validator
// agree: Parse accepts s exactly when Find sees one date spanning all of
// s (but an optional « le » and final dots), with the same day; a form
// both recognise but refuse is refused for the same reason; and Find
// reads s the same after a label, as the validator sees it.
func checkParseFind(t *testing.T, s string) {
	t.Helper()
	got, err := Parse(s, testCtx)
	ts := textfold.Tokens(s)
	found := Find(s, ts, testCtx)
	if len(ts) > 0 && ts[0].Folded == "le" {
		ts = ts[1:]
	}
	// The date that spans s: it starts s, and only dots follow it.
	var whole *Found
	for i := range found {
		if len(ts) == 0 || found[i].Start != ts[0].Start {
			continue
		}
		if strings.TrimFunc(s[found[i].End:], func(r rune) bool { return r == '.' || unicode.IsSpace(r) }) == "" {
			whole = &found[i]
		}
	}
	switch {
	case err == nil && (whole == nil || whole.Err != nil || !whole.Day.Equal(got)):
		t.Fatalf("%q: Parse reads %s, Find %+v", s, got.Format(ISO), found)
	case err != nil && whole != nil && whole.Err == nil:
		t.Fatalf("%q: Parse refuses (%v), Find reads %s", s, err, whole.Day.Format(ISO))
	case err != nil && whole != nil && err.(*Error).Reason != whole.Err.Reason:
		t.Fatalf("%q: Parse refuses (%v), Find (%v)", s, err, whole.Err)
	}
	const label = "Date de la demande : "
	after := Find(label+s, textfold.Tokens(label+s), testCtx)
	if len(after) != len(found) {
		t.Fatalf("%q: %d dates alone, %d after a label", s, len(found), len(after))
	}
	for i := range after {
		a, f := after[i], found[i]
		if a.Start != f.Start+len(label) || !a.Day.Equal(f.Day) || a.Relative != f.Relative || (a.Err == nil) != (f.Err == nil) {
			t.Fatalf("%q: %+v alone, %+v after a label", s, f, a)
		}
	}
}

// pieces are what dates are made of, valid and not.
var pieces = []string{"1", "1er", "02", "20", "26", "29", "31", "32", "123", "octobre", "Oct", "oct.", "févr", "fev", "Février",
	"mai", "jui", "brumaire", "2026", "26", "1999", "2101", "10/2026", "20/10", "20/10/2026", "31/11/2026", "20.10.2026",
	"20.10", "2026-10-20", "2026-02-30", "2026-10", "lundi", "mardi", "Mardi", "dernier", "le", ",", ".", "hier", "avant-hier",
	"avant", "aujourd’hui", "demain", "il", "y", "a", "3", "trois", "jours", "semaine", "semaines", "matin", "x"}

func generated(rng *rand.Rand) string {
	var b strings.Builder
	for range 1 + rng.IntN(6) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
		if rng.IntN(5) > 0 {
			b.WriteString(" ")
		}
	}
	return b.String()
}

func TestParseAndFindAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	accepted := 0
	for range 20000 {
		s := generated(rng)
		checkParseFind(t, s)
		if _, err := Parse(s, testCtx); err == nil {
			accepted++
		}
	}
	if accepted < 600 {
		t.Fatalf("only %d generated dates accepted: the property was hardly exercised", accepted)
	}
}

func FuzzParseAndFindAgree(f *testing.F) {
	for _, s := range []string{"20 oct. 2026", "le 20/10", "il y a 3 jours", "mardi dernier", "lundi 26 octobre", "20 octobre 2026 matin", "hier."} {
		f.Add(s)
	}
	f.Fuzz(checkParseFind)
}
