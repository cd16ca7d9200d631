package checklist

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape makes a string that came from outside pret (a file's content, a
// file or folder name, a key comment) safe to print on a terminal line:
// nothing in it can move the cursor, change colours, reverse the reading
// order or start a new line that looks like one of ours ("Résumé : 99
// fichiers"). It is the one function every text output uses for such
// strings.
//
// The form follows what ssh-keygen does with a key comment (OpenSSH's
// vis(3) with VIS_OCTAL): each byte of an unprintable character becomes a
// backslash and three octal digits, "\033" for ESC, "\302\233" for the C1
// control U+009B. Line breaks and tabs, which ssh-keygen lets through, are
// written "\n", "\r" and "\t" instead, because a line break is exactly
// what would forge a report line. Escaped are: C0 controls and DEL, C1
// controls, every format character (Unicode category Cf: the
// bidirectional controls U+061C, U+200E, U+200F, U+202A–U+202E,
// U+2066–U+2069, and the invisible ones a person cannot see on a line,
// U+00AD, U+200B–U+200D, U+2060–U+2064, U+FEFF, the tags
// U+E0001–U+E007F, …), the line and paragraph separators U+2028 and
// U+2029, and every byte that is not valid UTF-8. Everything else,
// accented letters included, is kept as it is. The result is valid
// UTF-8 and Escape(Escape(s)) == Escape(s).
func Escape(s string) string {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return s // the common case: printable ASCII, no copy
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError && size == 1, mustEscape(r):
			for _, c := range []byte(s[i : i+size]) {
				b.WriteByte('\\')
				b.WriteByte('0' + c>>6)
				b.WriteByte('0' + c>>3&7)
				b.WriteByte('0' + c&7)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// mustEscape reports the runes Escape writes as octal bytes.
func mustEscape(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	case r >= 0xad && unicode.Is(unicode.Cf, r):
		// Zero-width and format characters: invisible, so a name that
		// holds one looks like another ("acces\u200b.md"), and the tags
		// can carry hidden text.
		return true
	}
	return false
}

// ValidUTF8 is what a JSON document carries for a string from a file: the
// string itself, with each byte that is not valid UTF-8 replaced by U+FFFD
// (encoding/json does the same, byte by byte).
func ValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// XMLText is what a JUnit document carries for a string from a file:
// ValidUTF8, then each character XML 1.0 forbids (C0 controls other than
// tab, line feed and carriage return; U+FFFE, U+FFFF) replaced by U+FFFD,
// as encoding/xml writes it.
func XMLText(s string) string {
	s = ValidUTF8(s)
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 && r <= 0x10ffff {
			return r
		}
		return utf8.RuneError
	}, s)
}
