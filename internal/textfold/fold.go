// Package textfold makes two spellings of the same French words equal, for
// every reader that compares words: the acces.md validator (through
// checklist.Fold) and the typed dates of internal/dates.
package textfold

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// latinFold holds, for every rune below U+0250, what fold turns it into:
// its NFD form without combining marks, in lower case. Computed once with
// the norm package so the hot path never runs a full normalisation.
// Built on first use: commands that never fold pay nothing at start-up.
var latinFold = sync.OnceValue(func() *[0x250]string {
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
func folded(s string) bool {
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
func Fold(s string) string {
	if folded(s) {
		return s // most lines of a file are: no copy
	}
	// A line is short: folded on the stack, copied once into the string.
	var buf [256]byte
	return string(appendFold(buf[:0], s))
}

// AppendFold appends Fold(s) to dst: a reader that folds many lines
// keeps them in one buffer rather than one string each.
func AppendFold(dst []byte, s string) []byte { return appendFold(dst, s) }

// AppendFoldBytes is AppendFold of string(s), without the copy.
func AppendFoldBytes(dst, s []byte) []byte { return appendFold(dst, s) }

// asciiFold is what appendFold writes for each ASCII byte: itself, its
// small letter, or asciiSpace for white space.
var asciiFold = func() (t [utf8.RuneSelf]byte) {
	for c := range t {
		switch {
		case c == ' ' || '\t' <= c && c <= '\r':
			t[c] = asciiSpace
		case 'A' <= c && c <= 'Z':
			t[c] = byte(c) + 'a' - 'A'
		default:
			t[c] = byte(c)
		}
	}
	return t
}()

const asciiSpace = 0xff // not ASCII: no byte folds to it

func appendFold[S ~string | ~[]byte](dst []byte, s S) []byte {
	base := len(dst)
	space := false
	var latin *[0x250]string
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			// A run of ASCII, most of a line, written in place: it
			// writes at most a byte per byte read, and one more for a
			// space pending from before the run.
			if free := cap(dst) - len(dst); free < len(s)-i+1 {
				dst = append(dst[:cap(dst)], make([]byte, len(s)-i+1-free)...)[:len(dst)]
			}
			out, j := dst[:cap(dst)], len(dst)
			for ; i < len(s) && s[i] < utf8.RuneSelf; i++ {
				c := asciiFold[s[i]]
				if c == asciiSpace {
					space = j > base
					continue
				}
				if space {
					out[j] = ' '
					j++
					space = false
				}
				out[j] = c
				j++
			}
			dst = out[:j]
			continue
		}
		r, n := decodeRune(s, i)
		i += n
		if unicode.IsSpace(r) {
			space = len(dst) > base
			continue
		}
		var repl string
		switch {
		case r < 0x250:
			if latin == nil {
				latin = latinFold()
			}
			repl = latin[r]
			if repl == "" {
				continue // a rune that folds to nothing
			}
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
			if r = unicode.ToLower(r); r >= 0x80 && r < 0x250 {
				// Dropped, as the old fold did (Å, the ångström
				// sign, lowers to å and was left out): not one
				// byte of output may change.
				continue
			}
		}
		if space {
			dst = append(dst, ' ')
			space = false
		}
		if repl != "" {
			dst = append(dst, repl...)
		} else {
			dst = utf8.AppendRune(dst, r)
		}
	}
	return dst
}

// decodeRune is utf8.DecodeRuneInString(s[i:]) for a string or bytes:
// at most four bytes are copied, nothing is allocated.
func decodeRune[S ~string | ~[]byte](s S, i int) (rune, int) {
	var b [utf8.UTFMax]byte
	n := 0
	for n < len(b) && i+n < len(s) {
		b[n] = s[i+n]
		n++
	}
	return utf8.DecodeRune(b[:n])
}
