package dates_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/romeo-pret/pret/internal/dates"
)

func day(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

// The fixed days of these tests (apprenant.md): today is Tuesday 20
// October 2026, the session Thursday 5 November 2026.
var ctx = dates.Context{Today: day(2026, 10, 20), Session: day(2026, 11, 5)}

// TestParseAccepts: every form people write, with the exact day read.
func TestParseAccepts(t *testing.T) {
	for in, want := range map[string]string{
		"2026-10-20":                "2026-10-20",
		"2026-1-5":                  "2026-01-05",
		"20/10/2026":                "2026-10-20",
		"2/9/2026":                  "2026-09-02",
		"02/09/2026":                "2026-09-02",
		"20.10.2026":                "2026-10-20",
		"20/10":                     "2026-10-20",
		"2/9":                       "2026-09-02",
		"20-10-2026":                "2026-10-20",
		"20-10":                     "2026-10-20",
		"2-9-2026":                  "2026-09-02",
		"20 octobre 2026":           "2026-10-20",
		"20 Octobre 2026":           "2026-10-20",
		"20 OCTOBRE 2026":           "2026-10-20",
		"1er octobre 2026":          "2026-10-01",
		"1 octobre 2026":            "2026-10-01",
		"1er oct.":                  "2026-10-01",
		"20 oct.":                   "2026-10-20",
		"20 oct":                    "2026-10-20",
		"20 oct. 2026":              "2026-10-20",
		"20 Oct 2026":               "2026-10-20",
		"3 févr. 2026":              "2026-02-03",
		"3 fév 2026":                "2026-02-03",
		"3 fevr 2026":               "2026-02-03",
		"3 fevrier 2026":            "2026-02-03",
		"3 février 2026":            "2026-02-03",
		"3 fe\u0301vrier 2026":      "2026-02-03", // decomposed accent
		"14 août":                   "2026-08-14",
		"14 aout 2026":              "2026-08-14",
		"12 sept.":                  "2026-09-12",
		"1er déc. 2025":             "2025-12-01",
		"20 octobre":                "2026-10-20",
		"5 novembre":                "2026-11-05", // the session's own day, not a year back
		"10 novembre":               "2025-11-10", // the last one before the session
		"29 février":                "2024-02-29",
		"mardi 20 octobre 2026":     "2026-10-20",
		"Mardi 20 octobre 2026":     "2026-10-20",
		"mardi, le 20 octobre 2026": "2026-10-20",
		"lundi 26 octobre":          "2026-10-26",
		"jeudi 1er octobre 2026":    "2026-10-01",
		"mardi 20/10":               "2026-10-20",
		"mar. 20 oct. 2026":         "2026-10-20", // as date +%c writes it in French (outside tester)
		"sam. 7 nov.":               "2026-11-07", // after the session: its weekday names its year (outside tester)
		"vendredi 7 novembre":       "2025-11-07", // the year before, on or before the session
		"lun. 26/10":                "2026-10-26",
		"Ven 23 octobre 2026":       "2026-10-23",
		"le 20 octobre 2026":        "2026-10-20",
		"20 octobre 2026.":          "2026-10-20",
		"  20/10/2026  ":            "2026-10-20",
		"20\u00a0octobre\u00a02026": "2026-10-20",
		"aujourd'hui":               "2026-10-20",
		"Aujourd’hui":               "2026-10-20",
		"AUJOURD'HUI":               "2026-10-20",
		"aujourdhui":                "2026-10-20",
		"hier":                      "2026-10-19",
		"Hier.":                     "2026-10-19",
		"avant-hier":                "2026-10-18",
		"avant hier":                "2026-10-18",
		"il y a 3 jours":            "2026-10-17",
		"il y a 1 jour":             "2026-10-19",
		"Il y a trois jours":        "2026-10-17",
		"il y a une semaine":        "2026-10-13",
		"il y a 2 semaines":         "2026-10-06",
		"mardi":                     "2026-10-20",
		"mardi dernier":             "2026-10-13",
		"lundi":                     "2026-10-19",
		"lundi dernier":             "2026-10-19",
		"mercredi dernier":          "2026-10-14",
		"dimanche passé":            "2026-10-18",
	} {
		got, err := dates.Parse(in, ctx)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
		} else if got.Format(dates.ISO) != want {
			t.Errorf("Parse(%q) = %s, want %s", in, got.Format(dates.ISO), want)
		}
	}
}

// TestParseRefuses: a refusal quotes what was typed and gives the reason,
// in French.
func TestParseRefuses(t *testing.T) {
	const forms = "écrivez par exemple " + dates.Forms
	for in, want := range map[string]string{
		"":                      "rien n'a été saisi ; " + forms,
		"demain":                "refusée : ce jour est dans le futur : notez le jour où la demande ou la vérification a été faite",
		"2026-02-30":            "refusée : ce jour n'existe pas (février 2026 n'a que 28 jours)",
		"31/11/2026":            "refusée : ce jour n'existe pas (novembre 2026 n'a que 30 jours)",
		"10/20/2026":            "refusée : il n'y a pas de mois 20 : le jour s'écrit d'abord, JJ/MM/AAAA (ici 20/10/2026 ?)",
		"29/02/2026":            "refusée : ce jour n'existe pas (février 2026 n'a que 28 jours)",
		"32 octobre 2026":       "refusée : ce jour n'existe pas (octobre 2026 n'a que 31 jours)",
		"31/11":                 "refusée : ce jour n'existe pas (novembre n'a que 30 jours)",
		"2026-13-01":            "refusée : il n'y a pas de mois 13 (le mois va de 1 à 12)",
		"20-13-2026":            "refusée : il n'y a pas de mois 13 (le mois va de 1 à 12)",
		"0/10/2026":             "refusée : il n'y a pas de jour 0 (le jour va de 1 à 31)",
		"12/13":                 "refusée : il n'y a pas de mois 13 : le jour s'écrit d'abord, JJ/MM/AAAA (ici 13/12 ?)",
		"20-10-26":              "l'année s'écrit en quatre chiffres, par exemple 20/10/2026",
		"mardi 26 octobre":      "refusée : le jour de la semaine ne correspond pas (le 26 octobre 2026 est un lundi, pas un mardi)",
		"lundi 20 octobre 2026": "refusée : le jour de la semaine ne correspond pas (le 20 octobre 2026 est un mardi, pas un lundi)",
		"mer. 20 oct. 2026":     "refusée : le jour de la semaine ne correspond pas (le 20 octobre 2026 est un mardi, pas un mercredi)",
		"vendredi 1/10/2026":    "refusée : le jour de la semaine ne correspond pas (le 1er octobre 2026 est un jeudi, pas un vendredi)",
		"20 brumaire 2026":      "« brumaire » n'est pas un mois (janvier … décembre)",
		"20 jui 2026":           "« jui » : juin ou juillet ? écrivez le mois en entier",
		"20 jui":                "« jui » : juin ou juillet ? écrivez le mois en entier",
		"jui 2026":              "« jui » : juin ou juillet ? écrivez le jour et le mois en entier, par exemple 20 juin",
		"3 semaines":            "pour compter depuis aujourd'hui, écrivez par exemple « il y a 3 jours »",
		"la semaine dernière":   forms,
		"octobre 2026":          "il manque le jour, par exemple 20 octobre",
		"20":                    "il manque le mois, par exemple 20 octobre 2026",
		"10/2026":               "il manque le jour, par exemple 20/10/2026",
		"20/10/26":              "l'année s'écrit en quatre chiffres, par exemple 20/10/2026",
		"20.10.26":              "l'année s'écrit en quatre chiffres, par exemple 20/10/2026",
		"20 octobre 26":         "l'année s'écrit en quatre chiffres, par exemple 2026",
		"2026-10":               "attendu AAAA-MM-JJ, par exemple 2026-10-20",
		"20.10":                 "attendu JJ/MM/AAAA, le jour d'abord, par exemple 20/10/2026",
		"123 octobre 2026":      "le jour s'écrit en un ou deux chiffres, par exemple 20 octobre 2026 ou 1er octobre 2026",
		"lumdi 20 octobre 2026": "« lumdi » n'est pas un jour de la semaine",
		"20 octobre 2026 matin": "« matin » n'est pas compris après la date",
		"1er mai 1999":          "refusée : l'année doit être entre 2000 et 2100",
		"2101-01-01":            "refusée : l'année doit être entre 2000 et 2100",
		"2/1/0001":              "refusée : l'année doit être entre 2000 et 2100",
		"il y a 9999 jours":     forms,
		"abc":                   forms,
	} {
		_, err := dates.Parse(in, ctx)
		var de *dates.Error
		if !errors.As(err, &de) {
			t.Errorf("Parse(%q) = %v, want a refusal", in, err)
			continue
		}
		quoted := strings.Join(strings.Fields(in), " ")
		full := "date « " + quoted + " » non comprise : " + want
		if why, ok := strings.CutPrefix(want, "refusée : "); ok {
			full = "date « " + quoted + " » refusée : " + why
		}
		if err.Error() != full || de.Read != (full != "date « "+quoted+" » non comprise : "+want) {
			t.Errorf("Parse(%q):\n got %s\nwant %s", in, err, full)
		}
	}
}

// TestContextual: without today and the session, the forms that need
// them are refused as such, and the others as they always are.
func TestContextual(t *testing.T) {
	for in, contextual := range map[string]bool{
		"hier": true, "il y a 3 jours": true, "20 octobre": true, "mardi dernier": true, "lundi 26 octobre": true,
		"31/11/2026": false, "20 brumaire 2026": false, "lundi 20 octobre 2026": false,
	} {
		_, err := dates.Parse(in, dates.Context{})
		var de *dates.Error
		if !errors.As(err, &de) || de.Contextual != contextual {
			t.Errorf("Parse(%q) without context: %v (contextual %v, want %v)", in, err, de != nil && de.Contextual, contextual)
		}
	}
	if got, err := dates.Parse("20 octobre 2026", dates.Context{}); err != nil || !got.Equal(day(2026, 10, 20)) {
		t.Errorf("a whole date needs no context: %v %v", got, err)
	}
	// Without the session, a day without its year is the last one on or
	// before today.
	if got, err := dates.Parse("25 octobre", dates.Context{Today: day(2026, 10, 20)}); err != nil || !got.Equal(day(2025, 10, 25)) {
		t.Errorf("25 octobre before today: %v %v", got, err)
	}
}

// TestEveryDayEveryForm: the forms of every day of five years read back
// as that day, and so does Long (the echo).
func TestEveryDayEveryForm(t *testing.T) {
	months := []string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}
	short := []string{"janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."}
	for d := day(2024, 1, 1); d.Before(day(2029, 1, 1)); d = d.AddDate(0, 0, 1) {
		forms := []string{
			d.Format("2006-01-02"),
			d.Format("2006-1-2"),
			d.Format("02/01/2006"),
			d.Format("2/1/2006"),
			d.Format("02.01.2006"),
			d.Format("02-01-2006"),
			d.Format("2") + " " + months[d.Month()-1] + " " + d.Format("2006"),
			d.Format("2") + " " + short[d.Month()-1] + " " + d.Format("2006"),
			strings.ToUpper(d.Format("2") + " " + months[d.Month()-1] + " " + d.Format("2006")),
			dates.Long(d),
		}
		for _, f := range forms {
			if got, err := dates.Parse(f, ctx); err != nil || !got.Equal(d) {
				t.Fatalf("Parse(%q) = %v, %v; want %s", f, got, err, d.Format(dates.ISO))
			}
		}
	}
}

func TestLong(t *testing.T) {
	for in, want := range map[string]string{
		"2026-10-20": "mardi 20 octobre 2026",
		"2026-10-01": "jeudi 1er octobre 2026",
		"2026-02-14": "samedi 14 février 2026",
		"2026-08-15": "samedi 15 août 2026",
	} {
		d, _ := time.Parse(dates.ISO, in)
		if got := dates.Long(d); got != want {
			t.Errorf("Long(%s) = %q, want %q", in, got, want)
		}
	}
	if got := dates.Day(day(2026, 10, 1)); got != "1er octobre 2026" {
		t.Errorf("Day: %q", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2026-10-20", "20/10/2026", "1er octobre 2026", "mardi 20 octobre 2026", "hier", "31/11/2026",
		"20 oct.", "il y a 3 jours", "lundi 26 octobre", "mardi dernier"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := dates.Parse(s, ctx)
		if err != nil {
			var de *dates.Error
			if !errors.As(err, &de) || de.Reason == "" || !strings.Contains(err.Error(), map[bool]string{false: "non comprise", true: "refusée"}[de.Read]) {
				t.Fatalf("%q: refusal %v", s, err)
			}
			return
		}
		// Property: an accepted day is a civil day pret can mean, whose
		// full echo and ISO form read back to the same day.
		if d.Hour() != 0 || d.Minute() != 0 || d.Location() != time.UTC || !dates.InYears(d.Year()) {
			t.Fatalf("%q: not a civil day: %v", s, d)
		}
		for _, back := range []string{dates.Long(d), d.Format(dates.ISO)} {
			if again, err := dates.Parse(back, ctx); err != nil || !again.Equal(d) {
				t.Fatalf("%q -> %s -> %v %v", s, back, again, err)
			}
		}
	})
}

// TestRefusalEscaped: what was typed is quoted escaped, in the input and
// in the reason, since both are printed on a terminal.
func TestRefusalEscaped(t *testing.T) {
	for _, in := range []string{"20 oc\x1b[2Jt 2026", "20 brum\u202eaire 2026", "20 octobre 2026 \x1b]0;x\a", "oct\u2028obre 2026"} {
		_, err := dates.Parse(in, ctx)
		if err == nil {
			t.Fatalf("%q accepted", in)
		}
		if msg := err.Error(); strings.ContainsAny(msg, "\x1b\a\u202e\u2028") {
			t.Errorf("Parse(%q): unescaped %q", in, msg)
		}
	}
}
