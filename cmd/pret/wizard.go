package main

import (
	"crypto/rand"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/onboarding"
)

func (a *app) runWizard(cmd *cobra.Command, args []string) error {
	if !a.interactive() {
		return usageError(
			"sans terminal, utilisez : pret cle --passphrase-file FICHIER, pret acces --statut demande|verifie, pret verifier",
			"l'assistant a besoin d'un terminal pour poser ses questions")
	}
	s, err := a.settings()
	if err != nil {
		return err
	}
	w := &onboarding.Wizard{
		Settings: s,
		Channel:  a.cfg.Channel,
		P:        a.prompter(),
		Out:      a.stdout,
		Random:   rand.Reader,
		Guard:    guarded,
		Checklist: func() int {
			report, err := a.learnerReport()
			if err != nil {
				fmt.Fprintf(a.stderr, "pret: erreur : %v\n", err)
				return onboarding.ExitRefused
			}
			checklist.WriteReport(a.stdout, "texte", report, a.style())
			if !report.OK(false) {
				return onboarding.ExitRefused
			}
			return onboarding.ExitOK
		},
	}
	code, err := w.Run()
	if err != nil {
		return err
	}
	if code != 0 {
		return &silentExit{code}
	}
	return nil
}
