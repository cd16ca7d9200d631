// Package livrables checks the course's deliverables besides acces.md:
// the Kubernetes Job, the written answers, and the folder they sit in.
// Its checks are of form, worded as such ("à relire"), never a grade.
package livrables

import (
	"fmt"
	"strings"

	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/livrables/internal/jobapi"
)

type problems []checklist.Problem

func (p *problems) add(code string, sev checklist.Severity, format string, args ...any) {
	*p = append(*p, checklist.Problem{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...)})
}

// CheckJob decodes sommeil-job.yaml as the API server would: field names
// case-sensitive, unknown fields reported, the kind read first so that a
// Deployment is named as one.
func CheckJob(data []byte) []checklist.Problem {
	var p problems
	js, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		p.add("yaml-syntax", checklist.SevError, "YAML invalide : %s", checklist.YAMLError(err))
		return p
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &head); err != nil {
		p.add("yaml-syntax", checklist.SevError, "le fichier n'est pas un objet Kubernetes (apiVersion, kind, metadata, spec)")
		return p
	}
	if head.Kind != "Job" {
		msg := fmt.Sprintf("kind: %q, pas Job", head.Kind)
		if head.Kind == "Deployment" {
			msg = "c'est un Deployment : son restartPolicy vaut Always, kubelet relance hostname; sleep 30 sans fin ; écrivez kind: Job"
		}
		p.add("job-kind", checklist.SevError, "%s", msg)
		return p
	}
	if head.APIVersion != "batch/v1" {
		p.add("job-api-version", checklist.SevError, "apiVersion: %q ; un Job s'écrit apiVersion: batch/v1", head.APIVersion)
	}
	job, unknown, err := jobapi.Decode(js)
	if err != nil {
		p.add("yaml-syntax", checklist.SevError, "une valeur n'a pas le type attendu par l'API : %s", err)
		return p
	}
	for _, path := range unknown {
		p.add("yaml-unknown-field", checklist.SevError, "champ inconnu de l'API Job (la casse compte) : %q", path)
	}

	if job.Metadata.Name != "sommeil" {
		p.add("job-name", checklist.SevError, "metadata.name vaut %q ; le cours nomme le Job sommeil", job.Metadata.Name)
	}
	switch {
	case job.Spec.BackoffLimit == nil:
		p.add("job-backoff-limit", checklist.SevError, "backoffLimit absent : la valeur par défaut 6 autorise d'autres pods ; écrivez 0 (notes, projet de groupe) ou 1 (exercice 3)")
	case *job.Spec.BackoffLimit != 0 && *job.Spec.BackoffLimit != 1:
		p.add("job-backoff-limit", checklist.SevError, "backoffLimit vaut %d ; 0 dans les notes et le projet de groupe, 1 dans l'exercice 3", *job.Spec.BackoffLimit)
	}
	if d := job.Spec.ActiveDeadlineSeconds; d == nil || *d != 120 {
		got := "absent"
		if d != nil {
			got = fmt.Sprint(*d)
		}
		p.add("job-deadline", checklist.SevError, "activeDeadlineSeconds %s ; le cours demande 120", got)
	}
	if rp := job.Spec.Template.Spec.RestartPolicy; rp != "Never" {
		p.add("job-restart-policy", checklist.SevError, "restartPolicy vaut %q ; le cours demande Never (OnFailure relancerait le conteneur dans le même pod)", rp)
	}
	if containers := job.Spec.Template.Spec.Containers; len(containers) == 0 {
		p.add("job-command", checklist.SevError, "aucun conteneur ; le Job des notes en a un, sommeil")
	} else {
		c := containers[0]
		if strings.Join(c.Command, "\x00") != "sh\x00-c\x00hostname; sleep 30" {
			p.add("job-command", checklist.SevError, "command vaut %q ; le cours demande sh, -c, « hostname; sleep 30 »", c.Command)
		}
		if c.Image != "busybox:1.36" {
			p.add("job-image", checklist.SevWarning, "image %q : à relire, l'image doit fournir sh, hostname et sleep (le cours prend busybox:1.36)", c.Image)
		}
	}
	if pc := job.Spec.Template.Spec.PriorityClassName; pc != "" {
		p.add("job-priority-class", checklist.SevError, "priorityClassName %q : le Job du module ne fixe pas de PriorityClass", pc)
	}
	for _, labels := range []map[string]string{job.Metadata.Labels, job.Spec.Template.Metadata.Labels} {
		if q, ok := labels["kueue.x-k8s.io/queue-name"]; ok {
			p.add("job-queue-label", checklist.SevError, "label kueue.x-k8s.io/queue-name=%s : le module n'installe pas Kueue et le Job ne porte pas de label de file", q)
			break
		}
	}
	if job.Spec.Suspend != nil && *job.Spec.Suspend {
		p.add("job-suspend", checklist.SevError, "suspend: true : le Job ne démarrerait pas ; sans Kueue, rien ne le relâche")
	}
	return p
}
