package textfold

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// TestFoldVectors: what Fold writes for the spellings readers compare.
func TestFoldVectors(t *testing.T) {
	for in, want := range map[string]string{
		"":                             "",
		"   ":                          "",
		"Février":                      "fevrier",
		"fe\u0301vrier":                "fevrier",
		"FÉVRIER":                      "fevrier",
		"Aujourd’hui":                  "aujourd'hui",
		"aujourdʼhui":                  "aujourd'hui",
		"‘x":                           "'x",
		"NŒUD":                         "noeud",
		"nœud":                         "noeud",
		"Æther":                        "aether",
		"ǽ":                            "ae",
		"  20\u00a0octobre\t2026  ":    "20 octobre 2026",
		"a\u202fb\u3000c\r\nd":         "a b c d",
		"Å":                            "a",
		"å":                            "a",
		"\u212b":                       "a", // ANGSTROM SIGN, dropped by the old fold
		"10 \u212bngstr\u00f6m":        "10 angstrom",
		"\u212a":                       "k", // KELVIN SIGN
		"İstanbul":                     "istanbul",
		"ß":                            "ß",
		"Ὀδυσσεύς":                     "οδυσσευς",
		"ЁЖИК":                         "ежик",
		"Ḱṓṧ":                          "kos",
		"\u0301":                       "",
		"Connexion uniquement":         "connexion uniquement",
		"id_ed25519_romeo.pub":         "id_ed25519_romeo.pub",
		"C:\\Users\\Kim\\.ssh":         "c:\\users\\kim\\.ssh",
		"n\xffud":                      "n\ufffdud",
		"Vérification du Compte : OK.": "verification du compte : ok.",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

// checkFold asserts Fold's properties on one string.
func checkFold(t *testing.T, s string) {
	t.Helper()
	got := Fold(s)
	if again := Fold(got); again != got {
		t.Fatalf("Fold not idempotent: %q -> %q -> %q", s, got, again)
	}
	// The same words however they are normalised.
	for _, form := range []norm.Form{norm.NFC, norm.NFD} {
		if other := Fold(form.String(s)); other != got {
			t.Fatalf("Fold(%q) = %q, but Fold of its %v form = %q", s, got, form, other)
		}
	}
	if !utf8.ValidString(got) {
		t.Fatalf("Fold(%q) = %q: not UTF-8", s, got)
	}
	if strings.HasPrefix(got, " ") || strings.HasSuffix(got, " ") || strings.Contains(got, "  ") {
		t.Fatalf("Fold(%q) = %q: spaces left", s, got)
	}
	for _, r := range got {
		if unicode.IsUpper(r) && unicode.ToLower(r) != r || unicode.Is(unicode.Mn, r) || r != ' ' && unicode.IsSpace(r) || r == '’' {
			t.Fatalf("Fold(%q) = %q holds %q", s, got, r)
		}
	}
	// Length bounds: no rune becomes more than three (a Hangul syllable
	// into its letters), and printable ASCII is never longer.
	if utf8.RuneCountInString(got) > 3*utf8.RuneCountInString(s) {
		t.Fatalf("Fold(%q) = %q: too long", s, got)
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		ascii = ascii && s[i] < utf8.RuneSelf
	}
	if ascii && len(got) > len(s) {
		t.Fatalf("Fold(%q) = %q: longer than its ASCII input", s, got)
	}
	// Space is where words end: folding word by word is folding the whole.
	var words []string
	for _, w := range strings.Fields(s) {
		if f := Fold(w); f != "" {
			words = append(words, f)
		}
	}
	if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) && r >= utf8.RuneSelf && r != '\u0085' && r != '\u00a0' }) {
		if joined := strings.Join(words, " "); joined != got {
			t.Fatalf("Fold(%q) = %q, word by word %q", s, got, joined)
		}
	}
}

var seeds = []string{"", " ", "Février", "fe\u0301vrier", "FÉVRIER", "Aujourd’hui", "NŒUD", "nœud", "Æther",
	"  20\u00a0octobre\t2026  ", "ǅemal", "Ὀδυσσεύς", "ЁЖИК", "Ḱṓṧ", "\u0301", "ß", "İstanbul", "Å", "\u212b", "한국어", "\xff"}

// TestFoldProperties checks the properties over generated strings of
// every kind of rune Fold treats apart.
func TestFoldProperties(t *testing.T) {
	for _, s := range seeds {
		checkFold(t, s)
	}
	pieces := []string{" ", "  ", "\t", "\r\n", "\u00a0", "\u2009", "\u3000", "a", "Z", "Connexion", "NŒUD", "nœud",
		"ne\u0301", "\u0301", "\u0327", "é", "É", "Æ", "ǽ", "Ǆ", "ß", "ẞ", "’", "‘", "ʼ", "'", "Ὀ", "ΐ", "Ё", "Ḱ",
		"İ", "\u212b", "\u212a", "한", "٣", "\xff", "\xc3", "😀", "-", ".", "0"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		checkFold(t, b.String())
	}
	for r := rune(0); r < 0x3000; r++ {
		checkFold(t, "A "+string(r)+" b")
	}
}

func FuzzFold(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(checkFold)
}

func TestTokens(t *testing.T) {
	text := "Le 20/10/2026, l’Accès  «ok» / x/ id_ed25519_romeo.pub oct. avant-hier 20.10 fin.Non a/b"
	var got []string
	for _, tk := range Tokens(text) {
		got = append(got, tk.Folded+"@"+text[tk.Start:tk.End])
	}
	for _, s := range append(seeds, text) { // folded into one string, word by word as Fold does
		for _, tk := range Tokens(s) {
			if tk.Folded != Fold(s[tk.Start:tk.End]) {
				t.Errorf("Tokens(%q): %q folded %q, Fold says %q", s, s[tk.Start:tk.End], tk.Folded, Fold(s[tk.Start:tk.End]))
			}
		}
	}
	want := "le@Le 20/10/2026@20/10/2026 ,@, l'acces@l’Accès «@« ok@ok »@» /@/ x@x /@/ id_ed25519_romeo@id_ed25519_romeo .@. pub@pub oct@oct .@. avant-hier@avant-hier 20.10@20.10 fin@fin .@. non@Non a@a /@/ b@b"
	if strings.Join(got, " ") != want {
		t.Errorf("Tokens(%q) =\n%s\nwant\n%s", text, strings.Join(got, " "), want)
	}
}

func BenchmarkFold(b *testing.B) {
	lines := []string{"Date de la demande du compte d'accès : 2026-10-20", "Connexion uniquement vers le nœud de login indiqué par les organisateurs.", "chemin", "Empreinte SHA256:abc (ED25519)"}
	for i := 0; i < b.N; i++ {
		Fold(lines[i%len(lines)])
	}
}
