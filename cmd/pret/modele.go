package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/onboarding"
	"github.com/romeo-pret/pret/templates"
)

// modeleOptions are what `pret modele` is given.
type modeleOptions struct {
	app  *app
	path string // the file to write; its base name picks the model
}

// newModeleCmd runs runF, when not nil, instead of runModele (gh's NewCmdX).
func newModeleCmd(a *app, runF func(*modeleOptions) error) *cobra.Command {
	opts := &modeleOptions{app: a}
	return &cobra.Command{
		Use:   "modele FICHIER",
		Short: "Écrire sommeil.sbatch ou sommeil-job.yaml tels que dans les notes",
		Long: `Écrit le script sbatch des notes (huit lignes) ou le Job Kubernetes des
notes, depuis les modèles intégrés. Un fichier existant n'est jamais
remplacé.`,
		Example: `  pret modele sommeil.sbatch
  pret modele rendu/sommeil-job.yaml`,
		Args: func(cmd *cobra.Command, args []string) error {
			hint := "pret modele " + strings.Join(templates.ModelNames(), " ou pret modele ")
			switch {
			case len(args) > 1:
				return usageError(hint, "un seul fichier à la fois : %s en trop", termtext.Escape(strings.Join(args[1:], " ")))
			case len(args) == 0 || args[0] == "":
				return usageError(hint, "donnez le fichier à écrire")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.path = args[0]
			return pick(runF, runModele)(opts)
		},
	}
}

func runModele(opts *modeleOptions) error {
	a, path := opts.app, opts.path
	if err := onboarding.CheckOutputs(a.cfg.Key, onboarding.Output{Path: path, Setting: "le fichier à écrire"}); err != nil {
		return err
	}
	data, ok := templates.Model(filepath.Base(path))
	if !ok {
		return usageError("les modèles : "+strings.Join(templates.ModelNames(), ", "), "pas de modèle pour %s", termtext.Escape(filepath.Base(path)))
	}
	err := guarded(func() error { return onboarding.Protected(a.cfg.Key).WriteNew(path, data, 0o644) })
	switch {
	case errors.Is(err, safefile.ErrExists):
		return refusedError("renommez-le d'abord si vous voulez le modèle des notes", "%s existe déjà ; il n'est pas remplacé", path)
	case errors.Is(err, safefile.ErrSymlink):
		return refusedError("retirez ce lien si vous voulez le modèle des notes, ou nommez un autre fichier", "%s non écrit : %s", path, safefile.Reason(err))
	case err != nil:
		return refusedError("vérifiez que le dossier existe et que vous pouvez y écrire", "%s non écrit : %s", path, safefile.Reason(err))
	}
	fmt.Fprintf(a.io.Out, "%s écrit, tel que dans les notes\n", termtext.Escape(path))
	return nil
}
