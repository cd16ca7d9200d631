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

// checkMatchesSlow: Fold, AppendFold (after a prefix already in the
// buffer) and AppendFoldBytes give what the old Fold gave, for any
// bytes.
func checkMatchesSlow(t *testing.T, s string) {
	t.Helper()
	want := slowFold(s)
	if got := Fold(s); got != want {
		t.Fatalf("Fold(%q) = %q, was %q", s, got, want)
	}
	if got := string(AppendFold([]byte("x "), s)); got != "x "+want {
		t.Fatalf("AppendFold(%q) = %q, was %q", s, got, "x "+want)
	}
	if got := string(AppendFoldBytes(nil, []byte(s))); got != want {
		t.Fatalf("AppendFoldBytes(%q) = %q, was %q", s, got, want)
	}
}

// TestFoldMatchesSlow: generated strings of every kind of rune Fold
// treats apart (ASCII spaces and capitals, Latin table, combining marks,
// apostrophes, Greek and Cyrillic, other scripts, other spaces, bytes
// that are not UTF-8), short and past the stack buffer.
func TestFoldMatchesSlow(t *testing.T) {
	for _, s := range seeds {
		checkMatchesSlow(t, s)
	}
	pieces := []string{" ", "  ", "\t", "\r\n", "\v", "\f", "\u0085", "\u00a0", "\u2009", "\u3000", "a", "Z", "Connexion", "NŒUD", "nœud", "ne\u0301", "\u0301", "é", "É", "Æ", "ǽ", "Ǆ", "ß", "ẞ",
		"’", "‘", "ʼ", "'", "Ὀ", "ΐ", "\u0385", "\u1fed", "Ё", "Ḱ", "İ", "한", "٣", "ǅ", "\xff", "\xc3", "\xe2\x80", "\xf0\x9f", "😀", "-", ".", "@", "0", "\x00", "\x7f", "\u024f", "\u0250"}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200_000; i++ {
		var b strings.Builder
		n := rng.IntN(12)
		if i%50 == 0 {
			n = 100 + rng.IntN(200) // past Fold's stack buffer
		}
		for range n {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		checkMatchesSlow(t, b.String())
	}
	for r := rune(0); r < 0x3000; r++ {
		checkMatchesSlow(t, "A "+string(r)+" b")
	}
}

func FuzzFoldMatchesSlow(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Add("Connexion uniquement vers le N\u0153ud de login \xff")
	f.Fuzz(checkMatchesSlow)
}

// TestFoldASCIIWordsMatchSlow: ASCII text of every length and
// alignment (the eight-byte steps), spaces single, doubled, first and
// last, capitals, control bytes, DEL, and a rune now and then.
func TestFoldASCIIWordsMatchSlow(t *testing.T) {
	alphabet := []string{" ", " ", " ", "a", "b", "z", "A", "Z", "@", "[", "`", "{", "0", "-", ".", "'", "\t", "\n", "\r", "\x00", "\x1f", "\x7f", "!", "é", "\u00a0", "É"}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 300_000; i++ {
		var b strings.Builder
		n := rng.IntN(40)
		for range n {
			k := rng.IntN(len(alphabet))
			if i%3 == 0 && k > 20 {
				k = rng.IntN(8) // most lines: plain ASCII words
			}
			b.WriteString(alphabet[k])
		}
		checkMatchesSlow(t, b.String())
	}
	// Every byte at every place of an eight-byte step.
	for c := 0; c < 0x80; c++ {
		for at := 0; at < 17; at++ {
			s := []byte("abcdefgh ijklmnop qr")
			s[at] = byte(c)
			checkMatchesSlow(t, string(s))
			checkMatchesSlow(t, " "+string(s)+" ")
		}
	}
}
