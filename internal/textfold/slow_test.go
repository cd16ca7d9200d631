package textfold

// slowFold is Fold as it was before AppendFold (a strings.Builder per
// changed string): the oracle TestFoldMatchesSlow and FuzzFoldMatchesSlow
// compare Fold, AppendFold and AppendFoldBytes with, byte for byte,
// valid UTF-8 or not. Only names changed.

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

var slowLatinFold = sync.OnceValue(func() *[0x250]string {
	var t [0x250]string
	for r := rune(0); r < 0x250; r++ {
		var b strings.Builder
		for _, d := range norm.NFD.String(string(r)) {
			switch d = unicode.ToLower(d); {
			case unicode.Is(unicode.Mn, d):
			case d == 'œ':
				b.WriteString("oe")
			case d == 'æ':
				// Also under an accent: ǽ and ǣ fold as æ does.
				b.WriteString("ae")
			default:
				b.WriteRune(d)
			}
		}
		t[r] = b.String()
	}
	return &t
})

// folded reports whether Fold would return s unchanged: printable ASCII
// without capitals, single spaces between words, none at either end.
func slowFolded(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return s == ""
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || 'A' <= c && c <= 'Z' || c == ' ' && s[i+1] == ' ' {
			return false
		}
	}
	return true
}

// Fold makes two spellings of the same French words equal: NFD with the
// combining marks dropped, lower case, œ → oe, runs of white space → one
// space. So nœud, noeud, NŒUD and a decomposed nœud compare equal.
func slowFold(s string) string {
	if slowFolded(s) {
		return s // most lines of a file are: no copy
	}
	latin := slowLatinFold()
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if r < utf8.RuneSelf {
			// ASCII, most of a line: what the cases below do, without
			// the tables.
			switch {
			case r == ' ' || '\t' <= r && r <= '\r':
				space = b.Len() > 0
				continue
			case 'A' <= r && r <= 'Z':
				r += 'a' - 'A'
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteByte(byte(r))
			continue
		}
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		var repl string
		switch {
		case r < 0x80:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
		case r < 0x250:
			repl = latin[r]
		case unicode.Is(unicode.Mn, r):
			continue
		case r == '’' || r == 'ʼ' || r == '‘':
			r = '\''
		case r >= 0x1E00 && r < 0x2000 || r >= 0x0370 && r < 0x0530:
			// Latin Extended Additional, Greek, Cyrillic: letters that
			// decompose; rare enough to normalise one at a time.
			for _, d := range norm.NFD.String(string(r)) {
				if !unicode.Is(unicode.Mn, d) {
					repl += string(unicode.ToLower(d))
				}
			}
		default:
			r = unicode.ToLower(r)
		}
		if repl == "" && r >= 0x80 && r < 0x250 {
			continue // a rune that folds to nothing
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if repl != "" {
			b.WriteString(repl)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
