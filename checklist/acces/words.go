package acces

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/textfold"
)

// A word is a word of a block once folded (accents off, lower case, œ as
// oe: acces-md.md, "Reading the text"), or one punctuation mark; off is
// where it starts in the block's text.
type word struct {
	w   string
	off int
}

// words splits text into words and marks. A word is letters, digits and
// combining marks, with apostrophes, dashes and underscores inside it
// (« l'accès », « univ-reims », « id_ed25519_romeo »); the quotes and
// Markdown marks a renderer leaves in the text are decoration and left
// out; any other character is a mark of its own.
func words(text string) []word {
	var out []word
	for _, t := range textfold.Tokens(text, isJoiner) {
		// A decoration rune is never a word's first: a mark, left out.
		if !isDecoration(firstRune(text[t.Start:])) {
			out = append(out, word{t.Folded, t.Start})
		}
	}
	return out
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

func isJoiner(r rune) bool { return strings.ContainsRune("'’ʼ-_", r) }

// isDecoration: quotes, emphasis and code marks, table pipes, quote and
// heading marks that a renderer left as text.
func isDecoration(r rune) bool { return strings.ContainsRune(`"«»“”„‘’'*_`+"`|>#", r) }

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// isStop is a mark that ends a sentence or opens what follows it.
func isStop(w string) bool { return w == "." || w == "!" || w == "?" || w == ":" }
