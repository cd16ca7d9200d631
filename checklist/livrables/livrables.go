// Package livrables checks the course's deliverables besides acces.md:
// the Kubernetes Job, the written answers, and the folder they sit in.
// Its checks are of form, worded as such ("à relire"), never a grade.
package livrables

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
	kjson "sigs.k8s.io/json"
	syaml "sigs.k8s.io/yaml"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/checklist/livrables/internal/jobapi"
	"github.com/romeo-pret/pret/checklist/sbatch"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/textfold"
)

type Options struct {
	Given  sbatch.Given // what the organisers handed out
	Access acces.Rules  // for acces.md
}

// Check reads a folder: one result per deliverable, missing required
// files included, in a fixed order.
func Check(dir string, opts Options) []checklist.FileResult {
	var out []checklist.FileResult
	add := func(name string, ps ...checklist.Problem) {
		valid := !slices.ContainsFunc(ps, func(p checklist.Problem) bool { return p.Severity == checklist.SevError })
		out = append(out, checklist.FileResult{Path: filepath.Join(dir, name), Problems: ps, Valid: valid})
	}
	// check reports whether the file exists. checklist.Guard empties
	// private key lines before any check can quote them.
	check := func(name string, fn func(string) []checklist.Problem) bool {
		data, err := safefile.Read(filepath.Join(dir, name), safefile.Kind{Name: "fichier", Max: acces.MaxAccessSize}, safefile.FollowLink)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return false
		case errors.Is(err, safefile.ErrTooLarge):
			add(name, checklist.Problem{Code: checklist.CodeTooLarge, Severity: checklist.SevError, Message: "fichier trop grand (plus de 1 Mio) : il n'a pas été lu"})
		case err != nil:
			// cli.md: the path and the reason are said in French.
			add(name, checklist.Problem{Code: checklist.CodeUnreadable, Severity: checklist.SevError, Message: "fichier illisible : " + safefile.Reason(err)})
		default:
			data, leaks := checklist.Guard(data)
			add(name, append(leaks, fn(string(data))...)...)
		}
		return true
	}
	var rep *sbatch.Report
	if !check("sommeil.sbatch", func(b string) []checklist.Problem {
		rep = sbatch.Check("sommeil.sbatch", []byte(b), opts.Given)
		return rep.Problems
	}) {
		add("sommeil.sbatch", checklist.Problem{Code: checklist.CodeSbatchMissing, Severity: checklist.SevError, Message: "pas de sommeil.sbatch : « pret modele sommeil.sbatch » écrit les huit lignes des notes"})
	} else if rep != nil {
		out[0].Effective, out[0].Explain = &rep.Effective, rep.Explain
	}
	explained := check("explication.md", CheckExplanation)
	if !check("lignes.md", func(s string) []checklist.Problem { return append(CheckExplanation(s), CheckLignesAnswers(s)...) }) && !explained {
		add("explication.md", checklist.Problem{Code: checklist.CodeExplicationMissing, Severity: checklist.SevError,
			Message: "ni explication.md ni lignes.md : une phrase par ligne du script, dans l'ordre, shebang compris"})
	}
	check("sommeil-job.yaml", func(s string) []checklist.Problem { return CheckJob([]byte(s)) })
	check("refus.md", CheckRefusal)
	check("decision.md", CheckDecision)
	check("comparaison.md", CheckComparison)
	if _, err := os.Stat(filepath.Join(dir, "acces.md")); err == nil {
		out = append(out, acces.ValidateFile(acces.TargetFor(filepath.Join(dir, "acces.md"), opts.Access.KeyName), opts.Access))
	}
	return out
}

// CheckJob decodes sommeil-job.yaml as the API server would; the kind is
// read first so that a Deployment is named as one.
func CheckJob(data []byte) []checklist.Problem {
	var p checklist.Problems
	oneDocument(&p, data)
	js, err := syaml.YAMLToJSONStrict(data)
	if err != nil {
		p.Add(checklist.CodeYAMLSyntax, checklist.SevError, 0, "YAML invalide : %s", checklist.YAMLError(err))
		return p
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &head); err != nil {
		p.Add(checklist.CodeYAMLSyntax, checklist.SevError, 0, "le fichier n'est pas un objet Kubernetes (apiVersion, kind, metadata, spec)")
		return p
	}
	if head.Kind == "Deployment" {
		p.Add(checklist.CodeJobKind, checklist.SevError, 0, "c'est un Deployment : son restartPolicy vaut Always, kubelet relance hostname; sleep 30 sans fin ; écrivez kind: Job")
		return p
	} else if head.Kind != "Job" {
		p.Add(checklist.CodeJobKind, checklist.SevError, 0, "kind: %q, pas Job", head.Kind)
		return p
	}
	if head.APIVersion != "batch/v1" {
		p.Add(checklist.CodeJobAPIVersion, checklist.SevError, 0, "apiVersion: %q ; un Job s'écrit apiVersion: batch/v1", head.APIVersion)
	}
	job, unknown, err := jobapi.Decode(js)
	if err != nil {
		p.Add(checklist.CodeYAMLSyntax, checklist.SevError, 0, "une valeur n'a pas le type attendu par l'API : %s", err)
		return p
	}
	for _, path := range unknown {
		p.Add(checklist.CodeYAMLUnknownField, checklist.SevError, 0, "champ inconnu de l'API Job (la casse compte) : %q", path)
	}
	if job.Metadata.Name != "sommeil" {
		p.Add(checklist.CodeJobName, checklist.SevError, 0, "metadata.name vaut %q ; le cours nomme le Job sommeil", job.Metadata.Name)
	}
	switch {
	case job.Spec.BackoffLimit == nil:
		p.Add(checklist.CodeJobBackoffLimit, checklist.SevError, 0, "backoffLimit absent : la valeur par défaut 6 autorise d'autres pods ; écrivez 0 (notes, projet de groupe) ou 1 (exercice 3)")
	case *job.Spec.BackoffLimit != 0 && *job.Spec.BackoffLimit != 1:
		p.Add(checklist.CodeJobBackoffLimit, checklist.SevError, 0, "backoffLimit vaut %d ; 0 dans les notes et le projet de groupe, 1 dans l'exercice 3", *job.Spec.BackoffLimit)
	}
	if d := job.Spec.ActiveDeadlineSeconds; d == nil {
		p.Add(checklist.CodeJobDeadline, checklist.SevError, 0, "activeDeadlineSeconds absent ; le cours demande 120")
	} else if *d != 120 {
		p.Add(checklist.CodeJobDeadline, checklist.SevError, 0, "activeDeadlineSeconds %d ; le cours demande 120", *d)
	}
	if rp := job.Spec.Template.Spec.RestartPolicy; rp != "Never" {
		p.Add(checklist.CodeJobRestartPolicy, checklist.SevError, 0, "restartPolicy vaut %q ; le cours demande Never (OnFailure relancerait le conteneur dans le même pod)", rp)
	}
	if containers := job.Spec.Template.Spec.Containers; len(containers) == 0 {
		p.Add(checklist.CodeJobCommand, checklist.SevError, 0, "aucun conteneur ; le Job des notes en a un, sommeil")
	} else {
		c := containers[0]
		if strings.Join(c.Command, "\x00") != "sh\x00-c\x00hostname; sleep 30" {
			p.Add(checklist.CodeJobCommand, checklist.SevError, 0, "command vaut %q ; le cours demande sh, -c, « hostname; sleep 30 »", c.Command)
		}
		if c.Image != "busybox:1.36" {
			p.Add(checklist.CodeJobImage, checklist.SevWarning, 0, "image %q : à relire, l'image doit fournir sh, hostname et sleep (le cours prend busybox:1.36)", c.Image)
		}
	}
	if pc := job.Spec.Template.Spec.PriorityClassName; pc != "" {
		p.Add(checklist.CodeJobPriorityClass, checklist.SevError, 0, "priorityClassName %q : le Job du module ne fixe pas de PriorityClass", pc)
	}
	for _, labels := range []map[string]string{job.Metadata.Labels, job.Spec.Template.Metadata.Labels} {
		if q, ok := labels["kueue.x-k8s.io/queue-name"]; ok {
			p.Add(checklist.CodeJobQueueLabel, checklist.SevError, 0, "label kueue.x-k8s.io/queue-name=%s : le module n'installe pas Kueue et le Job ne porte pas de label de file", q)
			break
		}
	}
	if job.Spec.Suspend != nil && *job.Spec.Suspend {
		p.Add(checklist.CodeJobSuspend, checklist.SevError, 0, "suspend: true : le Job ne démarrerait pas ; sans Kueue, rien ne le relâche")
	}
	return p
}

// oneDocument: kubectl apply -f creates every document of the file.
func oneDocument(p *checklist.Problems, data []byte) {
	switch line, err := secondDocument(data); {
	case err != nil:
		p.Add(checklist.CodeYAMLSecondDocument, checklist.SevError, 0, "un second document YAML suit le premier, et il n'est pas du YAML valide (%s) : kubectl apply -f le lirait aussi ; gardez le Job seul dans le fichier", checklist.YAMLError(err))
	case line > 0:
		p.Add(checklist.CodeYAMLSecondDocument, checklist.SevError, line, "un second document YAML commence ici : kubectl apply -f créerait aussi cet objet ; gardez le Job seul dans le fichier")
	}
}

// secondDocument finds, after the first document, one that holds
// something: its line, or the error that stops reading it. kubectl
// apply -f creates every document of the file, while the decoder of the
// Job reads the first only. An empty one (a last "---") creates nothing.
// The first document's own errors are the Job decoder's to say.
func secondDocument(data []byte) (line int, err error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for first := true; ; first = false {
		var doc yaml.Node
		switch err := dec.Decode(&doc); {
		case err == io.EOF || err != nil && first:
			return 0, nil
		case err != nil:
			return 0, err
		case !first && (len(doc.Content) != 1 || doc.Content[0].Tag != "!!null"):
			return doc.Line, nil
		}
	}
}

// subjects: what each line of sommeil.sbatch is about, named in order.
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

func mentions(folded string, words ...string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(folded, w) })
}

// CheckExplanation: one sentence per script line, in order.
func CheckExplanation(text string) []checklist.Problem {
	var p checklist.Problems
	f := textfold.Fold(text)
	pos := 0
	for i, s := range subjects {
		at := regexp.MustCompile(s.words).FindStringIndex(f[pos:])
		if at == nil {
			p.Add(checklist.CodeExplicationOrder, checklist.SevError, 0, "la ligne %d du script (%s) n'est pas expliquée à sa place : une phrase par ligne, dans l'ordre (à relire)", i+1, s.line)
			return p
		}
		pos += at[0] + 1
	}
	return p
}

// CheckLignesAnswers: the three short answers of exercise 1.
func CheckLignesAnswers(text string) []checklist.Problem {
	var p checklist.Problems
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
			p.Add(checklist.CodeLignesAnswers, checklist.SevWarning, 0, "réponse courte introuvable : %s (à relire)", a.question)
		}
	}
	return p
}

// CheckRefusal: refus.md names Kueue and says the Deployment restarts.
func CheckRefusal(text string) []checklist.Problem {
	var p checklist.Problems
	f := textfold.Fold(text)
	if !mentions(f, "kueue") {
		p.Add(checklist.CodeRefusKueue, checklist.SevError, 0, "refus.md ne nomme pas Kueue : une phrase le nomme et rappelle que le module ne l'installe pas (à relire)")
	}
	if !mentions(f, "relance", "redemarr", "recree", "restart", "boucle", "always", "recommence", "reprend") {
		p.Add(checklist.CodeRefusRestart, checklist.SevWarning, 0, "refus.md ne semble pas dire que le Deployment relance le conteneur quand sleep sort avec 0 (à relire)")
	}
	return p
}

// CheckDecision: job 51 is stopped alone, with scancel 51.
func CheckDecision(text string) []checklist.Problem {
	var p checklist.Problems
	switch {
	case regexp.MustCompile(`scancel\s+(-u|--user)\b`).MatchString(text):
		p.Add(checklist.CodeDecisionScancel, checklist.SevError, 0, "scancel -u annule tous les jobs de la personne : pour le job 51 seul, écrivez scancel 51 (à relire)")
	case !regexp.MustCompile(`scancel\s+51\b`).MatchString(text):
		p.Add(checklist.CodeDecisionScancel, checklist.SevError, 0, "la commande qui arrête seulement le job 51 manque : scancel 51 (à relire)")
	}
	return p
}

// CheckComparison: four paragraphs and a last sentence naming Kueue.
func CheckComparison(text string) []checklist.Problem {
	var p checklist.Problems
	var paragraphs []string
	for _, block := range regexp.MustCompile(`\n\s*\n`).Split(strings.ReplaceAll(text, "\r\n", "\n"), -1) {
		b := strings.TrimSpace(block)
		if b == "" || strings.HasPrefix(b, "#") && !strings.Contains(b, "\n") {
			continue // a heading alone is not a paragraph
		}
		paragraphs = append(paragraphs, b)
	}
	if len(paragraphs) < 4 {
		p.Add(checklist.CodeComparaisonParagraphs, checklist.SevError, 0, "%d paragraphe(s) : il en faut quatre, démarrage, arrêt, sortie, second passage (à relire)", len(paragraphs))
	}
	if len(paragraphs) == 0 || !mentions(textfold.Fold(paragraphs[len(paragraphs)-1]), "kueue") {
		p.Add(checklist.CodeComparaisonKueue, checklist.SevError, 0, "la dernière phrase ne nomme pas Kueue : elle dit que cette file n'est pas installée (à relire)")
	}
	return p
}
