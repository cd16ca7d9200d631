package dates_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/romeo-pret/pret/internal/dates"
)

func TestMonth(t *testing.T) {
	for w, want := range map[string]time.Month{
		"janvier": 1, "janv": 1, "jan": 1, "fevrier": 2, "fevr": 2, "fev": 2, "mars": 3, "mar": 3, "avril": 4, "avr": 4,
		"mai": 5, "juin": 6, "juillet": 7, "juil": 7, "aout": 8, "aou": 8, "septembre": 9, "sept": 9, "sep": 9,
		"octobre": 10, "oct": 10, "novembre": 11, "nov": 11, "decembre": 12, "dec": 12,
		// Too short, ambiguous, too long, not folded, not a month:
		"ja": 0, "ma": 0, "jui": 0, "ju": 0, "octobres": 0, "Octobre": 0, "février": 0, "brumaire": 0, "": 0,
	} {
		got, ok := dates.Month(w)
		if got != want || ok != (want != 0) {
			t.Errorf("Month(%q) = %v %v, want %v", w, got, ok, want)
		}
	}
}

func TestISOWord(t *testing.T) {
	type ymd struct{ y, m, d int }
	for w, want := range map[string]*ymd{
		"2026-10-20": {2026, 10, 20}, "2026-1-5": {2026, 1, 5}, "0000-00-00": {0, 0, 0}, "2026-13-45": {2026, 13, 45},
		"2026-10-200": nil, "2026--20": nil, "-2026-1-1": nil, "2026-10-20-": nil, "202-10-20": nil,
		"2026/10/20": nil, "2026-1a-5": nil, "٢٠٢٦-1-1": nil, "": nil,
	} {
		y, m, d, ok := dates.ISOWord(w)
		if ok != (want != nil) || ok && (ymd{y, m, d}) != *want {
			t.Errorf("ISOWord(%q) = %d %d %d %v, want %v", w, y, m, d, ok, want)
		}
	}
}

// TestCivil: Civil accepts exactly the days the calendar has, as
// time.Parse reads them.
func TestCivil(t *testing.T) {
	for _, y := range []int{1999, 2000, 2024, 2026, 2100} {
		for m := -1; m <= 14; m++ {
			for d := -1; d <= 33; d++ {
				got, ok := dates.Civil(y, m, d)
				ref, err := time.Parse("2006-1-2", fmt.Sprintf("%04d-%d-%d", y, m, d))
				if ok != (err == nil) || ok && !got.Equal(ref) {
					t.Fatalf("Civil(%d, %d, %d) = %v %v; time.Parse: %v %v", y, m, d, got, ok, ref, err)
				}
			}
		}
	}
}
