package leak

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
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
// work is linear: at most five readings of data.
func File(data []byte) []int {
	lines := Lines(latin(data))
	for _, v := range utf16Readings(data) {
		lines = append(lines, Lines(v)...)
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// latin is data as UTF-8 where it is valid, each other byte its Latin-1
// character, NUL bytes dropped, a leading byte order mark dropped.
func latin(data []byte) string {
	data = trimPrefix(data, "\xef\xbb\xbf")
	if utf8.Valid(data) && !slices.Contains(data, 0) {
		return string(data)
	}
	var b strings.Builder
	b.Grow(len(data))
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteRune(rune(data[0]))
		case r != 0:
			b.WriteRune(r)
		}
		data = data[max(n, 1):]
	}
	return b.String()
}

func trimPrefix(b []byte, p string) []byte {
	if len(b) >= len(p) && string(b[:len(p)]) == p {
		return b[len(p):]
	}
	return b
}

// minUTF16 is how many ASCII characters written as UTF-16 (an ASCII byte
// beside a NUL) make a reading worth doing: the shortest text reported
// ("Private-MAC: 0") is longer.
const minUTF16 = 8

// utf16Readings are the UTF-16 readings of data that hold UTF-16 text:
// little and big endian, from each of the first two bytes.
func utf16Readings(data []byte) []string {
	var n [2]int // ASCII characters little endian from byte 0, from byte 1
	for i := 0; i+1 < len(data); i++ {
		if data[i+1] == 0 && data[i] != 0 && data[i] < 0x80 {
			n[i%2]++
		}
	}
	var out []string
	if n[0] >= minUTF16 {
		// Little endian from byte 0; the same bytes big endian from a NUL
		// put before them, as reading from byte 1 would drop a character.
		out = append(out, decodeUTF16(data, false), decodeUTF16(append([]byte{0}, data...), true))
	}
	if n[1] >= minUTF16 {
		out = append(out, decodeUTF16(data[1:], false), decodeUTF16(data, true))
	}
	return out
}

// decodeUTF16 reads b as UTF-16 (a last odd byte dropped), unpaired
// surrogates as U+FFFD, NUL characters dropped.
func decodeUTF16(b []byte, big bool) string {
	units := make([]uint16, len(b)/2)
	for i := range units {
		lo, hi := b[2*i], b[2*i+1]
		if big {
			lo, hi = hi, lo
		}
		units[i] = uint16(hi)<<8 | uint16(lo)
	}
	units = slices.DeleteFunc(units, func(u uint16) bool { return u == 0 })
	return string(utf16.Decode(units))
}

// dropFormat removes the format characters (Unicode Cf: U+200B, U+2060,
// U+00AD, U+FEFF, bidi marks…) that chat tools and editors put inside a
// key's text, where a reader does not see them.
func dropFormat(s string) string {
	var b strings.Builder
	last := 0 // s[last:i] is still to copy
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if n > 1 && unicode.Is(unicode.Cf, r) {
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
