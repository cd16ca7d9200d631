package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/onboarding"
)

func (a *app) cleCommand() *cobra.Command {
	var passFile string
	c := &cobra.Command{
		Use:     "cle [--passphrase-file FICHIER]",
		Aliases: []string{"key"},
		Short:   "Créer la clé ed25519, ou garder celle qui existe ; afficher son empreinte",
		Long: `Crée ~/.ssh/id_ed25519_romeo (ed25519, chiffrée par une passphrase) et
sa clé publique id_ed25519_romeo.pub, puis affiche l'empreinte comme
« ssh-keygen -lf ». Une clé existante est conservée telle quelle et la
passphrase n'est pas demandée ; elle n'est jamais écrasée.

La passphrase est demandée deux fois dans le terminal, sans écho. Sans
terminal, donnez-la dans un fichier (sa première ligne) ou sur l'entrée
standard avec « --passphrase-file - ». Aucune option ni variable
d'environnement ne prend la passphrase elle-même.`,
		Example: `  pret cle
  pret cle --passphrase-file - < fichier-protege
  PRET_CLE_DOSSIER=/tmp/essai pret cle`,
		Args: a.noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runCle(passFile)
		},
	}
	c.Flags().StringVar(&passFile, "passphrase-file", "", "lire la passphrase dans ce `FICHIER` (première ligne ; - pour l'entrée standard)")
	return c
}

func (a *app) runCle(passFile string) error {
	if passFile != "" && passFile != "-" {
		if err := mustExist(passFile); err != nil {
			return err
		}
	}
	store := a.cfg.Key
	source := func() ([]byte, error) {
		switch {
		case passFile != "":
			return readPassphraseFile(passFile, a.stdin)
		case a.interactive():
			return onboarding.AskPassphrase(a.prompter(), a.stdout)
		}
		return nil, usageError(
			"sans terminal, donnez la passphrase par un fichier : pret cle --passphrase-file FICHIER (ou - pour l'entrée standard)",
			"la clé %s n'existe pas et aucun terminal ne permet de demander sa passphrase", store.PrivatePath())
	}
	res, err := onboarding.EnsureKey(store, rand.Reader, source, guarded)
	if err != nil {
		return err
	}
	a.reportKey(store, res)
	return nil
}

func (a *app) reportKey(store keys.Store, res *onboarding.KeyResult) {
	if res.Created {
		fmt.Fprintf(a.stdout, "Clé créée : %s (protégée par votre passphrase)\n", store.PrivatePath())
		fmt.Fprintf(a.stdout, "Clé publique : %s\n", store.PublicPath())
	} else {
		fmt.Fprintf(a.stdout, "Clé existante conservée : %s\n", store.PrivatePath())
	}
	if res.Rebuilt {
		fmt.Fprintf(a.stdout, "Clé publique recréée depuis la clé privée : %s\n", store.PublicPath())
	}
	for _, w := range res.Warnings {
		a.warn(w)
	}
	fmt.Fprintln(a.stdout, res.Line)
}

// readPassphraseFile returns the first line, its newline removed. The
// content never appears in an error.
func readPassphraseFile(path string, stdin io.Reader) ([]byte, error) {
	var r io.Reader = stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, usageError("vérifiez le chemin et les droits du fichier", "fichier de passphrase illisible : %s", path)
		}
		defer f.Close()
		r = f
	}
	line, err := bufio.NewReaderSize(io.LimitReader(r, 4096), 4096).ReadBytes('\n')
	if err != nil && err != io.EOF {
		return nil, usageError("", "lecture de la passphrase impossible")
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, nil
}
