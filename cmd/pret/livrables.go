package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/checklist/livrables"
	"github.com/romeo-pret/pret/checklist/sbatch"
	"github.com/romeo-pret/pret/internal/termtext"
)

// livrablesOptions are what `pret livrables` is given.
type livrablesOptions struct {
	app        *app
	report     reportFlags
	dir        string // "." unless given
	submitting bool
	wait       time.Duration
}

// newLivrablesCmd runs runF, when not nil, instead of runLivrables (gh's NewCmdX).
func newLivrablesCmd(a *app, runF func(*livrablesOptions) error) *cobra.Command {
	opts := &livrablesOptions{app: a, dir: "."}
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
		Args: maxArgs(1, "donnez un seul dossier"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.dir = args[0]
			}
			if opts.wait <= 0 {
				return usageError("donnez une durée positive, par exemple 3m ou 90s", "--attente %s : la durée doit être positive", opts.wait)
			}
			return pick(runF, func(o *livrablesOptions) error { return runLivrables(cmd.Context(), o) })(opts)
		},
	}
	opts.report.add(c, checklist.Formats)
	c.Flags().BoolVar(&opts.submitting, "soumettre", false, "si sinfo répond : soumettre sommeil.sbatch une fois et suivre le job")
	c.Flags().DurationVar(&opts.wait, "attente", 3*time.Minute, "avec --soumettre : `DURÉE` d'attente de l'état R et de la ligne de hostname (3m, 90s)")
	return c
}

func runLivrables(ctx context.Context, opts *livrablesOptions) error {
	a, dir, rf := opts.app, opts.dir, opts.report
	if st, err := os.Stat(dir); err != nil {
		return usageError("donnez le dossier des livrables", "dossier introuvable : %s", termtext.Escape(dir))
	} else if !st.IsDir() {
		return usageError("donnez le dossier qui contient sommeil.sbatch, pas un fichier", "%s n'est pas un dossier", termtext.Escape(dir))
	}
	files := livrables.Check(dir, livrables.Options{
		Given:  sbatch.Given{Partition: a.cfg.Partition, Account: a.cfg.Account},
		Access: acces.Rules{KeyName: a.cfg.Key.Name + ".pub", SessionDay: a.cfg.SessionDay, Today: a.cfg.Today},
	})
	var verdict error
	for i := range files {
		files[i].Valid = files[i].Valid && !(rf.strict && len(files[i].Problems) > 0)
		if !files[i].Valid {
			verdict = &silentExit{exitFailed}
		}
	}
	if err := writeHuman(a.io, rf.format, func(w io.Writer) error {
		return checklist.WriteFilesReport(w, rf.format, checklist.FilesReport{Name: "pret livrables", Files: files, All: true, Style: checklist.Style{Color: a.io.Color()}, Strict: rf.strict})
	}); err != nil {
		return err
	}
	if opts.submitting {
		return cmp.Or(submit(ctx, a.io, dir, files[0], opts.wait), verdict)
	}
	return verdict
}

// submit runs sinfo, sbatch and squeue, never scancel.
func submit(ctx context.Context, ios *iostreams, dir string, script checklist.FileResult, wait time.Duration) error {
	eff := script.Effective
	if eff == nil {
		return refusedError("« pret modele sommeil.sbatch » l'écrit", "pas de sommeil.sbatch à soumettre")
	}
	host, _ := os.Hostname()
	s := livrables.Submitter{
		Dir: dir, Output: eff.Output, Out: ios.Out, Hostname: host, Timeout: wait, Poll: time.Second,
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
		fmt.Fprintln(ios.Out, livrables.ErrNoSlurm.Error())
		return nil
	}
	if !eff.AcceptedBySbatch {
		return refusedError("corrigez les erreurs ci-dessus, puis relancez", "sbatch refuserait sommeil.sbatch : rien n'a été soumis")
	}
	err := s.Submit(ctx)
	if errors.Is(err, livrables.ErrNoSlurm) {
		fmt.Fprintln(ios.Out, termtext.Escape(err.Error()))
		return nil
	}
	if err != nil {
		return refusedError("squeue -u \"$USER\" montre où en est le job", "%s", err.Error())
	}
	return nil
}
