package dates

import "time"

// The word-level rules of a written day, shared by Parse (a typed answer,
// the whole string) and the acces.md validator (a date among the words of
// a line, read as a stream). Each reads words already folded (lower case,
// accents dropped) and allocates nothing, so the validator can call them
// on every word of a large file.

// foldedMonths are the month names as fold writes them, January first.
var foldedMonths = [12]string{"janvier", "fevrier", "mars", "avril", "mai", "juin",
	"juillet", "aout", "septembre", "octobre", "novembre", "decembre"}

// Month reads a folded month name: "fevrier" (from février, Février…),
// "aout", "octobre".
func Month(w string) (time.Month, bool) {
	// A switch-free scan of twelve short strings: no table to build at
	// start-up, and the length check rejects most words at once.
	for i, n := range foldedMonths {
		if len(w) == len(n) && w == n {
			return time.Month(i + 1), true
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

// Atoi reads the ASCII digits of s, at most the first six (more cannot be
// a day, a month or a year, and six cannot overflow).
func Atoi(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 6; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// shortNumber reads one or two digits: a day or a month.
func shortNumber(s string) (int, bool) {
	if len(s) > 2 || !Digits(s) {
		return 0, false
	}
	return Atoi(s), true
}

// Year reads a year written in four digits, as every form spells it.
func Year(w string) (int, bool) {
	if len(w) != 4 || !Digits(w) {
		return 0, false
	}
	return Atoi(w), true
}

// DayOfMonth reads the day before a month name: "20", "2", "02", or "1er".
func DayOfMonth(w string) (int, bool) {
	if w == "1er" {
		return 1, true
	}
	return shortNumber(w)
}

// ISOWord reads the one-word form 2026-10-20 (also 2026-1-5): a four-digit
// year, then month and day of one or two digits. Only the shape is
// checked; Civil says whether the day exists.
func ISOWord(w string) (y, m, d int, ok bool) {
	if len(w) < 8 || len(w) > 10 || w[4] != '-' {
		return 0, 0, 0, false
	}
	rest := w[5:]
	i := 0
	for i < len(rest) && rest[i] != '-' {
		i++
	}
	if i == len(rest) {
		return 0, 0, 0, false
	}
	if y, ok = Year(w[:4]); !ok {
		return 0, 0, 0, false
	}
	if m, ok = shortNumber(rest[:i]); !ok {
		return 0, 0, 0, false
	}
	if d, ok = shortNumber(rest[i+1:]); !ok {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

// Slashed reads the three numbers of 20/10/2026, day first: day and month
// of one or two digits, a four-digit year. Only the shape is checked.
func Slashed(day, month, year string) (y, m, d int, ok bool) {
	if d, ok = shortNumber(day); !ok {
		return 0, 0, 0, false
	}
	if m, ok = shortNumber(month); !ok {
		return 0, 0, 0, false
	}
	if y, ok = Year(year); !ok {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

// Written reads the three folded words of 20 octobre 2026 or 1er octobre
// 2026. Only the shape is checked.
func Written(day, month, year string) (y, m, d int, ok bool) {
	if d, ok = DayOfMonth(day); !ok {
		return 0, 0, 0, false
	}
	mo, ok := Month(month)
	if !ok {
		return 0, 0, 0, false
	}
	if y, ok = Year(year); !ok {
		return 0, 0, 0, false
	}
	return y, int(mo), d, true
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
