package acces

import (
	"strings"
	"unicode/utf8"

	"github.com/romeo-pret/pret/checklist"
)

// pathTokens returns the words of a raw line that look like paths: they
// hold a slash or a backslash.
func pathTokens(raw string) []string {
	var out []string
	p := pathScan{raw: raw}
	for {
		f, ok := p.next()
		if !ok {
			return out
		}
		out = append(out, f)
	}
}

// nextPathToken is the first path-like word of raw[i:] and where to look
// for the next one.
func nextPathToken(raw string, i int) (tok string, next int, ok bool) {
	p := pathScan{raw: raw, at: i}
	tok, ok = p.next()
	return tok, p.at, ok
}

// pathScan gives the path-like words of a line one at a time, with no
// list to make.
//
// Only a word with a slash or a backslash can be one: the walk goes from
// slash to slash, and cuts the word around each from the separators
// before and after it, as strings.FieldsFunc cut them rune by rune on
// isPathSepOracle. The separators are ASCII bytes or the two-byte runes
// C2 A0, C2 AB and C2 BB; no byte of another rune (nor of an invalid
// sequence, read one byte at a time) is one of those, and C2 always
// starts a rune (TestPathTokensMatchOracle, FuzzPathTokensMatchOracle).
type pathScan struct {
	raw string
	at  int // where the next word is looked for
	// The next '/' and '\\' at or after at once looked up (strings.IndexByte),
	// len(raw) when there is none: each part of the line is searched
	// once, however many words it holds.
	slash, back int
	looked      bool
}

// next is the next path-like word, false when there is none left.
func (p *pathScan) next() (string, bool) {
	raw := p.raw
	if !p.looked {
		p.slash, p.back, p.looked = -1, -1, true
	}
	for i := p.at; i < len(raw); {
		if p.slash < i {
			p.slash = indexFrom(raw, i, '/')
		}
		if p.back < i {
			p.back = indexFrom(raw, i, '\\')
		}
		s := min(p.slash, p.back)
		if s == len(raw) {
			break
		}
		from := s // back to the separator before the slash, or to i
		for from > i {
			if c := raw[from-1]; c < utf8.RuneSelf && pathSepASCII[c] ||
				from-2 >= i && raw[from-2] == 0xc2 && (c == 0xa0 || c == 0xab || c == 0xbb) {
				break
			}
			from--
		}
		end := s + 1
		for end < len(raw) && pathSepLen(raw, end) == 0 {
			end++
		}
		f := trimRightPunct(raw[from:end])
		if k := rootIndex(f); k > 0 {
			f = f[k:] // "Clé:~/.ssh/x.pub"
		}
		if hasSlash(f) {
			p.at = end
			return f, true
		}
		i = end
	}
	p.at = len(raw)
	return "", false
}

// indexFrom is the index of the first c in s from i, len(s) for none.
func indexFrom(s string, i int, c byte) int {
	if k := strings.IndexByte(s[i:], c); k >= 0 {
		return i + k
	}
	return len(s)
}

// pathSepLen is the length of the separator at raw[i], 0 for none.
func pathSepLen(raw string, i int) int {
	c := raw[i]
	if c < utf8.RuneSelf {
		if pathSepASCII[c] {
			return 1
		}
		return 0
	}
	if c == 0xc2 && i+1 < len(raw) {
		switch raw[i+1] {
		case 0xa0, 0xab, 0xbb: // no-break space, « and »
			return 2
		}
	}
	return 0
}

var pathSepASCII = [utf8.RuneSelf]bool{' ': true, '\t': true, '`': true, '"': true, '\'': true, '(': true, ')': true,
	'<': true, '>': true, '[': true, ']': true, '|': true, '*': true, ',': true, ';': true}

// hasSlash is strings.ContainsAny(s, `/\`) without a set to build.
func hasSlash(s string) bool {
	return strings.IndexByte(s, '/') >= 0 || strings.IndexByte(s, '\\') >= 0
}

// trimRightPunct is strings.TrimRight(s, ".:!?").
func trimRightPunct(s string) string {
	for len(s) > 0 {
		switch s[len(s)-1] {
		case '.', ':', '!', '?':
			s = s[:len(s)-1]
			continue
		}
		break
	}
	return s
}

// rootIndex finds where a path starts inside a word: the first place a
// root starts (~/, ~\, $HOME, ${HOME}, %USERPROFILE%, .ssh/, .ssh\, /, a
// drive letter), in one pass; -1 for none.
func rootIndex(f string) int {
	if len(f) > 2 && f[1] == ':' && (f[2] == '\\' || f[2] == '/') {
		return 0
	}
	for i := 0; i < len(f); i++ {
		switch c := f[i]; c {
		case '/':
			return i
		case '~':
			if i+1 < len(f) && (f[i+1] == '/' || f[i+1] == '\\') {
				return i
			}
		case '$':
			if strings.HasPrefix(f[i:], "$HOME") || strings.HasPrefix(f[i:], "${HOME}") {
				return i
			}
		case '%':
			if strings.HasPrefix(f[i:], "%USERPROFILE%") {
				return i
			}
		case '.':
			if strings.HasPrefix(f[i:], ".ssh/") || strings.HasPrefix(f[i:], ".ssh\\") {
				return i
			}
		default:
			if i >= 1 && i+2 < len(f) && f[i+1] == ':' && (f[i+2] == '\\' || f[i+2] == '/') && (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
				return i
			}
		}
	}
	return -1
}

func BaseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

func (d *document) checkPath(r *Result, rules Rules) {
	var private string
	privLine := 0
	for i := 0; i+1 < len(d.starts); i++ {
		l := d.rawLine(i)
		if l.leak {
			continue
		}
		for scan := (pathScan{raw: l.raw}); ; {
			p, ok := scan.next()
			if !ok {
				break
			}
			base := BaseName(p)
			if strings.HasSuffix(base, ".pub") && len(base) > 4 {
				r.PubPath = p
				if rules.KeyName != "" && base != rules.KeyName {
					r.add("unexpected-key-name", checklist.SevWarning, l.no, "la clé publique s'appelle %s, pas %s : vérifiez que c'est la clé de la séance", base, rules.KeyName)
				}
				return
			}
			if private == "" && strings.HasPrefix(base, "id_") && !strings.Contains(base, ".") {
				private, privLine = p, l.no
			}
		}
	}
	if private != "" {
		r.add("private-key-path", checklist.SevError, privLine, "le chemin donné est celui de la clé privée (%s) : donnez celui de la clé publique, %s.pub", private, private)
		return
	}
	r.add("missing-pubkey-path", checklist.SevError, 0, "aucun chemin de clé publique : ajoutez par exemple « ~/.ssh/%s » (un nom seul ne suffit pas)", orDefault(rules.KeyName, "id_ed25519_romeo.pub"))
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
