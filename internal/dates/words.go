package dates

import (
	"strings"
	"time"

	"github.com/romeo-pret/pret/internal/textfold"
)

// tokens splits text into folded words and marks (textfold.Tokens: lower
// case, no accents, ’ as '), with / - . and apostrophes inside a word:
// so 20/10/2026, 2026-10-20, 20.10.2026, avant-hier and aujourd'hui are
// one word each, and the dot of « oct. » is a mark of its own. Parse and Find both read through it: a typed
// answer and the same words in a file are the same tokens.
func tokens(text string) []textfold.Token { return textfold.Tokens(text, isJoiner) }

func isJoiner(r rune) bool {
	switch r {
	case '/', '-', '.', '\'', '’', 'ʼ':
		return true
	}
	return false
}

// foldedMonths are the month names as textfold writes them, January first.
var foldedMonths = [12]string{"janvier", "fevrier", "mars", "avril", "mai", "juin",
	"juillet", "aout", "septembre", "octobre", "novembre", "decembre"}

// Month reads a folded month name, whole or shortened to its first three
// letters or more, as long as only one month starts so: "fevrier",
// "fevr", "fev", "aout", "oct", "sept". "ju" and "jui" are refused (juin
// or juillet?), and so is "ma" (mars or mai?).
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

var foldedWeekdays = [7]string{"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"}

// weekday reads a folded weekday name: "mardi".
func weekday(w string) (time.Weekday, bool) {
	for i, n := range foldedWeekdays {
		if w == n {
			return time.Weekday(i), true
		}
	}
	return 0, false
}

// Digits reports whether s is one or more ASCII digits.
func Digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// number reads one to n ASCII digits.
func number(s string, n int) (int, bool) {
	if len(s) > n || !Digits(s) {
		return 0, false
	}
	v := 0
	for i := 0; i < len(s); i++ {
		v = v*10 + int(s[i]-'0')
	}
	return v, true
}

// year reads a year written in four digits, as every form spells it.
func year(w string) (int, bool) {
	if len(w) != 4 {
		return 0, false
	}
	return number(w, 4)
}

// dayOfMonth reads the day before a month name: "20", "2", "02", or "1er".
func dayOfMonth(w string) (int, bool) {
	if w == "1er" {
		return 1, true
	}
	return number(w, 2)
}

// ISOWord reads the one-word form 2026-10-20 (also 2026-1-5): a four-digit
// year, then month and day of one or two digits. Only the shape is
// checked; Civil says whether the day exists.
func ISOWord(w string) (y, m, d int, ok bool) {
	p := strings.Split(w, "-")
	if len(p) != 3 {
		return 0, 0, 0, false
	}
	y, ok1 := year(p[0])
	m, ok2 := number(p[1], 2)
	d, ok3 := number(p[2], 2)
	return y, m, d, ok1 && ok2 && ok3
}

// Civil is the day y-m-d at midnight UTC, when the calendar has it:
// 2026-02-30, 31/11 and month 13 do not exist.
func Civil(y, m, d int) (time.Time, bool) {
	if m < 1 || m > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	return t, t.Day() == d && int(t.Month()) == m
}

// The years pret can mean, for a recorded date as for the session date:
// beyond them, a typo such as 0026 or 2206.
const (
	MinYear = 2000
	MaxYear = 2100
)

// InYears reports whether y is between MinYear and MaxYear.
func InYears(y int) bool { return y >= MinYear && y <= MaxYear }
