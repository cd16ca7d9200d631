package textfold

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// reference is Fold written the slow, obvious way: full NFD, combining
// marks dropped, lower case, œ/æ spelled out, typographic apostrophes
// made ', white space runs made one space, none at either end.
func reference(s string) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case r == '’' || r == 'ʼ' || r == '‘':
			r = '\''
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		switch r {
		case 'œ', 'Œ':
			b.WriteString("oe")
		case 'æ', 'Æ':
			b.WriteString("ae")
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// inDomain: the scripts Fold normalises rune by rune (Latin, Greek,
// Cyrillic, Latin Extended Additional), spaces and apostrophes. Outside
// them Fold lowers case only, on purpose (speed), and may differ from a
// full NFD.
func inDomain(s string) bool {
	for _, r := range s {
		if !(r < 0x530 || r >= 0x1E00 && r < 0x2000 || unicode.IsSpace(r) || r == '’' || r == '‘' || r == 'ʼ') {
			return false
		}
	}
	return true
}

func checkFold(t *testing.T, s string) {
	t.Helper()
	got := Fold(s)
	if inDomain(s) {
		if want := reference(s); got != want {
			t.Fatalf("Fold(%q) = %q, reference %q", s, got, want)
		}
	}
	if again := Fold(got); again != got {
		t.Fatalf("Fold not idempotent: %q -> %q -> %q", s, got, again)
	}
	if strings.HasPrefix(got, " ") || strings.HasSuffix(got, " ") || strings.Contains(got, "  ") {
		t.Fatalf("Fold(%q) = %q: spaces left", s, got)
	}
	for _, r := range got {
		if 'A' <= r && r <= 'Z' || unicode.Is(unicode.Mn, r) || r != ' ' && unicode.IsSpace(r) {
			t.Fatalf("Fold(%q) = %q holds %q", s, got, r)
		}
	}
}

var seeds = []string{"", " ", "Février", "fe\u0301vrier", "FÉVRIER", "Aujourd’hui", "NŒUD", "nœud", "Æther",
	"  20\u00a0octobre\t2026  ", "ǅemal", "Ὀδυσσεύς", "ЁЖИК", "Ḱṓṧ", "\u0301", "ß", "İstanbul", "Å", "한국어"}

// TestFoldMatchesReference compares Fold with the full normalisation
// over generated strings of the scripts it normalises, and checks its
// properties on everything else.
func TestFoldMatchesReference(t *testing.T) {
	for _, s := range seeds {
		checkFold(t, s)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune(" \t\u00a0\u2009'’‘ʼ.-/0123456789AZaz")
	for r := rune(0xA0); r < 0x530; r++ {
		alphabet = append(alphabet, r)
	}
	for r := rune(0x1E00); r < 0x2000; r++ {
		alphabet = append(alphabet, r)
	}
	for r := rune(0x300); r < 0x370; r++ {
		alphabet = append(alphabet, r) // combining marks, after any letter
	}
	for i := 0; i < 20000; i++ {
		rs := make([]rune, rng.IntN(12))
		for j := range rs {
			rs[j] = alphabet[rng.IntN(len(alphabet))]
		}
		checkFold(t, string(rs))
	}
}

func FuzzFold(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(checkFold)
}
