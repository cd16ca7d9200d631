package acces

import (
	"slices"
	"strings"
	"sync"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/textfold"
	"github.com/romeo-pret/pret/templates"
)

// The course's sentence as folded words, without its optional full stop.
var sentenceWords = sync.OnceValue(func() []textfold.Token {
	return words(textfold.Tokens(strings.TrimSuffix(templates.Sentence, ".")))
})

// sentenceRule looks for a block saying the sentence alone, a short label aside: text
// added around it ("Non.") changes what it says as much as a word inside it.
type sentenceRule struct {
	found bool
	// The first block that departs from the sentence, and the first that
	// starts like it: beside an exact copy, only the latter is an error.
	altered, alteredCopy int
	addedOnly            bool // altered holds the sentence with text around it
}

func (s *sentenceRule) visit(b *block, ws []textfold.Token) {
	want := sentenceWords()
	at := index(ws, want)
	if at >= 0 {
		before, after := ws[:at], ws[at+len(want):]
		if len(after) > 0 && after[0].Folded == "." {
			after = after[1:]
		}
		if len(after) == 0 && (len(before) == 0 || isLabel(before)) {
			s.found = true
		} else { // the first word added after it, else before it
			s.note(b.lineAt(slices.Concat(after, before)[0].Start), true, true)
		}
		return
	}
	// A copy gone wrong starts like the sentence or speaks of the login node.
	for i, w := range ws {
		if w.Folded == "connexion" && (i == 0 || isStop(ws[i-1].Folded) || i+1 < len(ws) && ws[i+1].Folded == "uniquement") {
			depart := i
			for depart < len(ws) && depart-i < len(want) && ws[depart].Folded == want[depart-i].Folded {
				depart++
			}
			if depart == len(ws) {
				depart-- // cut short: the words missing at its end
			}
			s.note(b.lineAt(ws[depart].Start), true, false)
			return
		}
	}
	for i := 0; i+1 < len(ws); i++ {
		if ws[i].Folded == "noeud" && (ws[i+1].Folded == "login" || ws[i+1].Folded == "de" && i+2 < len(ws) && ws[i+2].Folded == "login") {
			s.note(b.lineAt(ws[i].Start), false, false)
			return
		}
	}
}

func (s *sentenceRule) note(line int, copy, added bool) {
	if s.altered == 0 {
		s.altered, s.addedOnly = line, added
	}
	if copy && s.alteredCopy == 0 {
		s.alteredCopy = line
	}
}

func (s *sentenceRule) finish(r *Result) {
	const sentence = "« Connexion uniquement vers le nœud de login indiqué par les organisateurs. »"
	switch {
	case s.found && s.alteredCopy == 0:
	case s.found:
		r.add(checklist.CodeAlteredSentence, checklist.SevError, s.alteredCopy, "une seconde copie de la phrase diffère de celle du cours : gardez seulement %s, sans rien y changer", sentence)
	case s.altered > 0 && s.addedOnly:
		r.add(checklist.CodeAlteredSentence, checklist.SevError, s.altered, "du texte s'ajoute à la phrase dans le même paragraphe : mettez %s seule dans son paragraphe (une ligne vide avant et après), sans rien y ajouter", sentence)
	case s.altered > 0:
		r.add(checklist.CodeAlteredSentence, checklist.SevError, s.altered, "la phrase diffère de celle du cours : recopiez exactement %s, sans nom de serveur", sentence)
	default:
		r.add(checklist.CodeMissingSentence, checklist.SevError, 0, "la phrase manque : recopiez %s", sentence)
	}
}

func index(ws, want []textfold.Token) int {
	for i := 0; i+len(want) <= len(ws); i++ {
		if slices.EqualFunc(ws[i:i+len(want)], want, func(a, b textfold.Token) bool { return a.Folded == b.Folded }) {
			return i
		}
	}
	return -1
}

// isLabel: at most four words then a colon, no digit ("Phrase recopiée :").
func isLabel(ws []textfold.Token) bool {
	if len(ws) < 2 || len(ws) > 5 || ws[len(ws)-1].Folded != ":" {
		return false
	}
	for _, w := range ws[:len(ws)-1] {
		if !textfold.IsWord(w.Folded) || strings.ContainsAny(w.Folded, "0123456789") {
			return false
		}
	}
	return true
}

// isStop is a mark that ends a sentence or opens what follows it.
func isStop(w string) bool { return w == "." || w == "!" || w == "?" || w == ":" }
