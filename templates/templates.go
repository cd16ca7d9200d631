// Package templates holds the embedded acces.md template, which it
// renders, and the notes' model files.
package templates

import (
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/template"
	"time"

	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys/leak"
)

// Sentence is the course's sentence, copied word for word into acces.md.
const Sentence = "Connexion uniquement vers le nœud de login indiqué par les organisateurs."

var (
	//go:embed acces.md.tmpl
	accesTemplate string
	//go:embed sommeil.sbatch
	sommeilSbatch []byte
	//go:embed sommeil-job.yaml
	sommeilJob []byte
)

// models are the notes' files that `pret modele` writes, by file name.
var models = map[string][]byte{"sommeil.sbatch": sommeilSbatch, "sommeil-job.yaml": sommeilJob}

// Model returns the notes' content for a deliverable's file name.
func Model(name string) ([]byte, bool) {
	b, ok := models[name]
	return slices.Clone(b), ok
}

// ModelNames lists the files `pret modele` knows.
func ModelNames() []string { return slices.Sorted(maps.Keys(models)) }

// Access is what acces.md states.
type Access struct {
	SessionTitle string    // "Utiliser ROMEO2025 et ses GPU pour le HPC et l'IA"
	SessionDay   time.Time // the civil day
	Start, End   string    // "09:30", "12:00"
	Verified     bool      // the account was checked open, not requested
	Date         time.Time // of the request or of the check
	PublicKey    string    // absolute path of the .pub
	Fingerprint  string    // the ssh-keygen -lf line
}

// Render fills text (the built-in template when empty). Unknown names are
// errors: an acces.md with a hole would be sent as is. A custom template
// is untrusted: walk bounds its time, boundedBuffer its output.
func Render(text string, a Access) ([]byte, error) {
	if text == "" {
		text = accesTemplate
	}
	if int64(len(text)) > safefile.Template.Max {
		return nil, fmt.Errorf("modèle d'acces.md trop grand (plus de 1 Mio)")
	}
	// A key pasted in a template would be copied into acces.md and quoted
	// by the parser's errors: refused before anything reads it.
	if lines := leak.Lines(text); len(lines) > 0 {
		return nil, fmt.Errorf("modèle d'acces.md refusé : il contient une clé privée (ligne %d et suivantes) ; retirez-la et considérez-la comme compromise", lines[0])
	}
	t, err := template.New("acces.md").Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("modèle d'acces.md invalide : %s", frenchTemplateError(err))
	}
	err = walk(t.Tree, t.Tree.Root)
	if len(t.Templates()) > 1 {
		err = errors.New("« define » et « block » ne sont pas permis ; écrivez le modèle d'un seul tenant")
	}
	if err != nil {
		return nil, fmt.Errorf("modèle d'acces.md refusé : %w", err)
	}
	data := map[string]any{
		"Titre":          a.SessionTitle,
		"Seance":         SessionWhen(a.SessionDay, a.Start, a.End),
		"LibelleDate":    "Date de la " + map[bool]string{true: "vérification", false: "demande"}[a.Verified] + " du compte d'accès",
		"Date":           a.Date.Format("2006-01-02"),
		"Statut":         map[bool]string{true: "verifie", false: "demande"}[a.Verified],
		"ClePublique":    a.PublicKey,
		"Empreinte":      a.Fingerprint,
		"Phrase":         Sentence,
		"SeanceDate":     a.SessionDay.Format("2006-01-02"),
		"SeanceJourLong": dates.Long(a.SessionDay),
	}
	buf := &boundedBuffer{max: int(safefile.Access.Max)}
	if err := t.Execute(buf, data); err != nil {
		if errors.Is(err, errTooLong) {
			return nil, fmt.Errorf("modèle d'acces.md : le résultat dépasse 1 Mio ; un acces.md tient sur une page")
		}
		return nil, fmt.Errorf("modèle d'acces.md : %s", frenchTemplateError(err))
	}
	return buf.Bytes(), nil
}

// SessionWhen is "jeudi 5 novembre 2026, 9h30–12h".
func SessionWhen(day time.Time, start, end string) string {
	return fmt.Sprintf("%s, %s–%s", dates.Long(day), frenchHour(start), frenchHour(end))
}

func frenchHour(hm string) string {
	h, m, ok := strings.Cut(hm, ":")
	if !ok {
		return hm
	}
	h = cmp.Or(strings.TrimLeft(h, "0"), "0")
	if m == "00" {
		return h + "h"
	}
	return h + "h" + m
}
