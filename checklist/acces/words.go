package acces

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/textfold"
)

// words are the words of a block once folded (accents off, lower case, œ
// as oe: acces-md.md, "Reading the text") and its punctuation marks, but
// the quotes and Markdown marks a renderer leaves in the text:
// decoration, left out.
func words(ts []textfold.Token) []textfold.Token {
	out := make([]textfold.Token, 0, len(ts))
	for _, t := range ts {
		if !isDecoration(firstRune(t.Folded)) {
			out = append(out, t)
		}
	}
	return out
}

// isDecoration: quotes, emphasis and code marks, table pipes, quote and
// heading marks that a renderer left as text.
func isDecoration(r rune) bool { return strings.ContainsRune(`"«»“”„‘’'*_`+"`|>#", r) }

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// isStop is a mark that ends a sentence or opens what follows it.
func isStop(w string) bool { return w == "." || w == "!" || w == "?" || w == ":" }
