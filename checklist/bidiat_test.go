package checklist

import (
	"strings"
	"testing"
)

// BenchmarkHasBidiFrench is the writers' scan over French text full of
// the bytes that start a format character (’ « » —), none of them one.
func BenchmarkHasBidiFrench(b *testing.B) {
	p := []byte(strings.Repeat("L’apprenant a envoyé « acces.md » : clé vérifiée, nœud — ok. ", 20000))
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		if hasBidi(p) {
			b.Fatal()
		}
	}
}

// TestBidiAtAgreesWithDecode: the byte checks of bidiAt find exactly
// DEL, the C1 controls, the line and paragraph separators and the format
// characters, over every code point.
func TestBidiAtAgreesWithDecode(t *testing.T) {
	if r, n := bidiAt([]byte{0x7f}, 0); r != 0x7f || n != 1 {
		t.Fatalf("DEL: %v %d", r, n)
	}
	for r := rune(0x80); r <= 0x10ffff; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		p := []byte(string(r))
		got, n := bidiAt(p, 0)
		want := r <= 0x9f || r == 0x2028 || r == 0x2029 || isFormat(r)
		if (n > 0) != want || n > 0 && got != r {
			t.Fatalf("U+%04X: %v %d", r, got, n)
		}
	}
}
