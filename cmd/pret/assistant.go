package main

import (
	"crypto/rand"
	"errors"
	"io"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/onboarding"
)

// assistantOptions are what `pret assistant` (and `pret` alone) is given.
type assistantOptions struct {
	app *app
}

// newAssistantCmd runs runF, when not nil, instead of runWizard (gh's NewCmdX).
func newAssistantCmd(a *app, runF func(*assistantOptions) error) *cobra.Command {
	opts := &assistantOptions{app: a}
	return &cobra.Command{
		Use:     "assistant",
		Short:   "L'assistant guidé (comme « pret » seul ; il faut un terminal)",
		Example: "  pret assistant",
		RunE:    func(*cobra.Command, []string) error { return pick(runF, runWizard)(opts) },
	}
}

// runWizard is `pret assistant`, and `pret` alone.
func runWizard(opts *assistantOptions) error {
	cfg, ios := opts.app.cfg, opts.app.io
	if !ios.Interactive() {
		return usageError(
			"sans terminal, utilisez : pret cle --passphrase-file FICHIER, pret acces --statut demande|verifie, pret verifier",
			"l'assistant a besoin d'un terminal pour poser ses questions")
	}
	s, err := settings(cfg)
	if err != nil {
		return err
	}
	return (&onboarding.Wizard{
		Settings: s,
		Channel:  cfg.Channel,
		P:        ios.Prompter(),
		Out:      wrappingWriter{ios},
		Random:   rand.Reader,
		Guard:    guarded,
		Signer:   accessSigner(cfg, s.File),
		Color:    ios.Color(),
		GOOS:     runtime.GOOS,
		Checklist: func(accessFile string, state *onboarding.State, serr *onboarding.StateError) error {
			var err error
			if serr != nil {
				err = serr // never a nil *StateError in an error
			}
			return finishedWizard(writeReport(ios, stateReport(cfg, accessFile, state, err), reportFlags{format: "texte"}))
		},
	}).Run()
}

// finishedWizard: a wizard that ran to its last screen exits 0 even when
// its checklist fails (`pret verifier` is the exit code scripts read).
func finishedWizard(err error) error {
	if _, ok := errors.AsType[*silentExit](err); ok {
		return nil
	}
	return err
}

// wrappingWriter wraps each write (the wizard's are whole lines).
type wrappingWriter struct{ ios *iostreams }

func (w wrappingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.ios.Out, w.ios.Wrap(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
