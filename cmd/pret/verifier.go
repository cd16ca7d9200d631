package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/learner"
	"github.com/romeo-pret/pret/onboarding"
)

// verifierOptions are what `pret verifier` is given.
type verifierOptions struct {
	app    *app
	report reportFlags
}

// newVerifierCmd runs runF, when not nil, instead of runVerifier (gh's
// NewCmdX(f, runF): a test sees the options the command line gives).
func newVerifierCmd(a *app, runF func(*verifierOptions) error) *cobra.Command {
	opts := &verifierOptions{app: a}
	c := &cobra.Command{
		Use:     "verifier [--format texte|json|junit] [--strict]",
		Aliases: []string{"check"},
		Short:   "La liste de contrôle de l'apprenant (lecture seule, sans question)",
		Long: `Vérifie, sans rien modifier et sans rien demander : la clé (présente,
ed25519, protégée, droits, .pub), la date notée, acces.md (présent, valide,
conforme à la clé, signé par elle : « pret signer »), la date de la séance, et si sinfo ou kubectl sont
installés (pour information ; ils ne sont jamais lancés).

Code de sortie 0 si tout passe (avertissements permis, sauf --strict), 1
sinon. Formats json et junit pour la CI.`,
		Example: `  pret verifier
  pret verifier --format json
  pret verifier --format junit > pret.xml`,
		RunE: func(*cobra.Command, []string) error { return pick(runF, runVerifier)(opts) },
	}
	opts.report.add(c, checklist.Formats)
	return c
}

func runVerifier(opts *verifierOptions) error {
	a := opts.app
	s, err := settings(a.cfg)
	if err != nil {
		return err
	}
	state, stateErr := onboarding.LoadState(a.cfg.StatePath) // once: the file and the date
	// Absent: the one the wizard last wrote (the state remembers it).
	if _, err := os.Lstat(s.File); errors.Is(err, fs.ErrNotExist) && stateErr == nil && state.File != "" {
		if fi, err := os.Stat(state.File); err == nil && fi.Mode().IsRegular() {
			s.File = state.File
		}
	}
	if err := writeReport(a.io, stateReport(a.cfg, s.File, state, stateErr), opts.report); err != nil {
		return err
	}
	// Everything passes: what comes next (texte only).
	if opts.report.format == "texte" {
		io.WriteString(a.io.Out, "\n"+a.io.Wrap(onboarding.NextSteps(onboarding.Next{AccessFile: s.File, Channel: a.cfg.Channel, Store: s.Store, Home: s.Home,
			GOOS: runtime.GOOS, Session: s.Session, Today: s.Today})))
	}
	return nil
}

// stateReport is `pret verifier`'s checklist, and the wizard's last, on
// the state the command read once.
func stateReport(cfg *Config, accessFile string, state *onboarding.State, err error) *checklist.Report {
	serr, _ := err.(*onboarding.StateError)
	home, _ := os.UserHomeDir()
	l := learner.Learner{Store: cfg.Key, AccessFile: accessFile, SessionDay: cfg.SessionDay, Today: cfg.Today, Home: home, LookPath: exec.LookPath}
	if last, _, ok := state.Latest(""); ok {
		l.AccessStatus, l.AccessDate = last.Status, last.Date
	}
	report := l.Check()
	// An unreadable state is this check's failure, not "nothing recorded".
	for i := range report.Checks {
		if c := &report.Checks[i]; serr != nil && c.ID == "access-date" {
			c.Status, c.Message, c.Fix = checklist.Fail, serr.Error(), serr.Hint()
		}
	}
	return report
}
