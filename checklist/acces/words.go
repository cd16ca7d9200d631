package acces

import (
	"strings"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/textfold"
)

// words are the folded words and marks of a block (acces-md.md, "Reading
// the text") without the quotes, emphasis, pipes and heading marks a
// renderer leaves in the text: decoration.
func words(ts []textfold.Token) []textfold.Token {
	out := make([]textfold.Token, 0, len(ts))
	for _, t := range ts {
		if r, _ := utf8.DecodeRuneInString(t.Folded); !strings.ContainsRune(`"«»“”„‘’'*_`+"`|>#", r) {
			out = append(out, t)
		}
	}
	return out
}

// isStop is a mark that ends a sentence or opens what follows it.
func isStop(w string) bool { return w == "." || w == "!" || w == "?" || w == ":" }
