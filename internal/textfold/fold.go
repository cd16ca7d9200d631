// Package textfold makes two spellings of the same French words equal, for
// every reader that compares words: the acces.md validator (through
// checklist.Fold) and the typed dates of internal/dates.
package textfold

import (
	"encoding/binary"
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
var asciiFold = func() (t [256]byte) {
	for c := range utf8.RuneSelf {
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
			dst, i, space = appendASCII(dst, base, s, i, space)
			continue
		}
		if c := s[i]; c >= 0xc3 && c <= 0xc9 && i+1 < len(s) && s[i+1]&0xc0 == 0x80 {
			// Two bytes from U+00C0 to U+027F: accented Latin letters,
			// œ, æ; none is a space (those of two bytes start with C2).
			if r := rune(c&0x1f)<<6 | rune(s[i+1]&0x3f); r < 0x250 {
				i += 2
				if latin == nil {
					latin = latinFold()
				}
				repl := latin[r]
				if repl == "" {
					continue // a rune that folds to nothing
				}
				if space {
					dst = append(dst, ' ')
					space = false
				}
				dst = append(dst, repl...)
				continue
			}
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

// Eight bytes at a time (SWAR): each byte's top bit is set by an
// addition that never carries into the next byte, since every byte is
// ASCII (below 0x80) once x&hi == 0.
const (
	ones = 0x0101010101010101
	hi   = 0x8080808080808080
)

// appendASCII folds the run of ASCII at s[i:] onto dst: what the rune
// loop does, eight bytes at a time where the eight hold no control
// byte, no two spaces side by side and no space first (capitals are
// lowered in place), byte by byte elsewhere. It returns where the run
// ends and whether a space is pending.
func appendASCII[S ~string | ~[]byte](dst []byte, base int, s S, i int, space bool) ([]byte, int, bool) {
	// At most a byte written per byte read, one more for a pending
	// space, and eight written at once past the end.
	if free := cap(dst) - len(dst); free < len(s)-i+9 {
		dst = append(dst[:cap(dst)], make([]byte, len(s)-i+9-free)...)[:len(dst)]
	}
	out, j := dst[:cap(dst)], len(dst)
	for i < len(s) {
		slow := 8 // bytes to take one at a time
		if i+8 <= len(s) {
			x := load8(s, i)
			if x&hi == 0 {
				sp := ^((x ^ 0x20*ones) + 0x7f*ones) & hi // bytes == ' '
				ctl := ^(x + 0x5f*ones) & hi &^ sp        // bytes < 0x20
				if ctl == 0 && sp&(sp<<8) == 0 {
					if sp&0x80 == 0 {
						up := (x + 0x3f*ones) &^ (x + 0x25*ones) & hi // 'A'..'Z'
						if space {
							out[j] = ' '
							j++
						}
						binary.LittleEndian.PutUint64(out[j:j+8], x|up>>2)
						if sp>>63 != 0 {
							// A space last: pending, as one read
							// byte by byte would be.
							j, space = j+7, true
						} else {
							j, space = j+8, false
						}
						i += 8
						continue
					}
					slow = 1 // only the space first: take it, try again
				}
			}
		}
		for ; slow > 0 && i < len(s); slow-- {
			c := s[i]
			if c >= utf8.RuneSelf {
				return out[:j], i, space
			}
			i++
			if c = asciiFold[c]; c == asciiSpace {
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
	}
	return out[:j], i, space
}

// load8 reads s[i:i+8] as a little-endian word.
func load8[S ~string | ~[]byte](s S, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
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
