// Package dates is pret's one date reader (docs/apprenant.md, docs/acces-md.md): Parse for
// the wizard's answers, Find for acces.md's blocks, on the same tokens and the same days.
package dates

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/internal/textfold"
)

// ISO is the layout acces.md and the state file store.
const ISO = "2006-01-02"

var (
	weekdays = [...]string{"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"}
	Months   = [...]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}
)

// Long writes a day in full: "mardi 20 octobre 2026", "jeudi 1er octobre 2026".
func Long(d time.Time) string {
	day := strconv.Itoa(d.Day())
	if d.Day() == 1 {
		day = "1er"
	}
	return fmt.Sprintf("%s %s %s %d", weekdays[d.Weekday()], day, Months[d.Month()-1], d.Year())
}

// Day writes a day without its weekday: "20 octobre 2026".
func Day(d time.Time) string {
	return strings.TrimPrefix(Long(d), weekdays[d.Weekday()]+" ")
}

// Forms is what to type, for help texts and hints.
const Forms = "2026-10-20, 20/10/2026, 20 octobre 2026, 20 oct., hier ou il y a 3 jours"

// CalendarForms is what to write where a relative date is refused (acces.md).
const CalendarForms = "2026-10-20, 20/10/2026, 20 octobre 2026 ou 20 oct. 2026"

// Context completes what a person leaves out: Today for the relative forms, Session for
// a day without its year. Civil days (midnight UTC); zero is unknown, its forms refused.
type Context struct {
	Today, Session time.Time
}

// Error says why a date was not understood, or was read and names no day
// pret can take, in French, quoting it.
type Error struct {
	Input, Reason string
	// Contextual: the refusal depends on Context: not final before today and the session are known.
	Contextual bool
	// Read: the form was read; the day it names does not exist, or is refused.
	Read bool
}

func (e *Error) Error() string {
	if e.Read {
		return fmt.Sprintf("date %s refusée : %s", quote(e.Input), e.Reason)
	}
	return fmt.Sprintf("date %s non comprise : %s", quote(e.Input), e.Reason)
}

// quote escapes (it reaches a terminal) so a Reason prints as it is.
func quote(s string) string { return "« " + termtext.Escape(s) + " »" }

// Found is a date in a text: where, and its day or why it names none.
type Found struct {
	Start, End int
	Day        time.Time
	Err        *Error
	Relative   bool // named only from today (hier, il y a 3 jours)
}

// Parse reads one typed day (midnight UTC): the whole answer, « le » before and dots after allowed.
func Parse(s string, ctx Context) (time.Time, error) {
	ts := textfold.Tokens(s)
	if at(ts, 0) == "le" {
		ts = ts[1:]
	}
	quoted := strings.Join(strings.Fields(s), " ")
	if len(ts) == 0 {
		return time.Time{}, &Error{Input: quoted, Reason: "rien n'a été saisi ; écrivez par exemple " + Forms}
	}
	n, f, ok := read(s, ts, ctx)
	// A final dot ends the sentence, or the date's abbreviated month.
	for ok && len(ts) > n && ts[len(ts)-1].Folded == "." {
		ts = ts[:len(ts)-1]
	}
	switch {
	case ok && n == len(ts) && f.Err != nil:
		f.Err.Input = quoted
		return time.Time{}, f.Err
	case ok && n == len(ts):
		return f.Day, nil
	case ok:
		return time.Time{}, &Error{Input: quoted, Reason: quote(s[ts[n].Start:ts[n].End]) + " n'est pas compris après la date"}
	}
	return time.Time{}, &Error{Input: quoted, Reason: why(s, ts)}
}

// Find returns, in order, every run of ts (textfold.Tokens(text)) Parse would read as a date.
func Find(text string, ts []textfold.Token, ctx Context) []Found {
	var out []Found
	for i := 0; i < len(ts); i++ {
		if n, f, ok := read(text, ts[i:], ctx); ok {
			out = append(out, f)
			i += n - 1
		}
	}
	return out
}

// read reads the date form at ts[0] (ok) and its token count; a day not in the calendar has f.Err.
func read(text string, ts []textfold.Token, ctx Context) (n int, f Found, ok bool) {
	if n, f, ok = readAbsolute(ts, ctx); !ok {
		n, f, ok = readRelative(ts, ctx)
	}
	if ok {
		f.Start, f.End = ts[0].Start, ts[n-1].End
		if f.Err != nil {
			f.Err.Input = text[f.Start:f.End]
		}
	}
	return n, f, ok
}

// readAbsolute reads a calendar day, after an optional weekday that must be its ("mardi, le 20/10").
func readAbsolute(ts []textfold.Token, ctx Context) (int, Found, bool) {
	wd, named := weekday(ts[0].Folded)
	skip := 0
	if named {
		skip = 1
		if at(ts, skip) == "." { // "mar."
			skip++
		}
		if at(ts, skip) == "," {
			skip++
		}
		if at(ts, skip) == "le" {
			skip++
		}
	}
	if skip >= len(ts) {
		return 0, Found{}, false
	}
	n, y, m, d, ok := readCalendar(ts[skip:])
	if !ok {
		return 0, Found{}, false
	}
	n += skip
	fail := func(reason string, contextual bool) (int, Found, bool) {
		return n, Found{Err: &Error{Reason: reason, Contextual: contextual, Read: true}}, true
	}
	implied := y == noYear
	if implied {
		anchor := cmp.Or(ctx.Session, ctx.Today)
		if anchor.IsZero() {
			return fail("précisez l'année, par exemple 20 octobre 2026", true)
		}
		// The last such day on or before the session; eight years back finds every 29 February.
		for y = anchor.Year(); y > anchor.Year()-8; y-- {
			if t, ok := Civil(y, m, d); ok && !t.After(anchor) {
				break
			}
		}
		// A weekday names the year: « sam. 7 nov. » of the session's year,
		// just after it, is that day said late, not a wrong weekday in
		// the year before (outside tester). Its caller says it is late.
		if t, ok := Civil(anchor.Year(), m, d); named && ok && y < anchor.Year() && t.Weekday() == wd {
			y = anchor.Year()
		}
	}
	t, ok := Civil(y, m, d)
	switch {
	case !ok:
		return fail(noSuchDay(y, m, d, implied, ts[skip].Folded), false)
	case !InYears(y):
		return fail(fmt.Sprintf("l'année doit être entre %d et %d", MinYear, MaxYear), false)
	case named && t.Weekday() != wd:
		return fail(fmt.Sprintf("le jour de la semaine ne correspond pas (le %s est un %s, pas un %s)", Day(t), weekdays[t.Weekday()], weekdays[wd]), implied)
	}
	return n, Found{Day: t}, true
}

// noSuchDay says which part of y-m-d the calendar lacks; word is the form as typed (folded).
func noSuchDay(y, m, d int, implied bool, word string) string {
	if m < 1 || m > 12 {
		// 10/20/2026: the month first, as in English.
		if swapped := fmt.Sprintf("%02d/%02d", m, d); !strings.HasPrefix(word, fmt.Sprint(y)) && d >= 1 && d <= 12 && m <= 31 {
			if !implied {
				swapped += fmt.Sprintf("/%d", y)
			}
			return fmt.Sprintf("il n'y a pas de mois %d : le jour s'écrit d'abord, JJ/MM/AAAA (ici %s ?)", m, swapped)
		}
		return fmt.Sprintf("il n'y a pas de mois %d (le mois va de 1 à 12)", m)
	}
	if d < 1 {
		return "il n'y a pas de jour 0 (le jour va de 1 à 31)"
	}
	last := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	if implied {
		if m == 2 {
			last = 29
		}
		return fmt.Sprintf("ce jour n'existe pas (%s n'a que %d jours)", Months[m-1], last)
	}
	return fmt.Sprintf("ce jour n'existe pas (%s %d n'a que %d jours)", Months[m-1], y, last)
}

// readCalendar reads 2026-10-20, 20/10/2026, 20/10, 20.10.2026, 20-10-2026, 20-10 or a day,
// a month name, an optional dot and year. A two-digit year is no date: Parse says why.
func readCalendar(ts []textfold.Token) (n, y, m, d int, ok bool) {
	w := ts[0].Folded
	if w == "" || w[0] < '0' || w[0] > '9' { // every form starts with its day or its year
		return 0, 0, 0, 0, false
	}
	if y, m, d, ok = ISOWord(w); ok {
		return 1, y, m, d, true
	}
	for _, sep := range []string{"/", ".", "-"} {
		ds, rest, ok := strings.Cut(w, sep)
		ms, ys, three := strings.Cut(rest, sep)
		switch {
		case !ok, strings.Contains(ys, sep): // no part, or more than three
			continue
		case sep == "-" && len(ds) > 2:
			// 2026-10: the year first is ISO's, said by why.
			return 0, 0, 0, 0, false
		case three && len(ys) != 4:
			return 0, 0, 0, 0, false
		case !three && sep == ".":
			// 20.10 is as likely a number as a day.
			return 0, 0, 0, 0, false
		}
		d, ok1 := number(ds, 2)
		m, ok2 := number(ms, 2)
		y, ok3 := noYear, true
		if three {
			y, ok3 = year(ys)
		}
		return 1, y, m, d, ok1 && ok2 && ok3
	}
	if d, ok = dayOfMonth(w); !ok || len(ts) < 2 {
		return 0, 0, 0, 0, false
	}
	mo, ok := Month(ts[1].Folded) // only after a day: most words are none
	if !ok {
		return 0, 0, 0, 0, false
	}
	n, y = 2, noYear
	if at(ts, n) == "." {
		n++
	}
	if Digits(at(ts, n)) {
		if y, ok = year(ts[n].Folded); !ok {
			return 0, 0, 0, 0, false // 20 octobre 26
		}
		n++
	}
	return n, y, int(mo), d, true
}

const noYear = -1 // 0000 is a written year

var numberWords = map[string]int{"un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5,
	"six": 6, "sept": 7, "huit": 8, "neuf": 9, "dix": 10, "quinze": 15}

// readRelative reads a day named from today: mardi is the last Tuesday, today included,
// mardi dernier before today; demain is read to be refused for what it is.
func readRelative(ts []textfold.Token, ctx Context) (int, Found, bool) {
	at := func(i int) string { return at(ts, i) }
	n, back := 0, 0
	switch w := at(0); {
	case w == "aujourd'hui" || w == "aujourdhui":
		n = 1
	case w == "hier":
		n, back = 1, 1
	case w == "avant-hier":
		n, back = 1, 2
	case w == "avant" && at(1) == "hier":
		n, back = 2, 2
	case w == "demain" || w == "apres-demain":
		return 1, Found{Relative: true, Err: &Error{Reason: "ce jour est dans le futur : notez le jour où la demande ou la vérification a été faite", Contextual: true, Read: true}}, true
	case w == "il" && at(1) == "y" && at(2) == "a":
		count, ok := numberWords[at(3)]
		if !ok {
			count, ok = number(at(3), 3)
		}
		unit := map[string]int{"jour": 1, "jours": 1, "semaine": 7, "semaines": 7}[at(4)]
		if !ok || unit == 0 {
			return 0, Found{}, false
		}
		n, back = 5, count*unit
	default:
		wd, ok := weekday(w)
		if !ok {
			return 0, Found{}, false
		}
		if next := at(1); next != "" && next[0] >= '0' && next[0] <= '9' {
			return 0, Found{}, false // a weekday before a day that is no date
		}
		n = 1
		if a := at(1); a == "dernier" || a == "passe" {
			n, back = 2, 1 // before today
		}
		if !ctx.Today.IsZero() {
			back += (int(ctx.Today.AddDate(0, 0, -back).Weekday()) - int(wd) + 7) % 7
		}
	}
	f := Found{Relative: true}
	if ctx.Today.IsZero() {
		f.Err = &Error{Reason: "ce jour dépend du jour où il est lu : écrivez la date, par exemple 20 octobre 2026", Contextual: true}
		return n, f, true
	}
	f.Day = ctx.Today.AddDate(0, 0, -back)
	if !InYears(f.Day.Year()) {
		f.Err = &Error{Reason: fmt.Sprintf("l'année doit être entre %d et %d", MinYear, MaxYear), Contextual: true, Read: true}
	}
	return n, f, true
}

// why says, for an answer that is no date form, which part is wrong.
func why(s string, ts []textfold.Token) string {
	word := func(t textfold.Token) string { return quote(s[t.Start:t.End]) }
	if _, ok := weekday(ts[0].Folded); ok && len(ts) > 1 {
		ts = ts[1:]
		if len(ts) > 1 && ts[0].Folded == "le" {
			ts = ts[1:]
		}
	} else if len(ts) >= 3 && !Digits(ts[0].Folded) {
		if _, ok := dayOfMonth(ts[1].Folded); ok {
			if _, ok := Month(ts[2].Folded); ok {
				return word(ts[0]) + " n'est pas un jour de la semaine"
			}
		}
	}
	w := ts[0].Folded
	if strings.ContainsAny(w, "/.-") && strings.IndexFunc(w, func(r rune) bool { return !strings.ContainsRune("0123456789/.-", r) }) < 0 {
		switch p := strings.FieldsFunc(w, func(r rune) bool { return r == '/' || r == '.' || r == '-' }); {
		case strings.Contains(w, "-") && len(p) > 0 && len(p[0]) == 4:
			return "attendu AAAA-MM-JJ, par exemple 2026-10-20"
		case len(p) == 3 && len(p[2]) != 4:
			return "l'année s'écrit en quatre chiffres, par exemple 20/10/2026"
		case len(p) == 2 && len(p[1]) == 4:
			return "il manque le jour, par exemple 20/10/2026"
		}
		return "attendu JJ/MM/AAAA, le jour d'abord, par exemple 20/10/2026"
	}
	if _, ok := Month(w); ok {
		return "il manque le jour, par exemple 20 " + termtext.Escape(s[ts[0].Start:ts[0].End])
	}
	if ambiguousMonth(w) {
		return word(ts[0]) + " : juin ou juillet ? écrivez le jour et le mois en entier, par exemple 20 juin"
	}
	if _, ok := dayOfMonth(w); !ok {
		if Digits(w) {
			return "le jour s'écrit en un ou deux chiffres, par exemple 20 octobre 2026 ou 1er octobre 2026"
		}
		return "écrivez par exemple " + Forms
	}
	if len(ts) == 1 {
		return "il manque le mois, par exemple 20 octobre 2026"
	}
	switch ts[1].Folded {
	case "jour", "jours", "semaine", "semaines", "mois":
		return "pour compter depuis aujourd'hui, écrivez par exemple « il y a 3 jours »"
	}
	if ambiguousMonth(ts[1].Folded) {
		return word(ts[1]) + " : juin ou juillet ? écrivez le mois en entier"
	}
	if _, ok := Month(ts[1].Folded); !ok {
		return word(ts[1]) + " n'est pas un mois (janvier … décembre)"
	}
	if Digits(at(ts, 2)) || at(ts, 2) == "." && Digits(at(ts, 3)) {
		return "l'année s'écrit en quatre chiffres, par exemple 2026"
	}
	return "écrivez par exemple " + Forms
}

func at(ts []textfold.Token, i int) string {
	if i < len(ts) {
		return ts[i].Folded
	}
	return ""
}

// ambiguousMonth: "ju" and "jui" start both juin and juillet.
func ambiguousMonth(folded string) bool { return folded == "ju" || folded == "jui" }

var foldedMonths = [12]string{"janvier", "fevrier", "mars", "avril", "mai", "juin",
	"juillet", "aout", "septembre", "octobre", "novembre", "decembre"}

// Month reads a folded month name, whole or its first three letters or more ("oct"; not "jui").
func Month(w string) (time.Month, bool) {
	found := time.Month(0)
	for i, n := range foldedMonths {
		switch {
		case w == n:
			return time.Month(i + 1), true
		case len(w) >= 3 && strings.HasPrefix(n, w):
			if found != 0 {
				return 0, false
			}
			found = time.Month(i + 1)
		}
	}
	return found, found != 0
}

// weekday reads a folded weekday, whole or in its three letters ("mar",
// as date +%a writes it in French: no two weekdays share them).
func weekday(w string) (time.Weekday, bool) {
	i := slices.IndexFunc(weekdays[:], func(d string) bool { return w == d || len(w) == 3 && strings.HasPrefix(d, w) })
	return time.Weekday(i), i >= 0
}

func Digits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// number reads one to n ASCII digits.
func number(s string, n int) (int, bool) {
	if len(s) > n || !Digits(s) {
		return 0, false
	}
	v, err := strconv.Atoi(s)
	return v, err == nil
}

func year(w string) (int, bool) {
	y, ok := number(w, 4)
	return y, ok && len(w) == 4
}

// dayOfMonth reads the day before a month name: "20", "2", "02", or "1er".
func dayOfMonth(w string) (int, bool) {
	if w == "1er" {
		return 1, true
	}
	return number(w, 2)
}

// ISOWord reads the shape 2026-10-20 (also 2026-1-5); Civil checks the day.
func ISOWord(w string) (y, m, d int, ok bool) {
	ys, rest, _ := strings.Cut(w, "-")
	ms, ds, _ := strings.Cut(rest, "-")
	y, ok1 := year(ys)
	m, ok2 := number(ms, 2)
	d, ok3 := number(ds, 2)
	return y, m, d, ok1 && ok2 && ok3
}

// Civil is y-m-d at midnight UTC, when the calendar has it (not 2026-02-30).
func Civil(y, m, d int) (time.Time, bool) {
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	return t, m >= 1 && m <= 12 && t.Day() == d && int(t.Month()) == m
}

// The years pret can mean: beyond them, a typo such as 0026 or 2206.
const MinYear, MaxYear = 2000, 2100

func InYears(y int) bool { return y >= MinYear && y <= MaxYear }
