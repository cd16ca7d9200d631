package termtext_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/internal/termtext/termtexttest"
)

func checkEscaped(t *testing.T, s string) {
	t.Helper()
	e := termtext.Escape(s)
	if bad, ok := termtexttest.Safe(e); !ok {
		t.Fatalf("termtext.Escape(%q) = %q still holds %q", s, e, bad)
	}
	if termtext.Escape(e) != e {
		t.Fatalf("Escape is not idempotent on %q: %q then %q", s, e, termtext.Escape(e))
	}
	if _, ok := termtexttest.Safe(s); ok && e != s {
		t.Fatalf("Escape changed a printable string %q into %q", s, e)
	}
}

func TestEscapeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		checkEscaped(t, termtexttest.String(rng))
	}
	// Every single byte, alone and around text.
	for c := 0; c < 256; c++ {
		checkEscaped(t, string([]byte{byte(c)}))
		checkEscaped(t, "x"+string([]byte{byte(c)})+"y")
	}
}

func TestEscapeForms(t *testing.T) {
	for in, want := range map[string]string{
		"plain":            "plain",
		"clé œuvre 日本":     "clé œuvre 日本",
		"a\x1b[31mb":       `a\033[31mb`,
		"a\nb\r\tc":        `a\nb\r\tc`,
		"\x00\x7f":         `\000\177`,
		"\u009b":           `\302\233`,
		"\u202eevil":       `\342\200\256evil`,
		"\xff":             `\377`,
		`back\slash`:       `back\slash`,
		"\u2066x\u2069":    `\342\201\246x\342\201\251`,
		"ligne\u2028autre": `ligne\342\200\250autre`,
		"acces\u200b.md":   `acces\342\200\213.md`,
		"\ufeffx":          `\357\273\277x`,
		"co\u00adde":       `co\302\255de`,
		"\U000e0041":       `\363\240\201\201`,
	} {
		if got := termtext.Escape(in); got != want {
			t.Errorf("termtext.Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzEscape(f *testing.F) {
	for _, p := range termtexttest.Pieces {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, s string) { checkEscaped(t, s) })
}

// TestEscapeEveryFormatCharacter: every code point of Unicode's category
// Cf, alone and between letters, comes out of Escape as octal bytes.
func TestEscapeEveryFormatCharacter(t *testing.T) {
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !unicode.Is(unicode.Cf, r) {
			continue
		}
		if e := termtext.Escape("a" + string(r) + "b"); strings.ContainsRune(e, r) || !strings.HasPrefix(e, `a\`) {
			t.Fatalf("U+%04X kept: %q", r, e)
		}
		checkEscaped(t, string(r))
		n++
	}
	if n < 150 {
		t.Fatalf("only %d format characters", n)
	}
}

// TestInvisibleIsDefaultIgnorable: Invisible is Unicode's format
// characters, variation selectors and other default ignorables, every
// code point checked against Go's tables (its shortcut below U+034F too).
func TestInvisibleIsDefaultIgnorable(t *testing.T) {
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
		if termtext.Invisible(r) != want {
			t.Fatalf("Invisible(U+%04X) = %v", r, !want)
		}
		if want {
			n++
		}
	}
	if n < 4000 {
		t.Fatalf("only %d invisible code points", n)
	}
}
