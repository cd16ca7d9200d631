// Package dates reads a day as a French-speaking person types it, and
// writes one back in full.
//
// The forms are those the acces.md validator accepts in a file
// (acces-md.md): 2026-10-20, 20/10/2026, 2/9/2026, 20 octobre 2026,
// 1er octobre 2026, mardi 20 octobre 2026, month names with or without
// accents, any case. A typed answer may also be "aujourd'hui" or "hier",
// which a file cannot say. The wizard and `pret acces --date` both read
// through Parse, so a date they accept is one the validator reads the same
// way (dates_test checks this form by form).
package dates

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/romeo-pret/pret/internal/textfold"
)

// ISO is the layout acces.md and the state file store.
const ISO = "2006-01-02"

var (
	weekdays = [...]string{"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"}
	months   = [...]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}
)

// weekday reads a folded weekday name: "mardi".
func weekday(w string) (time.Weekday, bool) {
	for i, n := range weekdays {
		if w == n {
			return time.Weekday(i), true
		}
	}
	return 0, false
}

// Long writes a day in full: "mardi 20 octobre 2026", "jeudi 1er octobre 2026".
func Long(d time.Time) string {
	day := strconv.Itoa(d.Day())
	if d.Day() == 1 {
		day = "1er"
	}
	return fmt.Sprintf("%s %s %s %d", weekdays[d.Weekday()], day, months[d.Month()-1], d.Year())
}

// Day writes a day without its weekday: "20 octobre 2026", "1er octobre
// 2026", as apprenant.md shows a recorded date.
func Day(d time.Time) string {
	return strings.TrimPrefix(Long(d), weekdays[d.Weekday()]+" ")
}

// Error says why a typed date was not understood, in French.
type Error struct {
	Input  string
	Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("date %q non comprise : %s", e.Input, e.Reason)
}

// Forms is what to type, for help texts and hints.
const Forms = "2026-10-20, 20/10/2026, 20 octobre 2026, aujourd'hui ou hier"

// Parse reads one typed day. today is the civil day (midnight UTC) that
// "aujourd'hui" and "hier" refer to. The result is midnight UTC. A weekday
// that does not match the date is read as the validator reads it, by the
// date alone; WeekdayNote says so, for the echo.
func Parse(s string, today time.Time) (time.Time, error) {
	f := textfold.Fold(s)
	f = strings.TrimSpace(strings.TrimSuffix(f, "."))
	f = strings.TrimPrefix(f, "le ")
	bad := func(reason string) (time.Time, error) {
		return time.Time{}, &Error{Input: strings.TrimSpace(s), Reason: reason}
	}
	switch f {
	case "":
		return bad("rien n'a été saisi ; écrivez par exemple " + Forms)
	case "aujourd'hui", "aujourdhui":
		return civil(today), nil
	case "hier":
		return civil(today).AddDate(0, 0, -1), nil
	}
	var y, m, d int
	var ok bool
	switch ws := strings.Fields(f); {
	case len(ws) == 1 && strings.Count(f, "-") == 2:
		if y, m, d, ok = ISOWord(f); !ok {
			return bad("attendu AAAA-MM-JJ, par exemple 2026-10-20")
		}
	case len(ws) == 1 && strings.Count(f, "/") == 2:
		p := strings.Split(f, "/")
		if y, m, d, ok = Slashed(p[0], p[1], p[2]); !ok {
			return bad("attendu JJ/MM/AAAA, le jour d'abord, par exemple 20/10/2026")
		}
	case len(ws) == 3 || len(ws) == 4:
		if len(ws) == 4 {
			if _, ok := weekday(ws[0]); !ok {
				return bad(fmt.Sprintf("%q n'est pas un jour de la semaine", ws[0]))
			}
			ws = ws[1:]
		}
		// Written says only yes or no; each word is read again alone to
		// say which one is wrong.
		if y, m, d, ok = Written(ws[0], ws[1], ws[2]); !ok {
			_, monthOK := Month(ws[1])
			_, dayOK := DayOfMonth(ws[0])
			switch {
			case !monthOK:
				return bad(fmt.Sprintf("%q n'est pas un mois (janvier … décembre)", ws[1]))
			case !dayOK:
				return bad("le jour s'écrit en chiffres, par exemple 20 octobre 2026 ou 1er octobre 2026")
			default:
				return bad("l'année s'écrit en quatre chiffres, par exemple 2026")
			}
		}
	default:
		return bad("écrivez par exemple " + Forms)
	}
	t, ok := Civil(y, m, d)
	if !ok {
		return bad("ce jour n'existe pas dans le calendrier (le jour d'abord : JJ/MM/AAAA)")
	}
	// The years pret can mean, as for the session date: a typo such as
	// 0026 or 2206 is refused here rather than recorded.
	if !InYears(y) {
		return bad(fmt.Sprintf("l'année doit être entre %d et %d", MinYear, MaxYear))
	}
	return t, nil
}

// WeekdayNote is a French remark when s names a weekday that is not t's:
// "lundi 20 octobre 2026" is read as the 20th, a Tuesday, as the validator
// reads it, and the person is told.
func WeekdayNote(s string, t time.Time) string {
	ws := strings.Fields(strings.TrimPrefix(strings.TrimSpace(textfold.Fold(s)), "le "))
	if len(ws) != 4 {
		return ""
	}
	if wd, ok := weekday(ws[0]); ok && wd != t.Weekday() {
		return fmt.Sprintf("vous avez écrit %s, mais le %s est un %s", ws[0], strings.TrimPrefix(Long(t), weekdays[t.Weekday()]+" "), weekdays[t.Weekday()])
	}
	return ""
}

func civil(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}
