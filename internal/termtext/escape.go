// Package termtext makes text from outside pret safe to print on a
// terminal line, and writes the few French words every layer shares.
package termtext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unsafe: C0, DEL, C1, U+2028/9 drive a terminal or forge a line; Cf holds
// bidi controls ("rendu\u202eexe.md" shows "rendudm.exe") and invisible ones.
func Unsafe(r rune) bool {
	if r < utf8.RuneSelf {
		return r < 0x20 || r == 0x7f
	}
	return r <= 0x9f || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r)
}

// Invisible: what a page draws as nothing, Unicode's Default_Ignorable_Code_Point:
// the format characters (Cf: zero-width space, soft hyphen, bidi marks), the
// variation selectors, U+034F and the Hangul fillers (U+115F, U+3164, U+FFA0).
func Invisible(r rune) bool {
	// Below U+034F, only the soft hyphen: French letters skip the tables.
	return r == '\u00ad' || r >= '\u034f' && unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// Escape makes a string from outside pret safe on a terminal line, as ssh-keygen (vis(3)
// VIS_OCTAL): "\ooo" per byte of an unsafe rune or invalid UTF-8, "\n" "\r" "\t"; idempotent.
func Escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n', r == '\r', r == '\t':
			b.WriteString(strconv.QuoteRune(r)[1:3]) // '\n': C's form
		case r == utf8.RuneError && n == 1, Unsafe(r):
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
