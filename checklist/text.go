package checklist

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// latinFold holds, for every rune below U+0250, what fold turns it into:
// its NFD form without combining marks, in lower case. Computed once with
// the norm package so the hot path never runs a full normalisation.
var latinFold = func() (t [0x250]string) {
	for r := rune(0); r < 0x250; r++ {
		var b strings.Builder
		for _, d := range norm.NFD.String(string(r)) {
			if !unicode.Is(unicode.Mn, d) {
				b.WriteRune(unicode.ToLower(d))
			}
		}
		t[r] = b.String()
	}
	t['œ'], t['Œ'], t['æ'], t['Æ'] = "oe", "oe", "ae", "ae"
	return t
}()

// Fold is fold for the other checks of written French (checklist/livrables).
func Fold(s string) string { return fold(s) }

// fold makes two spellings of the same French words equal: NFD with the
// combining marks dropped, lower case, œ → oe, runs of white space → one
// space. So nœud, noeud, NŒUD and a decomposed nœud compare equal.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
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
			repl = latinFold[r]
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

// line is one line of acces.md, read once into the forms the rules need.
type line struct {
	no      int    // 1-based
	raw     string // as written, without the line break
	folded  string // Markdown decoration removed, then fold
	blank   bool   // nothing left once decoration is removed
	heading bool
	// starts is true when the line opens a new block: a list item, a
	// heading, a table row; other non-blank lines continue the block above.
	starts bool
	cells  []string // table cells, decoration removed
	leak   bool     // private key material: never read further, never shown
	words  []string // words(folded), computed once
}

// stripDecoration removes the Markdown around the words: block quotes,
// list markers, headings, emphasis and code markers, quotes.
func stripDecoration(raw string) (text string, heading, starts bool, cells []string) {
	s := strings.TrimSpace(raw)
	for strings.HasPrefix(s, ">") {
		s = strings.TrimSpace(s[1:])
	}
	if strings.HasPrefix(s, "|") {
		parts := strings.Split(strings.Trim(s, "|"), "|")
		for _, p := range parts {
			p = cleanInline(strings.TrimSpace(p))
			if strings.Trim(p, "-: ") != "" {
				cells = append(cells, p)
			}
		}
		return strings.Join(cells, " "), false, true, cells
	}
	if h := strings.TrimLeft(s, "#"); len(h) < len(s) && (h == "" || h[0] == ' ') {
		return cleanInline(strings.TrimSpace(h)), true, true, nil
	}
	if rest, ok := listMarker(s); ok {
		s, starts = rest, true
	}
	return cleanInline(s), false, starts, nil
}

func listMarker(s string) (string, bool) {
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' {
		return strings.TrimSpace(s[2:]), true
	}
	i := 0
	for i < len(s) && i < 4 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
		return strings.TrimSpace(s[i+2:]), true
	}
	return s, false
}

// cleanInline drops emphasis, code and quote marks. An underscore inside a
// word (id_ed25519_romeo) is kept; one at a word's edge is emphasis.
func cleanInline(s string) string {
	if !strings.ContainsAny(s, "*_`\"«»“”") {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch r {
		case '*', '`', '"', '«', '»', '“', '”':
			continue
		case '_':
			inWord := i > 0 && i+1 < len(rs) && isWordRune(rs[i-1]) && isWordRune(rs[i+1])
			if !inWord {
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// words splits folded text into words and punctuation marks, the units the
// sentence is compared in.
func words(folded string) []string {
	out := make([]string, 0, len(folded)/5+1)
	start := -1
	for i, r := range folded {
		if isWordRune(r) || r == '\'' || r == '-' && start >= 0 {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, folded[start:i])
			start = -1
		}
		if !unicode.IsSpace(r) {
			out = append(out, string(r))
		}
	}
	if start >= 0 {
		out = append(out, folded[start:])
	}
	return out
}
