package checklist

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// unsafeRune reports the characters no report writes raw: C0 controls,
// DEL, C1 controls (CSI U+009B among them), the line and paragraph
// separators, and every format character (Unicode category Cf). The
// controls drive a terminal or forge a line; Cf holds the bidirectional
// controls, which reorder what a person sees ("rendu\u202eexe.md" shows
// as "rendudm.exe"), and the invisible ones (U+200B, U+FEFF, the tags…),
// which make one name look like another. Each format writes them in a
// form that cannot act on a display: Escape's octal bytes in texte,
// github and csv; "\u202e" in json and sarif, "&#x202E;" in junit (both
// decode to the same string); a visible marker in html (shownParts).
func unsafeRune(r rune) bool {
	if r < utf8.RuneSelf { // most of any report: no table to search
		return r < 0x20 || r == 0x7f
	}
	return r <= 0x9f || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r)
}

// Escape makes a string from outside pret (a file's content, a file
// name, a key comment) safe to print on a terminal line: nothing in it
// can move the cursor, change colours, reverse the reading order or
// start a line that looks like one of ours ("Résumé : 99 fichiers").
// The form is ssh-keygen's for a key comment (vis(3) with VIS_OCTAL):
// each byte of an unsafe character or of invalid UTF-8 becomes "\ooo",
// "\033" for ESC; line breaks and tabs are "\n", "\r" and "\t". The
// result is valid UTF-8 and Escape(Escape(s)) == Escape(s).
func Escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n', r == '\r', r == '\t':
			b.WriteString(strconv.QuoteRune(r)[1:3]) // '\n': C's form
		case r == utf8.RuneError && n == 1, unsafeRune(r):
			for _, c := range []byte(s[i : i+n]) {
				fmt.Fprintf(&b, `\%03o`, c)
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// XMLText is a string from a file as the JUnit and HTML reports carry
// it: each byte that is not valid UTF-8 and each character XML 1.0
// forbids (C0 controls but tab, line feed and carriage return; U+FFFE,
// U+FFFF) replaced by U+FFFD, as encoding/xml writes it.
func XMLText(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 {
			return r
		}
		return utf8.RuneError
	}, s)
}

// encoderLeaves reports the unsafe characters encoding/json and
// encoding/xml write raw: not the C0 controls, which both escape or
// replace (and the documents' own line breaks must stay).
func encoderLeaves(r rune) bool { return r >= 0x20 && unsafeRune(r) }

// jsonEscape is a JSON string escape: two UTF-16 escapes past U+FFFF.
func jsonEscape(r rune) (s string) {
	for _, u := range utf16.Encode([]rune{r}) {
		s += fmt.Sprintf(`\u%04x`, u)
	}
	return s
}

// xmlEscape is an XML character reference.
func xmlEscape(r rune) string { return fmt.Sprintf("&#x%X;", r) }

// escapeEncoded replaces by esc each character of encoded JSON or XML
// that encoderLeaves reports: there it can only stand inside a string
// (keys and tags are pret's), where both escapes are valid.
func escapeEncoded(p []byte, esc func(rune) string) []byte {
	var out []byte // p[:done] escaped
	done := 0
	for i := 0; i < len(p); {
		if p[i] < 0x7f { // ASCII but DEL: the encoders escape the C0 controls
			i++
			continue
		}
		r, n := utf8.DecodeRune(p[i:]) // an invalid byte decodes to U+FFFD, kept
		if encoderLeaves(r) {
			out = append(append(out, p[done:i]...), esc(r)...)
			done = i + n
		}
		i += n
	}
	if done == 0 { // nothing escaped
		return p
	}
	return append(out, p[done:]...)
}

// escapingWriter passes bytes on through escapeEncoded, holding a
// character cut between two writes back until the next one.
type escapingWriter struct {
	w     io.Writer
	esc   func(rune) string
	carry []byte
}

func (e *escapingWriter) Write(p []byte) (int, error) {
	data := p
	if len(e.carry) > 0 {
		data = append(e.carry, p...)
	}
	end := len(data)
	for i := max(0, len(data)-utf8.UTFMax+1); i < len(data); i++ {
		if utf8.RuneStart(data[i]) && !utf8.FullRune(data[i:]) {
			end = i
			break
		}
	}
	e.carry = append([]byte{}, data[end:]...)
	if _, err := e.w.Write(escapeEncoded(data[:end], e.esc)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// writeEscaped runs write over an escaping writer, buffered, then
// writes the bytes held back: no character to escape.
func writeEscaped(w io.Writer, esc func(rune) string, write func(io.Writer) error) error {
	bw := bufio.NewWriter(w)
	e := &escapingWriter{w: bw, esc: esc}
	if err := write(e); err != nil {
		return err
	}
	bw.Write(e.carry) // an error stays for Flush
	return bw.Flush()
}

// shownPart is, on the HTML page, a run of text or one unsafe character
// shown as a marker: Control "U+202E", Name its tooltip.
type shownPart struct{ Text, Control, Name string }

var bidiNames = map[rune]string{0x061c: "ALM, marque de lettre arabe", 0x200e: "LRM, marque gauche-à-droite", 0x200f: "RLM, marque droite-à-gauche",
	0x202a: "LRE, enchâssement gauche-à-droite", 0x202b: "RLE, enchâssement droite-à-gauche", 0x202c: "PDF, fin de formatage directionnel",
	0x202d: "LRO, forçage gauche-à-droite", 0x202e: "RLO, forçage droite-à-gauche", 0x2066: "LRI, isolat gauche-à-droite",
	0x2067: "RLI, isolat droite-à-gauche", 0x2068: "FSI, isolat à direction du premier fort", 0x2069: "PDI, fin d'isolat directionnel"}

// shownParts splits a string for the HTML page: the unsafe characters
// but tab and line feed, which a browser draws as nothing, a box or a
// break, or applies, become markers (a span the template writes).
func shownParts(s string) []shownPart {
	var parts []shownPart
	start := 0
	for i, r := range s {
		if !unsafeRune(r) || r == '\t' || r == '\n' {
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
		parts = append(parts, shownPart{Control: codePoint(r), Name: name + " : montré, pas appliqué"})
		start = i + utf8.RuneLen(r)
	}
	if start < len(s) {
		parts = append(parts, shownPart{Text: s[start:]})
	}
	return parts
}

// codePoint is the code point as Unicode writes it: "U+202E".
func codePoint(r rune) string { return fmt.Sprintf("U+%04X", r) }
