package keytest

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"strings"

	"golang.org/x/text/encoding/unicode"
)

// File is f's key file as the tool that made it writes it: PEM armour in
// lines of 64 (70 for OpenSSH), or PuTTY's, LF line ends.
func (f Form) File() string {
	width := 64
	if f.typ == "OPENSSH PRIVATE KEY" {
		width = 70
	}
	m := Mutation{width: width, space: " ", eol: "\n"}
	block, _ := m.render(f, mrand.New(mrand.NewPCG(1, 2)))
	return strings.Join(block, "\n") + "\n"
}

// Encoding is a way a text's characters become a file's bytes.
type Encoding struct {
	Name   string
	Encode func(string) []byte
	// Holds reports whether a character survives the encoding (Latin-1
	// has no U+200B: an editor writes '?').
	Holds func(rune) bool
}

func anyRune(rune) bool  { return true }
func latin1(r rune) bool { return r <= 0xff }

// utf16Bytes is s in UTF-16, big or little endian, with a BOM or not.
func utf16Bytes(s string, big, bom bool) []byte {
	order, policy := unicode.LittleEndian, unicode.IgnoreBOM
	if big {
		order = unicode.BigEndian
	}
	if bom {
		policy = unicode.UseBOM
	}
	out, _ := unicode.UTF16(order, policy).NewEncoder().String(s) // UTF-8 in, never fails
	return []byte(out)
}

// Encodings are how a text reaches a file on a learner's machine: UTF-8
// with or without BOM, UTF-16 of PowerShell 5.1 (">" and ">>" write
// little endian with a BOM) and of other tools, Latin-1 (Notepad's
// "ANSI"), and a file that switches: a UTF-8 page, then the text appended
// in UTF-16 (">>" onto a UTF-8 file), at an even or an odd offset.
var Encodings = []Encoding{
	{"utf-8", func(s string) []byte { return []byte(s) }, anyRune},
	{"utf-8 bom", func(s string) []byte { return []byte("\ufeff" + s) }, anyRune},
	{"utf-16le", func(s string) []byte { return utf16Bytes(s, false, false) }, anyRune},
	{"utf-16le bom", func(s string) []byte { return utf16Bytes(s, false, true) }, anyRune},
	{"utf-16be", func(s string) []byte { return utf16Bytes(s, true, false) }, anyRune},
	{"utf-16be bom", func(s string) []byte { return utf16Bytes(s, true, true) }, anyRune},
	{"latin-1", func(s string) []byte {
		var out []byte
		for _, r := range s {
			if !latin1(r) {
				r = '?'
			}
			out = append(out, byte(r))
		}
		return out
	}, latin1},
	{"utf-8 puis utf-16le", func(s string) []byte {
		return append([]byte("# Accès\n\nDate de la demande : 2026-10-20\n"), utf16Bytes(s, false, false)...)
	}, anyRune},
	{"utf-8 impair puis utf-16le bom", func(s string) []byte {
		return append([]byte("# Accès\n\nDate : 2026-10-20\n"), utf16Bytes(s, false, true)...)
	}, anyRune},
	{"utf-8 puis utf-16be", func(s string) []byte {
		return append([]byte("Date : 20/10/2026\n"), utf16Bytes(s, true, false)...)
	}, anyRune},
}

// Invisible are the characters chat tools and editors put inside a text
// where nobody sees them: zero width space, word joiner, soft hyphen,
// zero width no-break space (a BOM).
var Invisible = []rune{'\u200b', '\u2060', '\u00ad', '\ufeff', '\u034f', '\u115f', '\u3164', '\ufe0f', '\uffa0', '\U000e0100'}

// Sprinkle puts one of chars (those holds keeps) after every every
// characters of s, line breaks left alone.
func Sprinkle(s string, chars []rune, every int, holds func(rune) bool, rng *mrand.Rand) string {
	var kept []rune
	for _, r := range chars {
		if holds(r) {
			kept = append(kept, r)
		}
	}
	if len(kept) == 0 || every <= 0 {
		return s
	}
	var b strings.Builder
	n := 0
	for _, r := range s {
		b.WriteRune(r)
		if r == '\r' || r == '\n' {
			continue
		}
		if n++; n%every == 0 {
			b.WriteRune(kept[rng.IntN(len(kept))])
		}
	}
	return b.String()
}

// WithInvisible is c with chars sprinkled every every characters of the
// key block's lines, the rest as it was.
func (c Case) WithInvisible(chars []rune, every int, holds func(rune) bool, rng *mrand.Rand) Case {
	c.Lines = append([]string(nil), c.Lines...)
	for i := c.First - 1; i < c.Last; i++ {
		c.Lines[i] = Sprinkle(c.Lines[i], chars, every, holds, rng)
	}
	c.Text = strings.Join(c.Lines, c.Mut.eol) + c.Mut.eol
	return c
}

// XXD is data as "xxd" writes it: offset, 16 bytes in groups of two, the
// characters ('.' for others).
func XXD(data []byte) string {
	var b strings.Builder
	for off := 0; off < len(data); off += 16 {
		row := data[off:min(off+16, len(data))]
		fmt.Fprintf(&b, "%08x: ", off)
		for i := range 16 {
			switch {
			case i < len(row):
				fmt.Fprintf(&b, "%02x", row[i])
			default:
				b.WriteString("  ")
			}
			if i%2 == 1 && i < 15 {
				b.WriteByte(' ')
			}
		}
		b.WriteString("  " + printable(row) + "\n")
	}
	return b.String()
}

// HexdumpC is data as "hexdump -C" writes it: hex.Dump's lines, then the length.
func HexdumpC(data []byte) string { return hex.Dump(data) + fmt.Sprintf("%08x\n", len(data)) }

// PlainHex is data as "xxd -p" writes it: lines of width hex digits
// (0: one line).
func PlainHex(data []byte, width int) string {
	return strings.Join(wrap(hex.EncodeToString(data), width), "\n") + "\n"
}

// CBytes is data as "xxd -i" writes it: C bytes, twelve a line.
func CBytes(data []byte) string {
	var b strings.Builder
	b.WriteString("unsigned char cle[] = {\n")
	for off := 0; off < len(data); off += 12 {
		var parts []string
		for _, c := range data[off:min(off+12, len(data))] {
			parts = append(parts, fmt.Sprintf("0x%02x", c))
		}
		b.WriteString("  " + strings.Join(parts, ", ") + ",\n")
	}
	b.WriteString("};\n")
	return b.String()
}

func printable(row []byte) string {
	out := make([]byte, len(row))
	for i, c := range row {
		out[i] = '.'
		if c >= 0x20 && c < 0x7f {
			out[i] = c
		}
	}
	return string(out)
}

// Dumps are the ways a key's bytes are written as hex.
var Dumps = []struct {
	Name string
	Dump func([]byte) string
}{
	{"xxd", XXD}, {"hexdump -C", HexdumpC}, {"xxd -p", func(b []byte) string { return PlainHex(b, 60) }},
	{"hex sur une ligne", func(b []byte) string { return PlainHex(b, 0) }},
	{"HEX MAJUSCULE", func(b []byte) string { return strings.ToUpper(PlainHex(b, 64)) }},
	{"xxd -i", CBytes},
	{"octets séparés par des deux-points", ColonHex},
}

// ColonHex is b as openssl prints bytes ("-text", "asn1parse -dump"):
// 15 pairs a line, each followed by a colon but the last, indented.
func ColonHex(b []byte) string {
	var out strings.Builder
	for i := 0; i < len(b); i += 15 {
		out.WriteString("    ")
		for j := i; j < min(i+15, len(b)); j++ {
			fmt.Fprintf(&out, "%02x", b[j])
			if j < len(b)-1 {
				out.WriteByte(':')
			}
		}
		out.WriteByte('\n')
	}
	return out.String()
}

// Base64Prose is a line of base64 that is no key: a token in a sentence.
func Base64Prose(rng *mrand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return "Mon jeton : " + base64.StdEncoding.EncodeToString(b) + " (à ne pas partager)."
}

// KeyBytes is f's key as bytes when they alone show a key (DER, the
// OpenSSH binary key); nil when only the armour does (legacy encrypted
// PEM, PuTTY).
func (f Form) KeyBytes() []byte {
	if !f.headerless {
		return nil
	}
	return f.body
}
