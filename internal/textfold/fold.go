// Package textfold makes two spellings of the same French words equal, for
// every reader that compares words: the acces.md validator (through
// checklist.Fold) and the dates of internal/dates.
package textfold

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold makes two spellings of the same French words equal: canonical
// decomposition (NFD) with the combining marks dropped, lower case, œ → oe
// and æ → ae, typographic apostrophes → ', runs of white space → one
// space, none at either end. So nœud, noeud, NŒUD and a decomposed nœud
// compare equal, and so do Å, å and the ångström sign U+212B (whose NFD
// is A and a ring). Bytes that are not UTF-8 become U+FFFD.
func Fold(s string) string {
	// Printable ASCII, most words of a page, needs no normalization.
	lower := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c <= ' ' || c >= 0x7f:
			return fold(s)
		case 'A' <= c && c <= 'Z':
			lower = false
		}
	}
	if lower {
		return s
	}
	return strings.ToLower(s)
}

func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
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

// Token is a word or a mark of a text, folded, and where it lies in the
// text (Start, End), so a reader can quote it as it was written.
type Token struct {
	Folded     string
	Start, End int
}

// joins reports whether r, after the rune prev of a word and before
// another word rune, stays inside the word: the apostrophe of « l'accès »,
// the dashes of avant-hier and univ-reims, the underscores of
// id_ed25519_romeo; a slash or a dot only after a digit (20/10/2026), so
// that « organisateurs.Non » is two words.
func joins(prev, r rune) bool {
	return strings.ContainsRune("'’ʼ-_", r) || (r == '/' || r == '.') && unicode.IsDigit(prev)
}

// Tokens splits text into words and marks, each folded: the one split
// that the acces.md rules and the date reader share. A word is letters,
// digits and combining marks, with the runes joins accepts inside it; any
// other rune is a mark of its own, but white space, which only separates.
func Tokens(text string) []Token {
	out := make([]Token, 0, len(text)/4)
	start, prev := -1, rune(0)
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case isWordRune(r):
			if start < 0 {
				start = i
			}
		case start >= 0 && joins(prev, r) && isWordRune(firstRune(text[i+n:])):
			// inside a word
		default:
			if start >= 0 {
				out = append(out, Token{Fold(text[start:i]), start, i})
				start = -1
			}
			if !unicode.IsSpace(r) {
				out = append(out, Token{Fold(text[i : i+n]), i, i + n})
			}
		}
		prev = r
		i += n
	}
	if start >= 0 {
		out = append(out, Token{Fold(text[start:]), start, len(text)})
	}
	return out
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}
