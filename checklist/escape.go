package checklist

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/termtext"
)

// XMLText: U+FFFD for invalid UTF-8 and what XML 1.0 forbids, as encoding/xml.
func XMLText(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 {
			return r
		}
		return utf8.RuneError
	}, s)
}

// jsonEscape: two UTF-16 escapes past U+FFFF.
func jsonEscape(r rune) (s string) {
	for _, u := range utf16.Encode([]rune{r}) {
		s += fmt.Sprintf(`\u%04x`, u)
	}
	return s
}

func xmlEscape(r rune) string { return fmt.Sprintf("&#x%X;", r) }

// escapeEncoded: encoding/json and xml write these raw, only inside strings.
// p holds whole runes: what an encoder wrote up to a value's end.
func escapeEncoded(p []byte, esc func(rune) string) []byte {
	var out []byte
	done := 0
	for i := 0; i < len(p); {
		if p[i] < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(p[i:])
		if termtext.Unsafe(r) {
			out = append(append(out, p[done:i]...), esc(r)...)
			done = i + n
		}
		i += n
	}
	return append(out, p[done:]...)
}

// shownPart is a run of text or a marker: Control "U+202E", Name its tooltip.
type shownPart struct{ Text, Control, Name string }

var bidiNames = map[rune]string{0x061c: "ALM, marque de lettre arabe", 0x200e: "LRM, marque gauche-à-droite", 0x200f: "RLM, marque droite-à-gauche",
	0x202a: "LRE, enchâssement gauche-à-droite", 0x202b: "RLE, enchâssement droite-à-gauche", 0x202c: "PDF, fin de formatage directionnel",
	0x202d: "LRO, forçage gauche-à-droite", 0x202e: "RLO, forçage droite-à-gauche", 0x2066: "LRI, isolat gauche-à-droite",
	0x2067: "RLI, isolat droite-à-gauche", 0x2068: "FSI, isolat à direction du premier fort", 0x2069: "PDI, fin d'isolat directionnel"}

// shownParts makes markers of unsafe runes but tab and LF, which a browser would apply.
func shownParts(s string) []shownPart {
	var parts []shownPart
	start := 0
	for i, r := range s {
		if !termtext.Unsafe(r) || r == '\t' || r == '\n' {
			continue
		}
		if start < i {
			parts = append(parts, shownPart{Text: s[start:i]})
		}
		name := "caractère invisible de mise en forme"
		if bidiNames[r] != "" {
			name = "caractère de contrôle bidirectionnel " + bidiNames[r]
		} else if !unicode.Is(unicode.Cf, r) {
			name = "caractère de contrôle"
		}
		parts = append(parts, shownPart{Control: fmt.Sprintf("U+%04X", r), Name: name + " : montré, pas appliqué"})
		start = i + utf8.RuneLen(r)
	}
	if start < len(s) {
		parts = append(parts, shownPart{Text: s[start:]})
	}
	return parts
}
