package main

import (
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/onboarding"
)

// cleOptions are what `pret cle` is given.
type cleOptions struct {
	app      *app
	passFile string // a file whose first line is the passphrase; - is stdin
	public   bool
}

// newCleCmd runs runF, when not nil, instead of runCle (gh's NewCmdX).
func newCleCmd(a *app, runF func(*cleOptions) error) *cobra.Command {
	opts := &cleOptions{app: a}
	c := &cobra.Command{
		Use:     "cle [--passphrase-file FICHIER] [--publique]",
		Aliases: []string{"key"},
		Short:   "Créer la clé ed25519, ou garder celle qui existe ; afficher son empreinte",
		Long: `Crée ~/.ssh/id_ed25519_romeo (ed25519, chiffrée par une passphrase) et
sa clé publique id_ed25519_romeo.pub, puis affiche l'empreinte comme
« ssh-keygen -lf ». Une clé existante est conservée telle quelle et la
passphrase n'est pas demandée ; elle n'est jamais écrasée.

Avec --publique : affiche seulement la ligne de la clé publique
(« ssh-ed25519 AAAA… commentaire »), à envoyer si les organisateurs la
demandent ; elle est publique, l'afficher ne révèle rien. Aucune clé n'est
créée.

La passphrase est demandée deux fois dans le terminal, sans écho. Sans
terminal, donnez-la dans un fichier (sa première ligne) ou sur l'entrée
standard avec « --passphrase-file - ». Aucune option ni variable
d'environnement ne prend la passphrase elle-même.`,
		Example: `  pret cle
  pret cle --publique
  pret cle --passphrase-file - < fichier-protege
  PRET_CLE_DOSSIER=/tmp/essai pret cle`,
		RunE: func(*cobra.Command, []string) error { return pick(runF, runCle)(opts) },
	}
	pathFlag(c.Flags(), &opts.passFile, "passphrase-file", "lire la passphrase dans ce `FICHIER` (première ligne ; - pour l'entrée standard)")
	c.Flags().BoolVar(&opts.public, "publique", false, "afficher seulement la ligne de la clé publique, sans rien créer")
	return c
}

// runCle creates the key, or keeps the one there, and prints its line.
func runCle(opts *cleOptions) error {
	key, ios := opts.app.cfg.Key, opts.app.io
	if opts.public {
		return runClePublic(key, opts.passFile, ios)
	}
	if err := mustExist(opts.passFile); opts.passFile != "" && opts.passFile != "-" && err != nil {
		return err
	}
	source := func() ([]byte, error) {
		switch {
		// "-" on a terminal would show it: asked echo off, or refused.
		case (opts.passFile == "" || opts.passFile == "-") && ios.Interactive():
			return onboarding.AskPassphrase(ios.Prompter(), ios.Out)
		case opts.passFile != "":
			return newPassphraseFromArg(opts.passFile, ios)
		}
		return nil, usageError(
			"sans terminal, donnez la passphrase par un fichier : pret cle --passphrase-file FICHIER (ou - pour l'entrée standard)",
			"la clé %s n'existe pas et aucun terminal ne permet de demander sa passphrase", termtext.Escape(key.PrivatePath()))
	}
	res, err := onboarding.EnsureKey(key, rand.Reader, source, guarded)
	if err != nil {
		return err
	}
	res.Say(ios.Out, key, " (protégée par votre passphrase)")
	for _, w := range res.Warnings {
		fmt.Fprintf(ios.Err, "pret: attention : %s\n", termtext.Escape(w.Msg))
		if w.Hint != "" {
			fmt.Fprintf(ios.Err, "pret: conseil : %s\n", termtext.Escape(w.Hint))
		}
	}
	fmt.Fprintln(ios.Out, termtext.Escape(res.Line))
	return nil
}

// runClePublic prints the .pub line, or one rebuilt from the private key.
func runClePublic(store keys.Store, passFile string, ios *iostreams) error {
	if passFile != "" {
		return usageError("pret cle --publique, sans --passphrase-file", "--publique ne crée rien : --passphrase-file n'y sert pas")
	}
	st, err := store.Inspect()
	if err != nil {
		return err
	}
	pub := st.Public()
	if st.Kind != keys.Present || pub == nil {
		return refusedError("créez-la avec « pret cle »", "pas de clé à %s : aucune clé publique à afficher", store.PrivatePath())
	}
	comment := ""
	switch {
	case st.PubMatches():
		comment = st.Pub.Comment
	case st.Private != nil:
		comment = st.Private.Comment
	}
	// The comment comes from a file: escaped, like every such string.
	_, err = fmt.Fprintln(ios.Out, termtext.Escape(strings.TrimSuffix(string(keys.PublicLine(pub, comment)), "\n")))
	return err
}
