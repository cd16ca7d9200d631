package livrables

import (
	"regexp"
	"slices"
	"strings"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/textfold"
)

// subjects are what each line of sommeil.sbatch is about, in order: an
// explanation names them in the same order, by one of the pattern's words.
var subjects = []struct{ line, words string }{
	{"#!/bin/bash", "bash|#!"},
	{"--job-name", "job-name"},
	{"--output", "output|%j"},
	{"--time", "time"},
	{"--cpus-per-task", "cpus-per-task"},
	{"--mem", "mem"},
	{"hostname", "hostname"},
	{"sleep 30", "sleep"},
}

// mentions reports whether the folded text holds one of the words.
func mentions(folded string, words ...string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(folded, w) })
}

// CheckExplanation: one sentence per script line, in order, shebang
// included.
func CheckExplanation(text string) []checklist.Problem {
	var p problems
	f := textfold.Fold(text)
	pos := 0
	for i, s := range subjects {
		at := regexp.MustCompile(s.words).FindStringIndex(f[pos:])
		if at == nil {
			p.add("explication-order", checklist.SevError, "la ligne %d du script (%s) n'est pas expliquée à sa place : une phrase par ligne, dans l'ordre (à relire)", i+1, s.line)
			return p
		}
		pos += at[0] + 1
	}
	return p
}

// CheckLignesAnswers looks for the three short answers of exercise 1.
func CheckLignesAnswers(text string) []checklist.Problem {
	var p problems
	f := textfold.Fold(text)
	for _, a := range []struct {
		question string
		any      []string
	}{
		{"une option #SBATCH écrite après hostname ne compte plus", []string{"ne compte plus", "ne compte pas", "ignor", "plus lue", "pas lue", "pas prise en compte", "plus prise en compte", "n'est plus lu", "n'est pas lu"}},
		{"--time=00:00:30 est retenu comme 1 minute", []string{"1 minute", "une minute", "1 min"}},
		{"sans --error, sortie et erreur vont dans le fichier de --output", []string{"meme fichier", "--error", "erreur standard", "stderr", "sortie d'erreur"}},
	} {
		if !mentions(f, a.any...) {
			p.add("lignes-answers", checklist.SevWarning, "réponse courte introuvable : %s (à relire)", a.question)
		}
	}
	return p
}

// CheckRefusal: refus.md names Kueue and says the Deployment restarts.
func CheckRefusal(text string) []checklist.Problem {
	var p problems
	f := textfold.Fold(text)
	if !mentions(f, "kueue") {
		p.add("refus-kueue", checklist.SevError, "refus.md ne nomme pas Kueue : une phrase le nomme et rappelle que le module ne l'installe pas (à relire)")
	}
	if !mentions(f, "relance", "redemarr", "recree", "restart", "boucle", "always", "recommence", "reprend") {
		p.add("refus-restart", checklist.SevWarning, "refus.md ne semble pas dire que le Deployment relance le conteneur quand sleep sort avec 0 (à relire)")
	}
	return p
}

// CheckDecision: job 51 is stopped alone, with scancel 51.
func CheckDecision(text string) []checklist.Problem {
	var p problems
	switch {
	case regexp.MustCompile(`scancel\s+(-u|--user)\b`).MatchString(text):
		p.add("decision-scancel", checklist.SevError, "scancel -u annule tous les jobs de la personne : pour le job 51 seul, écrivez scancel 51 (à relire)")
	case !regexp.MustCompile(`scancel\s+51\b`).MatchString(text):
		p.add("decision-scancel", checklist.SevError, "la commande qui arrête seulement le job 51 manque : scancel 51 (à relire)")
	}
	return p
}

// CheckComparison: four paragraphs (start, stop, output, second run) and
// a last sentence naming Kueue.
func CheckComparison(text string) []checklist.Problem {
	var p problems
	var paragraphs []string
	for _, block := range regexp.MustCompile(`\n\s*\n`).Split(strings.ReplaceAll(text, "\r\n", "\n"), -1) {
		b := strings.TrimSpace(block)
		if b == "" || strings.HasPrefix(b, "#") && !strings.Contains(b, "\n") {
			continue // a heading alone is not a paragraph
		}
		paragraphs = append(paragraphs, b)
	}
	if len(paragraphs) < 4 {
		p.add("comparaison-paragraphs", checklist.SevError, "%d paragraphe(s) : il en faut quatre, démarrage, arrêt, sortie, second passage (à relire)", len(paragraphs))
	}
	if len(paragraphs) == 0 || !mentions(textfold.Fold(paragraphs[len(paragraphs)-1]), "kueue") {
		p.add("comparaison-kueue", checklist.SevError, "la dernière phrase ne nomme pas Kueue : elle dit que cette file n'est pas installée (à relire)")
	}
	return p
}
