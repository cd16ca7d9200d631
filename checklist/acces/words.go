package acces

import (
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
	start := -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, word{textfold.Fold(text[start:end]), start})
			start = -1
		}
	}
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case isWordRune(r):
			if start < 0 {
				start = i
			}
		case start >= 0 && isJoiner(r) && i+n < len(text) && isWordRune(firstRune(text[i+n:])):
			// inside a word
		default:
			flush(i)
			if !unicode.IsSpace(r) && !isDecoration(r) {
				out = append(out, word{textfold.Fold(text[i : i+n]), i})
			}
		}
		i += n
	}
	flush(len(text))
	return out
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

func isJoiner(r rune) bool {
	switch r {
	case '\'', '’', 'ʼ', '-', '_':
		return true
	}
	return false
}

// isDecoration: quotes, emphasis and code marks, table pipes, quote and
// heading marks that a renderer left as text.
func isDecoration(r rune) bool {
	switch r {
	case '"', '«', '»', '“', '”', '„', '‘', '’', '\'', '*', '_', '`', '|', '>', '#':
		return true
	}
	return false
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// isStop is a mark that ends a sentence or opens what follows it.
func isStop(w string) bool { return w == "." || w == "!" || w == "?" || w == ":" }
