package acces

import (
	"strings"

	"github.com/romeo-pret/pret/checklist"
)

// pathTokens returns the words of a raw line that look like paths: they
// hold a slash or a backslash.
func pathTokens(raw string) []string {
	if !strings.ContainsAny(raw, `/\`) {
		return nil
	}
	var out []string
	for _, f := range strings.FieldsFunc(raw, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '`' || r == '"' || r == '\'' || r == '(' || r == ')' ||
			r == '<' || r == '>' || r == '[' || r == ']' || r == '|' || r == '*' || r == ',' || r == ';' || r == '«' || r == '»' || r == '\u00a0'
	}) {
		f = strings.TrimRight(f, ".:!?")
		if i := rootIndex(f); i > 0 {
			f = f[i:] // "Clé:~/.ssh/x.pub"
		}
		if strings.ContainsAny(f, `/\`) {
			out = append(out, f)
		}
	}
	return out
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
		for _, p := range pathTokens(l.raw) {
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
