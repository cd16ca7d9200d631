package dates_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/dates"
)

// Reference shapes, written the obvious way, that the allocation-free
// word readers must match exactly.
var (
	isoShape   = regexp.MustCompile(`^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})$`)
	shortShape = regexp.MustCompile(`^[0-9]{1,2}$`)
	yearShape  = regexp.MustCompile(`^[0-9]{4}$`)
	months     = []string{"janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout", "septembre", "octobre", "novembre", "decembre"}
)

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// checkWord compares every word reader with its reference on one word.
func checkWord(t *testing.T, w string) {
	t.Helper()
	y, m, d, ok := dates.ISOWord(w)
	if g := isoShape.FindStringSubmatch(w); (g != nil) != ok || ok && (y != atoi(g[1]) || m != atoi(g[2]) || d != atoi(g[3])) {
		t.Fatalf("ISOWord(%q) = %d %d %d %v, reference %q", w, y, m, d, ok, g)
	}
	mo, ok := dates.Month(w)
	want := 0
	for i, n := range months {
		if w == n {
			want = i + 1
		}
	}
	if ok != (want > 0) || int(mo) != want {
		t.Fatalf("Month(%q) = %d %v, want %d", w, mo, ok, want)
	}
	yr, ok := dates.Year(w)
	if ok != yearShape.MatchString(w) || ok && yr != atoi(w) {
		t.Fatalf("Year(%q) = %d %v", w, yr, ok)
	}
	day, ok := dates.DayOfMonth(w)
	switch {
	case w == "1er":
		if !ok || day != 1 {
			t.Fatalf("DayOfMonth(1er) = %d %v", day, ok)
		}
	case ok != shortShape.MatchString(w) || ok && day != atoi(w):
		t.Fatalf("DayOfMonth(%q) = %d %v", w, day, ok)
	}
	if dates.Digits(w) != (w != "" && strings.Trim(w, "0123456789") == "") {
		t.Fatalf("Digits(%q) = %v", w, dates.Digits(w))
	}
}

var wordSeeds = []string{"", "1", "01", "001", "1er", "1ER", "2026", "20260", "026", "2026-10-20", "2026-1-5",
	"2026-10-200", "2026--20", "-2026-1-1", "2026-10-20-", "202-10-20", "2026/10/20", "2026-1a-5",
	"fevrier", "février", "aout", "decembre", "decembres", "mai", "ma", "octobre", "٢٠٢٦", "２０２６"}

func TestWordReaders(t *testing.T) {
	for _, w := range wordSeeds {
		checkWord(t, w)
	}
	for y := 0; y < 10000; y += 37 {
		for m := 0; m < 100; m += 7 {
			for _, d := range []string{"0", "1", "09", "31", "99"} {
				checkWord(t, fmt.Sprintf("%04d-%d-%s", y, m, d))
				checkWord(t, fmt.Sprintf("%04d-%02d-%s", y, m, d))
			}
		}
	}
}

func FuzzWordReaders(f *testing.F) {
	for _, w := range wordSeeds {
		f.Add(w)
	}
	f.Fuzz(checkWord)
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

// TestWordReadersAllocateNothing: the validator calls them on every word
// of a file of up to 1 MiB.
func TestWordReadersAllocateNothing(t *testing.T) {
	var sink int
	n := testing.AllocsPerRun(100, func() {
		for _, w := range wordSeeds {
			y, m, d, _ := dates.ISOWord(w)
			a, b, c, _ := dates.Slashed(w, w, w)
			e, g, h, _ := dates.Written(w, w, w)
			_, ok := dates.Civil(y, m, d)
			if ok {
				sink++
			}
			sink += a + b + c + e + g + h
		}
	})
	if n != 0 {
		t.Fatalf("%v allocations per run", n)
	}
	_ = sink
}

// agreeBothWays is the property of TestAgreementBothWays for one typed
// date s: the validator reads "Date … : s" as the day Parse returns; when
// Parse refuses s, the validator reads no day, or one outside the years
// pret means. It reports whether Parse accepted s.
func agreeBothWays(t *testing.T, s string) bool {
	t.Helper()
	doc := []byte("Date de la demande du compte : " + s + "\n")
	v := acces.Validate(doc, acces.Rules{KeyName: "id_ed25519_romeo.pub"}).Date
	got, err := dates.Parse(s, day(2026, 10, 20))
	switch {
	case err == nil:
		if v != got.Format(dates.ISO) {
			t.Fatalf("%q: Parse reads %s, the validator %q", s, got.Format(dates.ISO), v)
		}
		return true
	case v != "":
		if vd, _ := time.Parse(dates.ISO, v); dates.InYears(vd.Year()) {
			t.Fatalf("%q: Parse refuses (%v), the validator reads %s", s, err, v)
		}
	}
	return false
}

// FuzzAgreementBothWays: three words of letters and digits, any script,
// put in each form's frame (d/m/y, y-m-d, "d m y"), read alike by Parse
// and by the validator.
func FuzzAgreementBothWays(f *testing.F) {
	f.Add("20", "10", "2026")
	f.Add("1er", "Février", "2026")
	f.Add("31", "11", "2026")
	f.Add("29", "février", "2028")
	f.Add("5", "AOÛT", "2101")
	f.Fuzz(func(t *testing.T, d, m, y string) {
		for _, w := range []string{d, m, y} {
			if w == "" || strings.IndexFunc(w, func(r rune) bool {
				return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r)
			}) >= 0 {
				return // words only: a frame with more in it is another sentence
			}
		}
		for _, s := range []string{d + "/" + m + "/" + y, y + "-" + m + "-" + d, d + " " + m + " " + y} {
			agreeBothWays(t, s)
		}
	})
}

// TestAgreementBothWays builds typed dates from the pieces each form is
// made of, valid and not, and checks both readers in both directions: the
// validator reads a labelled line "Date … : s" as the day Parse returns
// for s; and when Parse refuses s, the validator reads no day, or a day
// outside the years pret means (which Parse refuses on purpose).
func TestAgreementBothWays(t *testing.T) {
	days := []string{"0", "1", "01", "1er", "1ER", "9", "29", "30", "31", "32", "123", "x"}
	monthNums := []string{"0", "1", "02", "9", "11", "12", "13", "123"}
	monthWords := []string{"janvier", "Février", "fevrier", "FÉVRIER", "fe\u0301vrier", "aout", "août", "avril", "novembre", "décembre", "brumaire", "fev"}
	years := []string{"1999", "2000", "2024", "2026", "2100", "2101", "0026", "26", "20260"}
	var forms []string
	for _, d := range days {
		for _, y := range years {
			for _, m := range monthNums {
				forms = append(forms, d+"/"+m+"/"+y, y+"-"+m+"-"+d)
			}
			for _, m := range monthWords {
				forms = append(forms, d+" "+m+" "+y, "mardi "+d+" "+m+" "+y)
			}
		}
	}
	accepted, refusedWithDay := 0, 0
	for _, s := range forms {
		switch {
		case agreeBothWays(t, s):
			accepted++
		default:
			doc := []byte("Date de la demande du compte : " + s + "\n")
			if acces.Validate(doc, acces.Rules{KeyName: "id_ed25519_romeo.pub"}).Date != "" {
				refusedWithDay++
			}
		}
	}
	// Not vacuous: both sides of the agreement were exercised.
	if accepted < 500 || refusedWithDay < 50 {
		t.Fatalf("only %d accepted, %d refused for the year alone, of %d forms", accepted, refusedWithDay, len(forms))
	}
}
