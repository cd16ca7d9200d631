package acces

import (
	mrand "math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/testenv"
)

// readLabelled validates one labelled line "Date de la demande du
// compte : s" and returns the date read, and the code and message of its
// date problem ("" for none).
func readLabelled(s string) (date, code, msg string) {
	r := Validate([]byte("Date de la demande du compte : "+s+"\n"), rules)
	for _, p := range r.Problems {
		switch p.Code {
		case "bad-date", "missing-date", "future-date", "late-request":
			return r.Date, string(p.Code), p.Message
		}
	}
	return r.Date, "", ""
}

// TestWizardFormsInAFile: what the wizard accepts, the validator reads
// as the same day in a file; what the wizard refuses, the validator
// flags bad-date for the same reason, quoting it; a relative form is
// bad-date, since a file is read days after it was written. Every
// verdict is written by hand (today 2026-10-20, session 2026-11-05).
func TestWizardFormsInAFile(t *testing.T) {
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
		{"lundi 26 octobre", "future-date: la date 2026-10-26 est dans le futur"},
		{"le 20 octobre 2026.", "2026-10-20"},
		{"hier, soit le 19/10/2026", "2026-10-19"},
		{"19/10/2026 (hier)", "2026-10-19"},
		{"lundi 20 octobre 2026", "bad: le 20 octobre 2026 est un mardi, pas un lundi"},
		{"2026-02-30", "bad: ce jour n'existe pas"},
		{"31/11/2026", "bad: ce jour n'existe pas"},
		{"octobre 2026", "bad: « octobre 2026 » n'est pas lisible : il manque le jour, par exemple 20 octobre"},
		{"20 brumaire 2026", "bad: « 20 brumaire 2026 » n'est pas lisible : « brumaire » n'est pas un mois"},
		{"20/10/26", "bad: « 20/10/26 » n'est pas lisible : l'année s'écrit en quatre chiffres"},
		{"la semaine dernière", "bad: « la semaine dernière » n'est pas lisible : écrivez par exemple 2026-10-20, 20/10/2026, 20 octobre 2026 ou 20 oct. 2026"},
		{"demain", "bad: « demain » dépend du jour où elle a été écrite"},
		{"hier", "bad: « hier » dépend du jour où elle a été écrite : écrivez le jour lui-même, par exemple 2026-10-20"},
		{"il y a 3 jours", "bad: « il y a 3 jours » dépend du jour"},
		{"mardi dernier", "bad: « mardi dernier » dépend du jour"},
		{"U2FsdGVkX19vbmUgbGluZSBvZiBhIGtleQ", "bad: la date n'est pas lisible (un texte en base64, non recopié)"},
		{"", "missing"},
		{"2026-10-21", "future-date: la date 2026-10-21 est dans le futur"},
	} {
		date, code, msg := readLabelled(c.in)
		kind, want, _ := strings.Cut(c.want, ": ")
		switch kind {
		case "missing":
			if code != "missing-date" {
				t.Errorf("%q: %s %s %s, want missing-date", c.in, date, code, msg)
			}
		case "bad":
			if code != "bad-date" || !strings.Contains(msg, want) {
				t.Errorf("%q: %s %s %q, want bad-date saying %q", c.in, date, code, msg, want)
			}
		case "future-date":
			if code != kind || !strings.Contains(msg, want) {
				t.Errorf("%q: %s %s %q, want %s saying %q", c.in, date, code, msg, kind, want)
			}
		default:
			if date != c.want || code != "" {
				t.Errorf("%q: validator reads %s (%s %s), want %s", c.in, date, code, msg, c.want)
			}
		}
		if kind == "bad" && strings.Contains(c.in, "U2Fsd") && strings.Contains(msg, c.in) {
			t.Errorf("%q: a key-like value is quoted: %q", c.in, msg)
		}
	}
}

// TestWizardDaysReadInAFile: days of 2000 to 2100 written by this test in
// every form the wizard takes (its own month and weekday names, not
// pret's) read back, after a label, as that very day, with a future or
// late-request problem exactly when the day says so.
func TestWizardDaysReadInAFile(t *testing.T) {
	months := []string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}
	short := []string{"janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."}
	weekdays := []string{"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"}
	today, session := testenv.Day(testenv.Today), testenv.Day(testenv.SessionDay)
	rng := mrand.New(mrand.NewPCG(20, 10))
	first := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	read := 0
	for range 300 {
		d := first.AddDate(0, 0, rng.IntN(101*365))
		n := d.Format("2")
		if n == "1" && rng.IntN(2) == 0 {
			n = "1er"
		}
		for _, form := range []string{
			d.Format("2006-01-02"), d.Format("02/01/2006"), d.Format("2/1/2006"), d.Format("02.01.2006"),
			n + " " + months[d.Month()-1] + " " + d.Format("2006"),
			n + " " + short[d.Month()-1] + " " + d.Format("2006"),
			weekdays[d.Weekday()] + " " + n + " " + strings.ToUpper(months[d.Month()-1]) + " " + d.Format("2006"),
		} {
			want := ""
			switch {
			case d.After(today):
				want = "future-date"
			case !d.Before(session):
				want = "late-request"
			}
			date, code, msg := readLabelled(form)
			if date != d.Format(dates.ISO) || code != want {
				t.Fatalf("%q: validator reads %q (%s %s), want %s and %q", form, date, code, msg, d.Format(dates.ISO), want)
			}
			read++
		}
	}
	if read != 300*7 {
		t.Fatalf("%d forms read", read)
	}
}
