package acces

import (
	"cmp"
	"regexp"
	"strings"
	"sync"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/keys"
)

// pathRule takes the first path ending in .pub with a folder part; a
// private key's path is reported only when no public one is given.
type pathRule struct {
	pub, private         string
	pubLine, privateLine int
}

func (p *pathRule) visit(b *block) {
	if p.pub != "" {
		return
	}
	for _, t := range blockPaths(b) {
		base := BaseName(t.path)
		if strings.HasSuffix(base, ".pub") && len(base) > len(".pub") {
			p.pub, p.pubLine = t.path, b.lineAt(t.off)
			return
		}
		if p.private == "" && strings.HasPrefix(base, "id_") && !strings.Contains(base, ".") {
			p.private, p.privateLine = t.path, b.lineAt(t.off)
		}
	}
}

func (p *pathRule) finish(r *Result, rules Rules) {
	// A path holding what may be a key's base64 line (keys/leak cannot tell) is not quoted.
	shown := func(s string) string {
		if keys.LooksLikeFragment(s) {
			return "(un chemin en base64, non recopié)"
		}
		return s
	}
	switch {
	case p.pub != "":
		r.PubPath = p.pub // compared by pret verifier, never in a report
		if base := BaseName(p.pub); rules.KeyName != "" && base != rules.KeyName {
			r.add(checklist.CodeUnexpectedKeyName, checklist.SevWarning, p.pubLine, "la clé publique s'appelle %s, pas %s : vérifiez que c'est la clé de la séance", shown(base), rules.KeyName)
		}
	case p.private != "":
		r.add(checklist.CodePrivateKeyPath, checklist.SevError, p.privateLine, "le chemin donné est celui de la clé privée (%s) : donnez celui de la clé publique, %s.pub", shown(p.private), shown(p.private))
	default:
		r.add(checklist.CodeMissingPubkeyPath, checklist.SevError, 0, "aucun chemin de clé publique : ajoutez par exemple « ~/.ssh/%s » (un nom seul ne suffit pas)",
			cmp.Or(rules.KeyName, "id_ed25519_romeo.pub"))
	}
}

// blockPaths are the paths of a block in order: a code span holding a
// path with spaces ("Jean Dupont") is one, as pret acces writes it.
func blockPaths(b *block) []pathToken {
	var out []pathToken
	from := 0
	for _, c := range b.codes {
		inner := b.text[c[0]:c[1]]
		t := strings.TrimSpace(inner)
		if !strings.ContainsAny(t, " \t") || !strings.ContainsAny(t, `/\`) || rootIndex(t) != 0 {
			continue
		}
		out = append(pathTokens(out, b.text[from:c[0]], from), pathToken{t, c[0] + strings.Index(inner, t)})
		from = c[1]
	}
	return pathTokens(out, b.text[from:], from)
}

type pathToken struct {
	path string
	off  int
}

// pathTokens appends the words of text (at off) holding a slash or a backslash, final
// punctuation left out, from their root when glued to a label ("Clé:~/.ssh/x.pub").
// Only the words around a slash are cut out: most words hold none.
func pathTokens(out []pathToken, text string, off int) []pathToken {
	word := func(r rune) bool { return !strings.ContainsRune(" \t`\"'()<>[]|*,;\u00a0«»\u202f", r) }
	for i := strings.IndexAny(text, `/\`); i >= 0; i = strings.IndexAny(text, `/\`) {
		start := len(strings.TrimRightFunc(text[:i], word))
		end := len(text) - len(strings.TrimLeftFunc(text[i:], word))
		w := strings.TrimRight(text[start:end], ".:!?") // its slash stays
		k := max(rootIndex(w), 0)
		out = append(out, pathToken{w[k:], off + start + k})
		text, off = text[end:], off+end
	}
	return out
}

// A path's root: only words holding a slash or a backslash are looked at.
var pathRoot = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`~[/\\]|\$HOME|\$\{HOME\}|%USERPROFILE%|\.ssh[/\\]|/|[a-zA-Z]:[/\\]`)
})

// rootIndex is where a path starts inside a word, -1 for none.
func rootIndex(w string) int {
	if m := pathRoot().FindStringIndex(w); m != nil {
		return m[0]
	}
	return -1
}
