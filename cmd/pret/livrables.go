package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/checklist/livrables"
	"github.com/romeo-pret/pret/checklist/sbatch"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/onboarding"
	"github.com/romeo-pret/pret/templates"
)

func (a *app) livrablesCommand() *cobra.Command {
	var rf reportFlags
	var submit bool
	var wait time.Duration
	c := &cobra.Command{
		Use:     "livrables [DOSSIER] [--format texte|json|junit] [--strict] [--soumettre]",
		Aliases: []string{"deliverables"},
		Short:   "Vérifier les livrables du module (sommeil.sbatch, explication.md, le Job…)",
		Long: `Lit les livrables du dossier (par défaut le dossier courant) comme sbatch et
l'API Kubernetes les liraient, sans cluster : sommeil.sbatch et
explication.md (ou lignes.md) sont obligatoires ; sommeil-job.yaml,
refus.md, decision.md, comparaison.md et acces.md sont vérifiés s'ils sont
là. Le format texte explique le script ligne par ligne. Ce sont des
vérifications de forme, à relire, jamais une note.

Avec --soumettre, et seulement si sinfo répond : soumet sommeil.sbatch une
fois, montre la ligne de squeue à l'état R, puis la ligne de hostname.
pret n'annule jamais le job. Sans Slurm, les deux fichiers suffisent.`,
		Example: `  pret livrables
  pret livrables rendu/ --format json
  pret livrables --soumettre`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError("donnez un seul dossier", "trop d'arguments : %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := rf.check(); err != nil {
				return err
			}
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				return usageError("donnez le dossier des livrables", "dossier introuvable : %s", dir)
			}
			opts := livrables.Options{
				Given:  sbatch.Given{Partition: a.cfg.Partition, Account: a.cfg.Account},
				Access: acces.Rules{KeyName: a.cfg.Key.Name + ".pub", SessionDay: a.cfg.SessionDay, Today: a.cfg.Today},
			}
			files := livrables.Check(dir, opts)
			verdict := a.writeFiles("pret livrables", files, rf)
			if submit {
				var se *silentExit
				if verdict != nil && !errors.As(verdict, &se) {
					return verdict
				}
				if err := a.submit(dir, files[0], wait); err != nil {
					return err
				}
			}
			return verdict
		},
	}
	rf.add(c)
	c.Flags().BoolVar(&submit, "soumettre", false, "si sinfo répond : soumettre sommeil.sbatch une fois et suivre le job")
	c.Flags().DurationVar(&wait, "attente", 3*time.Minute, "avec --soumettre : `DURÉE` d'attente de l'état R et de la ligne de hostname (3m, 90s)")
	return c
}

// submit is the one place pret runs Slurm's clients: sinfo, sbatch and
// squeue, never scancel.
func (a *app) submit(dir string, script checklist.FileResult, wait time.Duration) error {
	eff := script.Effective
	if eff == nil {
		return &onboarding.Error{Code: onboarding.ExitRefused, Msg: "pas de sommeil.sbatch à soumettre", Hint: "« pret modele sommeil.sbatch » l'écrit"}
	}
	host, _ := os.Hostname()
	s := livrables.Submitter{
		Dir: dir, Output: eff.Output, Out: a.stdout, Hostname: host, Timeout: wait, Poll: time.Second,
		Run: func(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
			cmd := exec.CommandContext(ctx, name, args...)
			cmd.Dir = dir
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil && stderr.Len() > 0 {
				err = fmt.Errorf("%w : %s", err, strings.TrimSpace(stderr.String()))
			}
			return out, err
		},
	}
	if _, err := exec.LookPath("sinfo"); err != nil {
		fmt.Fprintln(a.stdout, livrables.ErrNoSlurm.Error())
		return nil
	}
	if !eff.AcceptedBySbatch {
		return &onboarding.Error{Code: onboarding.ExitRefused, Msg: "sbatch refuserait sommeil.sbatch : rien n'a été soumis", Hint: "corrigez les erreurs ci-dessus, puis relancez"}
	}
	err := s.Submit(a.ctx)
	if errors.Is(err, livrables.ErrNoSlurm) {
		fmt.Fprintln(a.stdout, err.Error())
		return nil
	}
	if err != nil {
		return &onboarding.Error{Code: onboarding.ExitRefused, Msg: err.Error(), Hint: "squeue -u \"$USER\" montre où en est le job"}
	}
	return nil
}

func (a *app) modeleCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "modele FICHIER",
		Short: "Écrire sommeil.sbatch ou sommeil-job.yaml tels que dans les notes",
		Long: `Écrit le script sbatch des notes (huit lignes) ou le Job Kubernetes des
notes, depuis les modèles intégrés. Un fichier existant n'est jamais
remplacé.`,
		Example: `  pret modele sommeil.sbatch
  pret modele rendu/sommeil-job.yaml`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("pret modele "+strings.Join(templates.ModelNames(), " ou pret modele "), "donnez le fichier à écrire")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			data, ok := templates.Model(filepath.Base(path))
			if !ok {
				return usageError("les modèles : "+strings.Join(templates.ModelNames(), ", "), "pas de modèle pour %s", filepath.Base(path))
			}
			err := guarded(func() error { return keys.WriteNew(path, data, 0o644) })
			switch {
			case errors.Is(err, keys.ErrExists):
				return &onboarding.Error{Code: onboarding.ExitRefused, Msg: path + " existe déjà ; il n'est pas remplacé", Hint: "renommez-le d'abord si vous voulez le modèle des notes"}
			case err != nil:
				return &onboarding.Error{Code: onboarding.ExitRefused, Msg: err.Error(), Hint: "vérifiez le dossier"}
			}
			fmt.Fprintf(a.stdout, "%s écrit, tel que dans les notes\n", path)
			return nil
		},
	}
}
