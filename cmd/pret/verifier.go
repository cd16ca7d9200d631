package main

import (
	"errors"
	"fmt"
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

func newVerifierCmd(a *app) *cobra.Command {
	var rf reportFlags
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
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVerifier(a.cfg, rf, a.io)
		},
	}
	rf.add(c)
	return c
}

func runVerifier(cfg *Config, rf reportFlags, ios *iostreams) error {
	s, err := settings(cfg)
	if err != nil {
		return err
	}
	s.File = recordedAccessFile(cfg, s.File)
	report, err := learnerReport(cfg, s.File)
	if err != nil {
		return err
	}
	if err := writeReport(ios, report, rf); err != nil {
		return err
	}
	// Everything passes: say what comes next (texte only; json and junit
	// are read by programs).
	if rf.format == "texte" {
		fmt.Fprintln(ios.Out)
		io.WriteString(ios.Out, ios.Wrap(onboarding.NextSteps(onboarding.Next{AccessFile: s.File, Channel: cfg.Channel, Store: s.Store, Home: s.Home,
			GOOS: runtime.GOOS, Session: s.Session, Today: s.Today})))
	}
	return nil
}

// recordedAccessFile is where to look for acces.md: the configured one,
// or, when it is absent, the one the wizard last wrote in another folder
// (the state remembers it).
func recordedAccessFile(cfg *Config, configured string) string {
	if _, err := os.Lstat(configured); !errors.Is(err, fs.ErrNotExist) {
		return configured
	}
	st, err := onboarding.LoadState(cfg.StatePath)
	if err != nil || st.File == "" {
		return configured
	}
	if fi, err := os.Stat(st.File); err == nil && fi.Mode().IsRegular() {
		return st.File
	}
	return configured
}

// learnerReport is `pret verifier`'s checklist, also the wizard's last
// step, for the acces.md at accessFile (the configured one, or where the
// wizard wrote it).
func learnerReport(cfg *Config, accessFile string) (*checklist.Report, error) {
	state, err := onboarding.LoadState(cfg.StatePath)
	var serr *onboarding.StateError
	if errors.As(err, &serr) {
		state = &onboarding.State{}
	} else if err != nil {
		return nil, err
	}
	home, _ := os.UserHomeDir()
	l := learner.Learner{
		Store:      cfg.Key,
		AccessFile: accessFile,
		SessionDay: cfg.SessionDay,
		Today:      cfg.Today,
		Home:       home,
		LookPath:   exec.LookPath,
	}
	if last, _, ok := state.Latest(""); ok {
		l.AccessStatus, l.AccessDate = last.Status, last.Date
	}
	report := l.Check()
	if serr != nil {
		// The check reads the state: an unreadable one is its failure,
		// said with the path, not "nothing recorded".
		for i := range report.Checks {
			if c := &report.Checks[i]; c.ID == "access-date" {
				c.Status, c.Message, c.Fix = checklist.Fail, serr.Error(), serr.Hint()
			}
		}
	}
	return report, nil
}
