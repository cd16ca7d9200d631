package main

import (
	"crypto/rand"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/onboarding"
)

// signerOptions are what `pret signer` is given.
type signerOptions struct {
	app            *app
	file, passFile string // file: acces.fichier unless named
	named          bool   // file was given on the command line
}

// newSignerCmd runs runF, when not nil, instead of runSigner (gh's NewCmdX).
func newSignerCmd(a *app, runF func(*signerOptions) error) *cobra.Command {
	opts := &signerOptions{app: a}
	c := &cobra.Command{
		Use:     "signer [FICHIER] [--passphrase-file FICHIER]",
		Aliases: []string{"sign"},
		Short:   "Signer acces.md avec la clé : la preuve que vous l'avez et connaissez sa passphrase",
		Long: `Signe acces.md (par défaut celui de la configuration) avec la clé de la
séance, au format des signatures OpenSSH (ssh-keygen -Y, espace de noms
pret-acces). La signature, ajoutée à la fin du fichier après la ligne
<!-- pret:signature -->, prouve aux organisateurs que vous détenez la clé
et que vous vous souvenez de sa passphrase ; ils la vérifient avec
« pret valider --exiger-signature » ou avec OpenSSH seul.

La passphrase est demandée dans le terminal, sans écho (trois essais), ou
lue dans un fichier (sa première ligne) avec --passphrase-file ; « - » lit
l'entrée standard. La clé est déchiffrée en mémoire seulement. Le fichier
est réécrit en entier, ou pas du tout ; une ancienne signature est
remplacée.

Refus (code 1, fichier intact) : pas de clé, clé sans passphrase, acces.md
qui ne passe pas « pret valider », qui n'indique pas l'empreinte de cette
clé, dont le texte finit dans un bloc resté ouvert (code, <script>…), ou
passphrase incorrecte.`,
		Example: `  pret signer
  pret signer rendu/acces.md
  pret signer --passphrase-file - < fichier-protege`,
		Args: maxArgs(1, "pret signer [FICHIER] : un seul acces.md à la fois"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.named = len(args) == 1; opts.named {
				opts.file = args[0]
			}
			return pick(runF, runSigner)(opts)
		},
	}
	pathFlag(c.Flags(), &opts.passFile, "passphrase-file", "lire la passphrase dans ce `FICHIER` (première ligne ; - pour l'entrée standard)")
	return c
}

// runSigner refuses first what needs no passphrase, then signs.
func runSigner(opts *signerOptions) error {
	a, file := opts.app, opts.file
	if !opts.named {
		file = a.cfg.AccessFile
	}
	// The key guard first, even for a name that does not exist.
	if err := onboarding.CheckOutputs(a.cfg.Key, onboarding.Output{Path: file, Setting: "le fichier à signer"}); err != nil {
		return err
	}
	if err := mustExist(file); opts.named && err != nil {
		return err
	}
	if err := checkPassSource(opts.passFile, a.io, "pret signer"); err != nil {
		return err
	}
	return signAccess(a.cfg, file, opts.passFile, a.io)
}

// checkPassSource refuses early a run with no way to get the passphrase.
func checkPassSource(passFile string, ios *iostreams, command string) error {
	switch {
	case passFile != "" && passFile != "-":
		return mustExist(passFile)
	case passFile == "" && !ios.Interactive():
		return usageError(
			fmt.Sprintf("sans terminal, donnez la passphrase par un fichier : %s --passphrase-file FICHIER (ou - pour l'entrée standard)", command),
			"la signature demande la passphrase de la clé et aucun terminal ne permet de la demander")
	}
	return nil
}

// signAccess: every refusal first, then the passphrase, then the write.
func signAccess(cfg *Config, file, passFile string, ios *iostreams) error {
	plan, err := accessSigner(cfg, file).Prepare()
	if err != nil {
		return err
	}
	if passFile == "" {
		err = plan.SignAsking(ios.Prompter(), ios.Out, onboarding.SignTries)
	} else if pass, perr := passphraseFromArg(passFile, ios); perr != nil {
		return perr
	} else {
		err = plan.Sign(pass)
		clear(pass)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(ios.Out, "%s signé avec la clé %s\n", termtext.Escape(file), termtext.Escape(plan.Fingerprint()))
	return nil
}

func accessSigner(cfg *Config, file string) *onboarding.AccessSigner {
	return &onboarding.AccessSigner{Store: cfg.Key, File: file, Random: rand.Reader, Guard: guarded,
		SessionDay: cfg.SessionDay, Today: cfg.Today}
}
