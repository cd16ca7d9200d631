package leak

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/termtext"
)

// File returns the lines of key material in data, the bytes of any file a
// learner hands in, whatever its encoding: UTF-8, Latin-1 (Notepad's
// "ANSI"), UTF-16 little or big endian with or without a byte order mark
// (PowerShell 5.1's ">>"), or a file that changes from one to another
// (UTF-8, then UTF-16 appended). A key is ASCII: it is read in the bytes
// as UTF-8 or Latin-1 with NUL bytes dropped, which shows the ASCII of
// UTF-16 text at any offset, then, when UTF-16 text is there, in each
// UTF-16 reading of the bytes, which shows the characters (invisible or
// not) placed inside the key. The lines are those any reading finds. The
// work is linear: at most five readings of data. A key saved as its bytes
// (a DER private key, OpenSSH's binary key: no text, a NUL byte or invalid
// UTF-8 in them, blank lines before) is the file from line 1.
func File(data []byte) []int {
	head := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n") // echo; cat key.der
	head = head[:min(len(head), derChars/4*3)]
	if (bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(head)) && (derPrivate(head) || bytes.HasPrefix(head, []byte("openssh-key-v1\x00"))) {
		return []int{1}
	}
	lines := Lines(latin(data))
	for _, v := range utf16Readings(data) {
		for _, l := range Lines(v.text) {
			lines = append(lines, l+v.shift)
		}
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// latin is data as UTF-8 where it is valid, each other byte its Latin-1
// character, NUL bytes and byte order marks (UTF-8, UTF-16) dropped.
func latin(data []byte) string {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if utf8.Valid(data) && !slices.Contains(data, 0) {
		return string(data)
	}
	var b strings.Builder
	b.Grow(len(data))
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		switch {
		case len(data) > 1 && (data[0] == 0xff && data[1] == 0xfe || data[0] == 0xfe && data[1] == 0xff):
			n = 2 // a UTF-16 byte order mark, no "ÿþ" of Latin-1 text
		case r == utf8.RuneError && n <= 1:
			b.WriteRune(rune(data[0]))
		case r != 0:
			b.WriteRune(r)
		}
		data = data[max(n, 1):]
	}
	return b.String()
}

// minUTF16 is how many ASCII characters written as UTF-16 (an ASCII byte
// beside a NUL) make a reading worth doing: the shortest text reported
// ("Private-MAC: 0") is longer.
const minUTF16 = 8

// utf16Readings are the UTF-16 readings of data that hold UTF-16 text:
// little and big endian, from each of the first two bytes. The ASCII of
// UTF-16 text at one parity reads the same in either order (so do Latin-1
// letters); only a byte order mark tells them apart: with one (as
// PowerShell writes), the other order is not read.
func utf16Readings(data []byte) []reading {
	// ASCII little endian from byte p; byte order marks of either order there.
	var n, le, be [2]int
	for i := 0; i+1 < len(data); i++ {
		switch a, b := data[i], data[i+1]; {
		case b == 0 && a != 0 && a < 0x80:
			n[i%2]++
		case a == 0xff && b == 0xfe:
			le[i%2]++
		case a == 0xfe && b == 0xff:
			be[1-i%2]++ // big endian from i: ASCII little endian from i+1
		}
	}
	var out []reading
	for p := range 2 {
		if n[p] < minUTF16 {
			continue
		}
		if le[p] >= be[p] {
			out = append(out, decodeUTF16(data, data[p:], p, false))
		}
		if be[p] >= le[p] {
			// Big endian from p-1; from a NUL put before the bytes for p
			// = 0, as reading from byte 1 would drop a character.
			if p == 0 {
				out = append(out, decodeUTF16(data, append([]byte{0}, data...), -1, true))
			} else {
				out = append(out, decodeUTF16(data, data, 0, true))
			}
		}
	}
	return out
}

// reading is data read as UTF-16, and what to add to its line numbers
// to number its lines as the file's: the UTF-8 lines before the UTF-16
// text (">>" onto a UTF-8 page), read as one line glued to its first.
type reading struct {
	text  string
	shift int
}

// decodeUTF16 reads b, from byte base of the file data, as UTF-16,
// unpaired surrogates as U+FFFD, NUL characters dropped. A last odd byte
// is, little endian, an ASCII character whose NUL was cut (the ASCII of a
// big endian file read from its second byte): it is read, as dropping it
// would change the line ("…KEY0" read as "…KEY"); big endian, it is dropped. Its text starts at its first ASCII character: before, bytes
// read out of step (no unit of UTF-8 text has a NUL high byte).
func decodeUTF16(data, b []byte, base int, big bool) reading {
	unit := func(i int) rune {
		if big {
			return rune(b[i])<<8 | rune(b[i+1])
		}
		if i+1 == len(b) {
			return rune(b[i]) // its NUL cut
		}
		return rune(b[i+1])<<8 | rune(b[i])
	}
	var out strings.Builder
	out.Grow(len(b) / 2)
	start := -1
	for i := 0; i+1 < len(b) || !big && i < len(b); i += 2 {
		r := unit(i)
		if start < 0 && r != 0 && r < 0x80 && base+i >= 0 { // not the NUL put before
			start = max(base+i, 0)
		}
		switch {
		case r == 0:
			continue
		case utf16.IsSurrogate(r) && i+3 < len(b):
			if pair := utf16.DecodeRune(r, unit(i+2)); pair != unicode.ReplacementChar {
				r = pair
				i += 2
			} else {
				r = unicode.ReplacementChar
			}
		case utf16.IsSurrogate(r):
			r = unicode.ReplacementChar
		}
		out.WriteRune(r)
	}
	if start < 0 {
		start = len(data)
	}
	return reading{out.String(), bytes.Count(data[:start], []byte("\n"))}
}

// dropFormat removes the invisible characters (termtext.Invisible: U+200B,
// U+2060, U+00AD, U+FEFF, bidi marks, variation selectors, Hangul fillers…)
// that chat tools and editors put inside a key's text, where a reader
// does not see them.
func dropFormat(s string) string {
	var b strings.Builder
	last := 0 // s[last:i] is still to copy
	for i := 0; i < len(s); {
		if !formatLeads[s[i]] { // ASCII, 'é', 'œ': most lines never decode a rune
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if termtext.Invisible(r) {
			// Bytes that are no UTF-8 are kept as they are: a comment
			// or an entity between them may still make a character.
			b.WriteString(s[last:i])
			last = i + n
		}
		i += n
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// formatLeads are the bytes that may start an invisible character in
// UTF-8 (TestFormatLeads checks them against Go's Unicode tables).
var formatLeads = [256]bool{0xc2: true, 0xcd: true, 0xd8: true, 0xdb: true, 0xdc: true, 0xe0: true, 0xe1: true, 0xe2: true, 0xe3: true, 0xef: true, 0xf0: true, 0xf3: true}
