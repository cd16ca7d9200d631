// Package textfold makes two spellings of the same French words equal, for
// every reader that compares words: the acces.md validator (through
// checklist.Fold) and the dates of internal/dates.
package textfold

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold makes two spellings of the same French words equal: canonical
// decomposition (NFD) with the combining marks dropped, lower case, œ → oe
// and æ → ae, typographic apostrophes → ', runs of white space → one
// space, none at either end. So nœud, noeud, NŒUD and a decomposed nœud
// compare equal, and so do Å, å and the ångström sign U+212B (whose NFD
// is A and a ring). Bytes that are not UTF-8 become U+FFFD.
func Fold(s string) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		switch r = unicode.ToLower(r); r {
		case 'œ':
			b.WriteString("oe")
		case 'æ':
			b.WriteString("ae")
		case '’', 'ʼ', '‘':
			b.WriteByte('\'')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// AppendFold appends Fold(s) to dst.
func AppendFold(dst []byte, s string) []byte { return append(dst, Fold(s)...) }
