package main

import (
	"context"
	"os"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/learner"
	"github.com/romeo-pret/pret/onboarding"
)

// verifierOptions is what `pret verifier` takes from its flags and the
// configuration.
type verifierOptions struct {
	Config *Config
	Report reportFlags
}

func newVerifierCmd(a *app) *cobra.Command {
	opts := &verifierOptions{}
	c := &cobra.Command{
		Use:     "verifier [--format texte|json|junit] [--strict]",
		Aliases: []string{"check"},
		Short:   "La liste de contrôle de l'apprenant (lecture seule, sans question)",
		Long: `Vérifie, sans rien modifier et sans rien demander : la clé (présente,
ed25519, protégée, droits, .pub), la date notée, acces.md (présent, valide,
conforme à la clé), la date de la séance, et si sinfo ou kubectl sont
installés (pour information ; ils ne sont jamais lancés).

Code de sortie 0 si tout passe (avertissements permis, sauf --strict), 1
sinon. Formats json et junit pour la CI.`,
		Example: `  pret verifier
  pret verifier --format json
  pret verifier --format junit > pret.xml`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Config = a.cfg
			return runVerifier(cmd.Context(), opts, a.io)
		},
	}
	opts.Report.add(c)
	return c
}

func runVerifier(ctx context.Context, opts *verifierOptions, ios *iostreams) error {
	if err := opts.Report.check(); err != nil {
		return err
	}
	report, err := learnerReport(opts.Config)
	if err != nil {
		return err
	}
	return writeReport(ios, report, opts.Report)
}

// learnerReport is the checklist of `pret verifier`, also the wizard's
// last step.
func learnerReport(cfg *Config) (*checklist.Report, error) {
	state, err := onboarding.LoadState(cfg.StatePath)
	if err != nil {
		return nil, err
	}
	home, _ := os.UserHomeDir()
	l := learner.Learner{
		Store:      cfg.Key,
		AccessFile: cfg.AccessFile,
		SessionDay: cfg.SessionDay,
		Today:      cfg.Today,
		Home:       home,
		LookPath:   exec.LookPath,
	}
	if last := state.Last(); last != nil {
		l.AccessStatus, l.AccessDate = last.Status, last.Date
	}
	return l.Check(), nil
}
