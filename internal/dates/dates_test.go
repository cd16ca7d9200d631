package dates_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/dates"
)

func day(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

// validatorReading says how the acces.md validator reads s on a labelled
// line: "none" (no date found), "bad" (not a calendar day), or the day. The
// day is pinned by two runs: with today = t nothing is in the future, with
// today = t-1 the date is; so the validator's reading is exactly t.
// want is nil when the parser refused s: year 1, January 1 is the zero
// time.Time, so no value of want can stand for "no date".
func validatorReading(t *testing.T, s string, want *time.Time) string {
	t.Helper()
	doc := []byte("Date de la demande du compte : " + s + "\n")
	codes := func(today time.Time) map[string]bool {
		got := map[string]bool{}
		for _, p := range acces.Validate(doc, acces.Rules{KeyName: "id_ed25519_romeo.pub", Today: today}).Problems {
			got[p.Code] = true
		}
		return got
	}
	c := codes(day(9999, 1, 1))
	switch {
	case c["missing-date"]:
		return "none"
	case c["bad-date"]:
		return "bad"
	case want == nil:
		return "a date"
	}
	if codes(*want)["future-date"] || !codes(want.AddDate(0, 0, -1))["future-date"] {
		return "another day than " + want.Format(dates.ISO)
	}
	return want.Format(dates.ISO)
}

// TestFormsAgreeWithValidator: every form of acces-md.md, typed in the
// wizard or given to --date, is read as the validator reads it in a file.
func TestFormsAgreeWithValidator(t *testing.T) {
	today := day(2026, 10, 20)
	cases := []struct {
		in   string
		want string // AAAA-MM-JJ, or "bad" (not a day), or "none" (not a date)
	}{
		{"2026-10-20", "2026-10-20"},
		{"2026-1-5", "2026-01-05"},
		{"20/10/2026", "2026-10-20"},
		{"2/9/2026", "2026-09-02"},
		{"02/09/2026", "2026-09-02"},
		{"20 octobre 2026", "2026-10-20"},
		{"20 Octobre 2026", "2026-10-20"},
		{"20 OCTOBRE 2026", "2026-10-20"},
		{"1er octobre 2026", "2026-10-01"},
		{"1 octobre 2026", "2026-10-01"},
		{"mardi 20 octobre 2026", "2026-10-20"},
		{"Mardi 20 octobre 2026", "2026-10-20"},
		{"lundi 20 octobre 2026", "2026-10-20"}, // read by the date, with a note
		{"3 fevrier 2026", "2026-02-03"},
		{"3 février 2026", "2026-02-03"},
		{"3 fe\u0301vrier 2026", "2026-02-03"}, // decomposed accent
		{"14 aout 2026", "2026-08-14"},
		{"14 août 2026", "2026-08-14"},
		{"1er decembre 2025", "2025-12-01"},
		{"1er décembre 2025", "2025-12-01"},
		{"  20/10/2026  ", "2026-10-20"},
		{"le 20 octobre 2026", "2026-10-20"},
		{"20 octobre 2026.", "2026-10-20"},
		{"20\u00a0octobre\u00a02026", "2026-10-20"},
		{"2026-02-30", "bad"},
		{"31/11/2026", "bad"},
		{"10/20/2026", "bad"},
		{"29/02/2026", "bad"},
		{"32 octobre 2026", "bad"},
		{"0/10/2026", "bad"},
		{"2026-13-01", "bad"},
		{"octobre 2026", "none"},
		{"20 brumaire 2026", "none"},
		{"20/10/26", "none"},
		{"demain", "none"},
		{"", "none"},
	}
	for _, c := range cases {
		got, err := dates.Parse(c.in, today)
		switch {
		case c.want == "bad" || c.want == "none":
			if err == nil {
				t.Errorf("Parse(%q) = %s, want a refusal", c.in, got.Format(dates.ISO))
			}
			if c.in != "" {
				if v := validatorReading(t, c.in, nil); v != c.want {
					t.Errorf("validator reads %q as %s, want %s", c.in, v, c.want)
				}
			}
		case err != nil:
			t.Errorf("Parse(%q): %v", c.in, err)
		case got.Format(dates.ISO) != c.want:
			t.Errorf("Parse(%q) = %s, want %s", c.in, got.Format(dates.ISO), c.want)
		default:
			if v := validatorReading(t, c.in, &got); v != c.want {
				t.Errorf("validator reads %q as %s, the parser as %s", c.in, v, c.want)
			}
		}
	}
}

// TestEveryDayEveryForm generates the forms of every day of five years and
// checks the parser and the validator both read each one as that day; and
// that Long (the echo) reads back to the same day.
func TestEveryDayEveryForm(t *testing.T) {
	today := day(2030, 1, 1)
	months := []string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}
	plain := []string{"janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout", "septembre", "octobre", "novembre", "decembre"}
	checked := 0
	for d := day(2024, 1, 1); d.Before(day(2029, 1, 1)); d = d.AddDate(0, 0, 1) {
		forms := []string{
			d.Format("2006-01-02"),
			fmt.Sprintf("%d-%d-%d", d.Year(), d.Month(), d.Day()),
			d.Format("02/01/2006"),
			d.Format("2/1/2006"),
			fmt.Sprintf("%d %s %d", d.Day(), months[d.Month()-1], d.Year()),
			fmt.Sprintf("%d %s %d", d.Day(), plain[d.Month()-1], d.Year()),
			strings.ToUpper(fmt.Sprintf("%d %s %d", d.Day(), months[d.Month()-1], d.Year())),
			dates.Long(d),
		}
		for _, f := range forms {
			got, err := dates.Parse(f, today)
			if err != nil || !got.Equal(d) {
				t.Fatalf("Parse(%q) = %v, %v; want %s", f, got, err, d.Format(dates.ISO))
			}
			// The validator runs on a sample: every form of the first day
			// of each month and of every 7th day, to keep the test quick.
			if d.Day() == 1 || d.YearDay()%7 == 0 {
				if v := validatorReading(t, f, &d); v != d.Format(dates.ISO) {
					t.Fatalf("validator reads %q as %s", f, v)
				}
				checked++
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d forms checked against the validator", checked)
	}
}

func TestRelativeWords(t *testing.T) {
	today := day(2026, 3, 1)
	for in, want := range map[string]string{
		"aujourd'hui": "2026-03-01", "Aujourd’hui": "2026-03-01", "AUJOURD'HUI": "2026-03-01", "aujourdhui": "2026-03-01",
		"hier": "2026-02-28", "Hier": "2026-02-28", "hier.": "2026-02-28",
	} {
		got, err := dates.Parse(in, today)
		if err != nil || got.Format(dates.ISO) != want {
			t.Errorf("Parse(%q) = %v %v, want %s", in, got, err, want)
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
}

func TestDay(t *testing.T) {
	if got := dates.Day(day(2026, 10, 20)); got != "20 octobre 2026" {
		t.Errorf("%q", got)
	}
	if got := dates.Day(day(2026, 10, 1)); got != "1er octobre 2026" {
		t.Errorf("%q", got)
	}
}

func TestWeekdayNote(t *testing.T) {
	d := day(2026, 10, 20)
	if n := dates.WeekdayNote("lundi 20 octobre 2026", d); !strings.Contains(n, "mardi") || !strings.Contains(n, "lundi") {
		t.Errorf("note %q", n)
	}
	for _, s := range []string{"mardi 20 octobre 2026", "20 octobre 2026", "20/10/2026"} {
		if n := dates.WeekdayNote(s, d); n != "" {
			t.Errorf("%q: unexpected note %q", s, n)
		}
	}
}

// TestErrorsAreFrench: a refusal says what to type, in French, and quotes
// what was typed.
func TestErrorsAreFrench(t *testing.T) {
	for _, in := range []string{"demain", "2026-02-30", "10/20/2026", "20 brumaire 2026", "abc", "jeudi 5 nov 2026", "2/1/0001", "1er mai 1999", "2101-01-01"} {
		_, err := dates.Parse(in, day(2026, 10, 20))
		if err == nil {
			t.Fatalf("%q accepted", in)
		}
		msg := err.Error()
		if !strings.Contains(msg, "non comprise") || !strings.Contains(msg, in) {
			t.Errorf("%q: %s", in, msg)
		}
		for _, en := range []string{"invalid", "parsing", "cannot", "month", "out of range"} {
			if strings.Contains(msg, en) {
				t.Errorf("%q: English in %q", in, msg)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2026-10-20", "20/10/2026", "1er octobre 2026", "mardi 20 octobre 2026", "hier", "31/11/2026"} {
		f.Add(s)
	}
	today := day(2026, 10, 20)
	f.Fuzz(func(t *testing.T, s string) {
		d, err := dates.Parse(s, today)
		if err != nil {
			return
		}
		// Property: an accepted day is a midnight UTC civil day whose full
		// echo and ISO form read back to the same day.
		if d.Hour() != 0 || d.Minute() != 0 || d.Location() != time.UTC {
			t.Fatalf("%q: not a civil day: %v", s, d)
		}
		// Property: a date typed in the wizard reads, in a file, as the
		// validator reads it.
		// An accepted date without a digit is a relative word ("hier",
		// "Aujourd'hui", however accented): it only exists when typed.
		if strings.ContainsAny(s, "0123456789") && !strings.ContainsAny(s, "\n\r") {
			if v := validatorReading(t, s, &d); v != d.Format(dates.ISO) {
				t.Fatalf("%q: parser %s, validator %s", s, d.Format(dates.ISO), v)
			}
		}
		for _, back := range []string{dates.Long(d), d.Format(dates.ISO)} {
			if d.Year() < 1000 {
				break // four-digit years only in the written forms
			}
			if again, err := dates.Parse(back, today); err != nil || !again.Equal(d) {
				t.Fatalf("%q -> %s -> %v %v", s, back, again, err)
			}
		}
	})
}

func BenchmarkParse(b *testing.B) {
	today := day(2026, 10, 20)
	forms := []string{"2026-10-20", "20/10/2026", "mardi 20 octobre 2026", "1er février 2026", "hier"}
	for i := 0; i < b.N; i++ {
		dates.Parse(forms[i%len(forms)], today)
	}
}
