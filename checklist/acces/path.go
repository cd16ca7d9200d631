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
	for i := 0; ; {
		f, next, ok := nextPathToken(raw, i)
		if !ok {
			return out
		}
		out = append(out, f)
		i = next
	}
}

// nextPathToken is the first path-like word of raw[i:] and where to look
// for the next one: pathTokens one word at a time, with no list to make.
//
// Words are cut byte by byte, as strings.FieldsFunc cut them rune by rune
// on isPathSepOracle: the separators are ASCII bytes or the two-byte
// runes C2 A0, C2 AB and C2 BB, and no byte of another rune (nor of an
// invalid sequence, read one byte at a time) is one of those or starts
// one (TestPathTokensMatchSlow, TestCheckPathMatchesOracle).
func nextPathToken(raw string, i int) (tok string, next int, ok bool) {
	if i == 0 && !hasSlash(raw) {
		return "", len(raw), false
	}
	for i < len(raw) {
		for i < len(raw) {
			n := pathSepLen(raw, i)
			if n == 0 {
				break
			}
			i += n
		}
		from := i
		slash := false
		for i < len(raw) && pathSepLen(raw, i) == 0 {
			slash = slash || raw[i] == '/' || raw[i] == '\\'
			i++
		}
		if i == from {
			break
		}
		if !slash {
			// No slash in the word, none in what is kept of it.
			continue
		}
		f := trimRightPunct(raw[from:i])
		if k := rootIndex(f); k > 0 {
			f = f[k:] // "Clé:~/.ssh/x.pub"
		}
		if hasSlash(f) {
			return f, i, true
		}
	}
	return "", len(raw), false
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

// rootIndex finds where a path starts inside a word.
func rootIndex(f string) int {
	best := -1
	for _, root := range []string{"~/", "~\\", "$HOME", "${HOME}", "%USERPROFILE%", ".ssh/", ".ssh\\", "/"} {
		if i := strings.Index(f, root); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if len(f) > 2 && f[1] == ':' && (f[2] == '\\' || f[2] == '/') {
		return 0
	}
	for i := 1; i+2 < len(f); i++ {
		if f[i+1] == ':' && (f[i+2] == '\\' || f[i+2] == '/') && (f[i] >= 'A' && f[i] <= 'Z' || f[i] >= 'a' && f[i] <= 'z') && (best < 0 || i < best) {
			best = i
		}
	}
	return best
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
		for at := 0; ; {
			p, next, ok := nextPathToken(l.raw, at)
			if !ok {
				break
			}
			at = next
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
