package acces

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/templates"
)

// sentenceWords is the course's sentence as words, built on first use:
// folding needs a table that commands which never validate must not build.
var sentenceWords = sync.OnceValue(func() []string {
	return words(checklist.Fold(strings.TrimSuffix(templates.Sentence, ".")))
})

func (d *document) checkSentence(r *Result) {
	found := false
	// The first altered block, and the first that starts like the
	// sentence: beside the exact sentence, only the latter is an error
	// (the former may be prose about the login node).
	altered, alteredCopy := 0, 0
	d.eachBlock(func(b *block) {
		exact, hostAfter := containsSentence(b)
		switch {
		case exact && !hostAfter:
			found = true
			return
		case exact && hostAfter, startsLikeSentence(b):
		case strings.Contains(b.folded, "noeud de login") || strings.Contains(b.folded, "noeud login"):
		default:
			return
		}
		if altered == 0 {
			altered = b.first
		}
		if alteredCopy == 0 && startsLikeSentence(b) {
			alteredCopy = b.first
		}
	})
	if found {
		altered = alteredCopy
	}
	if altered != 0 {
		r.add("altered-sentence", checklist.SevError, altered, "la phrase diffère de celle du cours : recopiez exactement « Connexion uniquement vers le nœud de login indiqué par les organisateurs. », sans nom de serveur")
		return
	}
	if !found {
		r.add("missing-sentence", checklist.SevError, 0, "la phrase manque : recopiez « Connexion uniquement vers le nœud de login indiqué par les organisateurs. »")
	}
}

// startsLikeSentence: a line or a sentence of the block opens with
// "connexion", as a copy of the sentence would.
func startsLikeSentence(b *block) bool {
	for i, w := range b.words {
		if w == "connexion" && (i == 0 || b.edge(i) || strings.Contains(".!?:", b.words[i-1])) {
			return true
		}
	}
	return false
}

// containsSentence finds the sentence as whole words, starting a line or
// following a sentence end or a colon, and ending a line or followed by a
// full stop. hostAfter reports a host name written after it in the block.
func containsSentence(b *block) (exact, hostAfter bool) {
	ws := b.words
	want := sentenceWords()
	n := len(want)
	for i := 0; i+n <= len(ws); i++ {
		match := true
		for j := 0; j < n; j++ {
			if ws[i+j] != want[j] {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		if i > 0 && !b.edge(i) && !strings.Contains(".!?:", ws[i-1]) {
			continue
		}
		end := i + n
		switch {
		case end == len(ws):
			return true, false
		case ws[end] == "." || ws[end] == "!":
			return true, hostLike(ws[end+1:])
		case b.edge(end):
			return true, hostLike(ws[end:])
		}
	}
	return false, false
}

// fileExtensions end words that look like host names but are files.
func isFileExtension(w string) bool {
	switch w {
	case "pub", "md", "txt", "yaml", "yml", "sbatch", "out", "sh", "json":
		return true
	}
	return false
}

// hostLike spots a host name or address among the words after the
// sentence: "romeo.univ-reims.fr", "10.0.0.1", "kim@login".
func hostLike(ws []string) bool {
	for i := 0; i+2 < len(ws); i++ {
		if ws[i+1] == "@" && isWordish(ws[i]) && isWordish(ws[i+2]) {
			return true
		}
		if ws[i+1] == "." && isWordish(ws[i]) && isWordish(ws[i+2]) && !isFileExtension(ws[i+2]) {
			return true
		}
	}
	return false
}

func isWordish(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return isWordRune(r)
}
