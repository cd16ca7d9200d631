package dates_test

import (
	"github.com/romeo-pret/pret/internal/textfold"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/keys"
)

var rules = acces.Rules{KeyName: "id_ed25519_romeo.pub", Today: ctx.Today, SessionDay: ctx.Session}

// validate runs the validator on a labelled line "Date … : s" and returns
// the date it read (AAAA-MM-JJ) or its date problem's code and message.
func validate(s string) (date, code, msg string) {
	r := acces.Validate([]byte("Date de la demande du compte : "+s+"\n"), rules)
	for _, p := range r.Problems {
		if p.Code == "bad-date" || p.Code == "missing-date" {
			return r.Date, p.Code, p.Message
		}
	}
	return r.Date, "", ""
}

// TestFormsAgreeWithValidator: what the wizard accepts, the validator
// reads as the same day in a file; what the wizard refuses, the
// validator flags bad-date for the same reason, quoting it; a relative
// form is bad-date, since a file is read days after it was written.
func TestFormsAgreeWithValidator(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2026-10-20", "2026-10-20"},
		{"20/10/2026", "2026-10-20"},
		{"20.10.2026", "2026-10-20"},
		{"20/10", "2026-10-20"},
		{"20 oct. 2026", "2026-10-20"},
		{"20 oct.", "2026-10-20"},
		{"20 octobre", "2026-10-20"},
		{"10 novembre", "2025-11-10"},
		{"3 février 2026", "2026-02-03"},
		{"3 fe\u0301vrier 2026", "2026-02-03"},
		{"20\u00a0octobre\u00a02026", "2026-10-20"},
		{"1er octobre 2026", "2026-10-01"},
		{"mardi 20 octobre 2026", "2026-10-20"},
		{"lundi 26 octobre", "2026-10-26"},
		{"le 20 octobre 2026.", "2026-10-20"},
		{"lundi 20 octobre 2026", "bad: « lundi 20 octobre 2026 » est refusée : le jour de la semaine ne correspond pas (le 20 octobre 2026 est un mardi, pas un lundi)"},
		{"2026-02-30", "bad: « 2026-02-30 » est refusée : ce jour n'existe pas (février 2026 n'a que 28 jours)"},
		{"2026-13-01", "bad: « 2026-13-01 » est refusée : il n'y a pas de mois 13"},
		{"20-10-2026", "2026-10-20"},
		{"20-10", "2026-10-20"},
		{"31/11/2026", "bad: « 31/11/2026 » est refusée : ce jour n'existe pas (novembre 2026 n'a que 30 jours)"},
		{"octobre 2026", "bad: « octobre 2026 » n'est pas lisible : il manque le jour, par exemple 20 octobre"},
		{"20 brumaire 2026", "bad: « 20 brumaire 2026 » n'est pas lisible : « brumaire » n'est pas un mois"},
		{"20/10/26", "bad: « 20/10/26 » n'est pas lisible : l'année s'écrit en quatre chiffres"},
		{"la semaine dernière", "bad: « la semaine dernière » n'est pas lisible : écrivez par exemple"},
		{"demain", "bad: « demain » dépend du jour où elle a été écrite"},
		{"hier", "bad: « hier » dépend du jour où elle a été écrite : écrivez le jour lui-même, par exemple 2026-10-20"},
		{"il y a 3 jours", "bad: « il y a 3 jours » dépend du jour"},
		{"mardi dernier", "bad: « mardi dernier » dépend du jour"},
		{"", "missing"},
	} {
		date, code, msg := validate(c.in)
		switch want, ok := strings.CutPrefix(c.want, "bad: "); {
		case c.want == "missing":
			if code != "missing-date" {
				t.Errorf("%q: %s %s %s, want missing-date", c.in, date, code, msg)
			}
		case ok:
			if code != "bad-date" || !strings.Contains(msg, want) {
				t.Errorf("%q: %s %s %q, want bad-date saying %q", c.in, date, code, msg, want)
			}
		case date != c.want || code != "":
			t.Errorf("%q: validator reads %s (%s %s), want %s", c.in, date, code, msg, c.want)
		}
		// The same verdict as the wizard's, by the same reader.
		got, err := dates.Parse(c.in, ctx)
		if accepted := err == nil && code == ""; accepted != (date != "") || accepted && got.Format(dates.ISO) != date {
			if !strings.Contains(c.want, "dépend du jour") {
				t.Errorf("%q: Parse %v %v, validator %s %s", c.in, got.Format(dates.ISO), err, date, code)
			}
		}
	}
}

// checkValidator: the validator reads a labelled line as dates.Find
// reads its value (its first calendar day, else its first relative
// date); when Find sees no date there, the value is bad-date
// with the reason Parse gives for it.
func checkValidator(t *testing.T, s string) {
	t.Helper()
	date, code, msg := validate(s)
	fs := dates.Find(s, textfold.Tokens(s), ctx)
	// A calendar day is taken before a relative one.
	for i, f := range fs {
		if !f.Relative {
			fs = fs[i:]
			break
		}
	}
	switch {
	case strings.TrimSpace(s) == "":
		if code != "missing-date" {
			t.Fatalf("%q: %s %s", s, code, msg)
		}
	case len(fs) == 0 && keys.LooksLikeFragment(s):
		// Perhaps a line of a key: bad-date without its text (acces-md.md).
		if code != "bad-date" || !strings.Contains(msg, "non recopié") || strings.Contains(msg, strings.TrimSpace(s)) {
			t.Fatalf("%q: key-like, validator %s %s %q", s, date, code, msg)
		}
	case len(fs) == 0:
		_, err := dates.Parse(s, ctx)
		de, _ := err.(*dates.Error)
		// In a file, the advice names calendar days only.
		if code != "bad-date" || de == nil || !strings.Contains(msg, strings.ReplaceAll(de.Reason, dates.Forms, dates.CalendarForms)) {
			t.Fatalf("%q: validator %s %s %q; Parse %v", s, date, code, msg, err)
		}
	case fs[0].Relative:
		if code != "bad-date" || !strings.Contains(msg, "dépend du jour") {
			t.Fatalf("%q: relative, validator %s %s %q", s, date, code, msg)
		}
	case fs[0].Err != nil:
		if code != "bad-date" || !strings.Contains(msg, fs[0].Err.Reason) {
			t.Fatalf("%q: Find %v, validator %s %s %q", s, fs[0].Err, date, code, msg)
		}
	case date != fs[0].Day.Format(dates.ISO) || code != "":
		t.Fatalf("%q: Find %s, validator %s %s %q", s, fs[0].Day.Format(dates.ISO), date, code, msg)
	}
}

// TestValidatorReadsAsFind over generated values made of the pieces
// dates are written with.
func TestValidatorReadsAsFind(t *testing.T) {
	pieces := []string{"1", "1er", "20", "29", "31", "32", "octobre", "oct.", "Février", "fev", "brumaire", "mai", "2026", "2028",
		"26", "1999", "2101", "20/10", "20/10/2026", "31/11/2026", "20.10.2026", "2026-10-20", "2026-02-30", "lundi", "mardi",
		"dernier", "le", ",", ".", "hier", "avant-hier", "il", "y", "a", "3", "jours", "semaine", "matin"}
	rng := rand.New(rand.NewPCG(9, 10))
	read := 0
	for range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(5) {
			b.WriteString(pieces[rng.IntN(len(pieces))] + " ")
		}
		checkValidator(t, b.String())
		if d, _, _ := validate(b.String()); d != "" {
			read++
		}
	}
	if read < 300 {
		t.Fatalf("only %d values read as a day", read)
	}
}

// FuzzValidatorReadsAsFind: three words of letters and digits, any
// script, in each form's frame (d/m/y, y-m-d, d.m.y, "d m y", "d m").
func FuzzValidatorReadsAsFind(f *testing.F) {
	f.Add("20", "10", "2026")
	f.Add("1er", "Février", "2026")
	f.Add("31", "11", "2026")
	f.Add("29", "février", "2028")
	f.Add("5", "AOÛT", "2101")
	f.Add("20", "oct", "26")
	f.Fuzz(func(t *testing.T, d, m, y string) {
		for _, w := range []string{d, m, y} {
			if w == "" || strings.IndexFunc(w, func(r rune) bool {
				return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r)
			}) >= 0 {
				return // words only: Markdown could make more of other marks
			}
		}
		for _, s := range []string{d + "/" + m + "/" + y, y + "-" + m + "-" + d, d + "." + m + "." + y, d + " " + m + " " + y, d + " " + m} {
			checkValidator(t, s)
		}
	})
}
