package main

import (
	"context"
	"crypto/rand"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/onboarding"
)

// assistantOptions is what the wizard needs; `pret` alone runs it too.
type assistantOptions struct {
	Config *Config
}

func (a *app) assistantOptions() *assistantOptions { return &assistantOptions{Config: a.cfg} }

func newAssistantCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "assistant",
		Short:   "L'assistant guidé (comme « pret » seul ; il faut un terminal)",
		Example: "  pret assistant",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWizard(cmd.Context(), a.assistantOptions(), a.io)
		},
	}
}

func runWizard(ctx context.Context, opts *assistantOptions, ios *iostreams) error {
	if !ios.Interactive() {
		return usageError(
			"sans terminal, utilisez : pret cle --passphrase-file FICHIER, pret acces --statut demande|verifie, pret verifier",
			"l'assistant a besoin d'un terminal pour poser ses questions")
	}
	s, err := settings(opts.Config)
	if err != nil {
		return err
	}
	w := &onboarding.Wizard{
		Settings: s,
		Channel:  opts.Config.Channel,
		P:        ios.Prompter(),
		Out:      ios.Out,
		Random:   rand.Reader,
		Guard:    guarded,
		Signer:   accessSigner(opts.Config, s.File),
		Checklist: func() error {
			report, err := learnerReport(opts.Config)
			if err != nil {
				return err
			}
			return writeReport(ios, report, reportFlags{format: "texte"})
		},
	}
	return w.Run()
}
