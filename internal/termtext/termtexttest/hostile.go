// Package termtexttest generates the strings a terminal or a parser could
// take for something else, and tells whether a string is safe to print.
package termtexttest

import (
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pieces are the parts generated strings are made of: everything a
// file name, a comment or a line of a file can hold that a terminal or a
// parser could take for something else.
var Pieces = []string{
	"a", "Z", "0", " ", "é", "œ", "NŒUD", "日本", "🙂", "\\", "\"", "<", "&", "]]>", "--",
	"\n", "\r", "\r\n", "\t", "\x00", "\x07", "\x08", "\x1b", "\x1b[31m", "\x1b]0;titre\x07", "\x1b[2J", "\x7f",
	"\u0080", "\u0085", "\u009b", "\u009b31m", "\u009f",
	"\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069",
	"\u2028", "\u2029", "\ufeff", "\ufffd", "\ufffe", "\uffff",
	// Format characters (Cf): zero-width, soft hyphen, word joiner, tags.
	"\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\u2064", "\u180e", "\u0600", "\u06dd", "\ufff9", "\ufffb",
	"\U000e0001", "\U000e0020", "\U000e0041", "\U000e007f", "\U0001d173", "\U000110bd",
	"\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf",
	"\nRésumé : 99 fichiers, 99 valides, 0 invalide\n", "\nvalide    forge/acces.md\n",
}

// String is a random run of Pieces.
func String(rng *rand.Rand) string {
	var b strings.Builder
	for n := rng.IntN(12); n >= 0; n-- {
		b.WriteString(Pieces[rng.IntN(len(Pieces))])
	}
	return b.String()
}

// Safe reports the first thing in s a terminal would act on.
func Safe(s string) (bad string, ok bool) {
	if !utf8.ValidString(s) {
		return "invalid UTF-8", false
	}
	for _, r := range s {
		// Checked against Unicode's own table, not termtext.Unsafe: a format
		// character (Cf) it forgot is caught.
		if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			return strings.ToValidUTF8(string(r), "?"), false
		}
	}
	return "", true
}
