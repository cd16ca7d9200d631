package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/keys"
)

// empreinteOptions are what `pret empreinte` is given.
type empreinteOptions struct {
	app  *app
	path string // "" the configured key, "-" standard input
	art  bool
}

// newEmpreinteCmd runs runF, when not nil, instead of runEmpreinte (gh's NewCmdX).
func newEmpreinteCmd(a *app, runF func(*empreinteOptions) error) *cobra.Command {
	opts := &empreinteOptions{app: a}
	c := &cobra.Command{
		Use:     "empreinte [FICHIER] [--art]",
		Aliases: []string{"fingerprint"},
		Short:   "Afficher l'empreinte d'une clé, comme « ssh-keygen -lf »",
		Long: `Affiche la ligne d'empreinte d'une clé publique, ou d'une clé privée dont
le .pub est à côté, exactement comme « ssh-keygen -lf FICHIER » : un
certificat (-cert.pub) donne l'empreinte de la clé certifiée, un fichier
authorized_keys ou known_hosts une ligne par clé, « - » lit l'entrée
standard. Une clé privée chiffrée se lit sans sa passphrase. Sans FICHIER :
la clé configurée. Les caractères de contrôle d'un commentaire sont
affichés échappés (\033).`,
		Example: `  pret empreinte
  pret empreinte ~/.ssh/id_ed25519_romeo.pub
  pret empreinte --art
  cat id_ed25519_romeo.pub | pret empreinte -`,
		Args: maxArgs(1, "donnez un seul fichier"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.path = args[0]
			}
			return pick(runF, runEmpreinte)(opts)
		},
	}
	c.Flags().BoolVar(&opts.art, "art", false, "ajouter l'image aléatoire (randomart) de « ssh-keygen -lv »")
	return c
}

func runEmpreinte(opts *empreinteOptions) error {
	a, path := opts.app, opts.path
	switch {
	case path == "-":
		// Standard input, public keys only, as ssh-keygen -lf - reads it.
	case path != "":
		if err := mustExist(path); err != nil {
			return err
		}
	default:
		path = a.cfg.Key.PublicPath()
		if _, err := os.Stat(path); err != nil {
			path = a.cfg.Key.PrivatePath()
			if _, err := os.Stat(path); err != nil {
				return refusedError("créez-la avec « pret cle »", "aucune clé à %s", termtext.Escape(path))
			}
		}
	}
	fps, err := keys.FingerprintFile(keyFiles, path, a.io.In)
	if err != nil {
		name := path
		if path == "-" {
			name = "entrée standard"
		}
		msg := name + " : " + err.Error()
		if strings.HasPrefix(err.Error(), path+" : ") {
			msg = err.Error() // safefile's errors already name the file
		}
		return refusedError("donnez un fichier de clé SSH : la clé publique (.pub) ou la clé privée", "%s", termtext.Escape(msg))
	}
	for _, fp := range fps {
		// Escaped as ssh-keygen does (\033), bidi controls too.
		fmt.Fprintln(a.io.Out, termtext.Escape(fp.Line()))
		if opts.art {
			fmt.Fprint(a.io.Out, fp.Randomart())
		}
	}
	return nil
}
