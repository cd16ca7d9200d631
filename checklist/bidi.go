package checklist

import (
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// The bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
// U+2066–U+2069) reorder what a person sees around them: a file named
// "rendu\u202eexe.md" shows as "rendudm.exe". None may reach a report raw
// ("trojan source"); each format writes them in the form it has that
// cannot act on a display and, where the format can, loses nothing:
//
//   - json and sarif: the escape "\u202e", which decodes to the same
//     string (encoding/json writes these characters raw);
//   - junit: the character reference "&#x202E;", which an XML parser
//     reads back as the same string (encoding/xml writes them raw);
//     json, sarif and junit write the C1 controls (U+0080–U+009F, CSI
//     among them) the same way, since both encoders leave them raw too
//     and a report printed on a terminal must not drive it;
//   - html: a visible marker, the code point in a styled span (bidiParts);
//   - texte, github and csv: Escape's octal form, the same everywhere a
//     person reads a line, since neither a terminal nor a spreadsheet
//     decodes any escape.
//
// The json and junit forms are applied to the encoded bytes: there, a
// bidi control can only stand inside a string (keys and tags are pret's),
// where both escapes are valid.
//
// Every other format character (Unicode category Cf: U+200B, U+200D,
// U+2060, U+FEFF, U+00AD, the tags U+E0000–U+E007F, …) goes the same way
// in every format: invisible, it makes one name look like another, and
// the tags can carry hidden text. json and sarif write a character past
// U+FFFF as its two UTF-16 escapes, as JSON requires.

// isBidi reports the bidirectional controls.
func isBidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// isFormat reports the characters every report writes in a form that
// cannot act on a display: the bidi controls and every other format
// character (Cf).
func isFormat(r rune) bool { return r >= 0xad && (isBidi(r) || unicode.Is(unicode.Cf, r)) }

// escaped reports what json and junit write as an escape: DEL, the C1
// controls and the line and paragraph separators, which encoding/json
// or encoding/xml leave raw, and the format characters.
func escaped(r rune) bool {
	return r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 || isFormat(r)
}

// bidiAt reports the character escaped says whose UTF-8 encoding starts
// p[i:], and its length; 0 when there is none. Only a whole,
// well-formed sequence ever matches, in valid or invalid UTF-8.
func bidiAt(p []byte, i int) (rune, int) {
	r, n := utf8.DecodeRune(p[i:])
	if r == utf8.RuneError && n <= 1 || !escaped(r) {
		return 0, 0
	}
	return r, n
}

// hasBidi reports whether p holds a character escaped says.
func hasBidi(p []byte) bool {
	for i := 0; i < len(p); i++ {
		if _, n := bidiAt(p, i); n > 0 {
			return true
		}
	}
	return false
}

// appendNoBidi appends p to dst with each such character written by esc.
func appendNoBidi(dst, p []byte, esc func([]byte, rune) []byte) []byte {
	start := 0
	for i := 0; i < len(p); i++ {
		r, n := bidiAt(p, i)
		if n == 0 {
			continue
		}
		dst = append(dst, p[start:i]...)
		dst = esc(dst, r)
		i += n - 1
		start = i + 1
	}
	return append(dst, p[start:]...)
}

// jsonBidi writes a control or format character as a JSON string
// escape: two UTF-16 escapes past U+FFFF.
func jsonBidi(dst []byte, r rune) []byte {
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		return jsonBidi(jsonBidi(dst, hi), lo)
	}
	dst = append(dst, `\u`...)
	h := strconv.FormatInt(int64(r), 16)
	for range 4 - len(h) {
		dst = append(dst, '0')
	}
	return append(dst, h...)
}

// xmlBidi writes a bidi control as an XML character reference.
func xmlBidi(dst []byte, r rune) []byte {
	dst = append(dst, "&#x"...)
	dst = append(dst, strings.ToUpper(strconv.FormatInt(int64(r), 16))...)
	return append(dst, ';')
}

// noBidiWriter passes bytes on with each bidi control written by esc. A
// control cut between two writes is held back until the next one, so
// the writer can sit under any encoder; Flush writes what is held.
type noBidiWriter struct {
	w     io.Writer
	esc   func([]byte, rune) []byte
	carry []byte
	buf   []byte
}

func (b *noBidiWriter) Write(p []byte) (int, error) {
	data := p
	if len(b.carry) > 0 {
		data = append(b.carry[:len(b.carry):len(b.carry)], p...)
		b.carry = b.carry[:0]
	}
	// Hold back an unfinished sequence at the end: it may be the start
	// of a control, completed by the next write.
	keep := 0
	for k := 1; k <= 3 && k <= len(data); k++ {
		if c := data[len(data)-k]; c >= 0xc0 {
			if !utf8.FullRune(data[len(data)-k:]) {
				keep = k
			}
			break
		}
	}
	b.carry = append(b.carry, data[len(data)-keep:]...)
	data = data[:len(data)-keep]
	out := data
	if hasBidi(data) {
		b.buf = appendNoBidi(b.buf[:0], data, b.esc)
		out = b.buf
	}
	if _, err := b.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the bytes held back, which were no control.
func (b *noBidiWriter) Flush() error {
	if len(b.carry) == 0 {
		return nil
	}
	_, err := b.w.Write(b.carry)
	b.carry = b.carry[:0]
	return err
}

// bidiPart is a run of text, or one bidi control shown as a marker.
type bidiPart struct {
	Text string
	// Control is the marker: the code point, "U+202E".
	Control string
	// Name is what the marker's tooltip says: the control's name.
	Name string
}

var bidiNames = map[rune]string{
	0x061c: "ALM, marque de lettre arabe",
	0x200e: "LRM, marque gauche-à-droite",
	0x200f: "RLM, marque droite-à-gauche",
	0x202a: "LRE, enchâssement gauche-à-droite",
	0x202b: "RLE, enchâssement droite-à-gauche",
	0x202c: "PDF, fin de formatage directionnel",
	0x202d: "LRO, forçage gauche-à-droite",
	0x202e: "RLO, forçage droite-à-gauche",
	0x2066: "LRI, isolat gauche-à-droite",
	0x2067: "RLI, isolat droite-à-gauche",
	0x2068: "FSI, isolat à direction du premier fort",
	0x2069: "PDI, fin d'isolat directionnel",
}

// bidiParts splits a string for the HTML page: the controls become
// markers the page shows (a span the template writes, its text escaped
// as any other), everything else stays text.
func bidiParts(s string) []bidiPart {
	var parts []bidiPart
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if isFormat(r) || isControl(r) {
			if start < i {
				parts = append(parts, bidiPart{Text: s[start:i]})
			}
			name := "caractère invisible de mise en forme : montré, pas appliqué"
			switch {
			case isBidi(r):
				name = "caractère de contrôle bidirectionnel " + bidiNames[r] + " : montré, pas appliqué"
			case isControl(r):
				name = "caractère de contrôle : montré, pas appliqué"
			}
			parts = append(parts, bidiPart{Control: bidiMarker(r), Name: name})
			start = i + size
		}
		i += size
	}
	if start < len(s) {
		parts = append(parts, bidiPart{Text: s[start:]})
	}
	return parts
}

// isControl is a C0 control but the tab and the line feed a text may
// hold (a lone CR included), DEL, a C1 control (U+0085, CSI U+009B…), or
// the line and paragraph separators: a browser draws them as nothing, a
// box or a break, and the page shows them as markers instead.
func isControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029
}

// bidiMarker is the code point as Unicode writes it: "U+202E".
func bidiMarker(r rune) string {
	h := strings.ToUpper(strconv.FormatInt(int64(r), 16))
	return "U+" + strings.Repeat("0", max(0, 4-len(h))) + h
}

// bidiText is the marker form for a place that holds only text (the
// page's title): "[U+202E]".
func bidiText(s string) string {
	var b strings.Builder
	for _, p := range bidiParts(s) {
		if p.Control != "" {
			b.WriteString("[" + p.Control + "]")
		} else {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// withoutBidi runs write on a writer that passes its bytes on to w with
// each bidi control written by esc.
func withoutBidi(w io.Writer, esc func([]byte, rune) []byte, write func(io.Writer) error) error {
	nb := &noBidiWriter{w: w, esc: esc}
	if err := write(nb); err != nil {
		return err
	}
	return nb.Flush()
}
