// Package textfold makes two spellings of the same French words equal,
// for the acces.md validator and internal/dates.
package textfold

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold makes two spellings of the same French words equal: NFD without combining marks,
// lower case, œ → oe, æ → ae, typographic apostrophes → ', space runs → one space, trimmed.
// So nœud, NŒUD and a decomposed nœud are equal, as are å and U+212B; bad UTF-8 → U+FFFD.
func Fold(s string) string {
	f, _ := fold(&strings.Builder{}, nil, s)
	return f
}

// fold is Fold(s), written to b unless s is its own fold: Tokens folds a block's words
// into one string that only grows, each a piece of it. it reads s's NFD, made at the
// first word that needs it and returned for the next: norm.NFD.AppendString would
// allocate its own buffer for each word.
func fold(b *strings.Builder, it *norm.Iter, s string) (string, *norm.Iter) {
	// Printable ASCII, most words of a page, needs no normalization.
	ascii := !strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r >= 0x7f })
	if ascii && !strings.ContainsFunc(s, unicode.IsUpper) {
		return s, it
	}
	from, space := b.Len(), false
	b.Grow(len(s))
	if ascii {
		for _, c := range []byte(s) {
			b.WriteByte(byte(unicode.ToLower(rune(c))))
		}
		return b.String()[from:], it
	}
	if !utf8.ValidString(s) {
		s = string([]rune(s)) // U+FFFD for each bad byte first: norm leaves what follows one undecomposed ("\xf5Ӭ")
	}
	if it == nil {
		it = new(norm.Iter)
	}
	for it.InitString(norm.NFD, s); !it.Done(); {
		for _, r := range string(it.Next()) {
			switch {
			case unicode.Is(unicode.Mn, r):
				continue
			case unicode.IsSpace(r):
				space = b.Len() > from
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
	}
	return b.String()[from:], it
}

// Token is a folded word or mark and where it lies in the text.
type Token struct {
	Folded     string
	Start, End int
}

// joins: r between word runes stays inside the word (l'accès, avant-hier, id_ed25519);
// a slash or a dot only after a digit (20/10/2026): « organisateurs.Non » is two words.
func joins(prev, r rune) bool {
	return strings.ContainsRune("'’ʼ-_", r) || (r == '/' || r == '.') && unicode.IsDigit(prev)
}

// Tokens splits text into folded words (letters, digits, marks, and what joins accepts
// inside) and marks (other runes but spaces): the acces.md rules and dates share it.
func Tokens(text string) []Token {
	out := make([]Token, 0, len(text)/4)
	var folded strings.Builder
	folded.Grow(len(text)) // what is folded is as long as text but for rare runes
	var it *norm.Iter
	add := func(start, end int) {
		var f string
		f, it = fold(&folded, it, text[start:end])
		out = append(out, Token{f, start, end})
	}
	start, prev := -1, rune(0)
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case isWordRune(r):
			if start < 0 {
				start = i
			}
		case start >= 0 && joins(prev, r) && IsWord(text[i+n:]):
			// inside a word
		default:
			if start >= 0 {
				add(start, i)
				start = -1
			}
			if !unicode.IsSpace(r) {
				add(i, i+n)
			}
		}
		prev = r
		i += n
	}
	if start >= 0 {
		add(start, len(text))
	}
	return out
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// IsWord reports whether s starts with a word rune.
func IsWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r)
}
