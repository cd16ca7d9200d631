package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/onboarding"
)

func (a *app) empreinteCommand() *cobra.Command {
	var art bool
	c := &cobra.Command{
		Use:     "empreinte [FICHIER] [--art]",
		Aliases: []string{"fingerprint"},
		Short:   "Afficher l'empreinte d'une clé, comme « ssh-keygen -lf »",
		Long: `Affiche la ligne d'empreinte d'une clé publique, ou d'une clé privée dont
le .pub est à côté, exactement comme « ssh-keygen -lf FICHIER ». Une clé
privée chiffrée se lit sans sa passphrase. Sans FICHIER : la clé configurée.`,
		Example: `  pret empreinte
  pret empreinte ~/.ssh/id_ed25519_romeo.pub
  pret empreinte --art`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError("donnez un seul fichier", "trop d'arguments : %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			path := a.cfg.Key.PublicPath()
			if len(args) == 1 {
				path = args[0]
				if err := mustExist(path); err != nil {
					return err
				}
			} else if _, err := os.Stat(path); err != nil {
				path = a.cfg.Key.PrivatePath()
				if _, err := os.Stat(path); err != nil {
					return &onboarding.Error{Code: onboarding.ExitRefused,
						Msg:  fmt.Sprintf("aucune clé en %s", a.cfg.Key.PrivatePath()),
						Hint: "créez-la avec « pret cle »"}
				}
			}
			return a.runEmpreinte(path, art)
		},
	}
	c.Flags().BoolVar(&art, "art", false, "ajouter l'image aléatoire (randomart) de « ssh-keygen -lv »")
	return c
}

type fingerprinted struct {
	key  ssh.PublicKey
	line string
}

func (a *app) runEmpreinte(path string, art bool) error {
	lines, err := fingerprintFile(path)
	if err != nil {
		return &onboarding.Error{Code: onboarding.ExitRefused, Msg: fmt.Sprintf("%s : %v", path, err),
			Hint: "donnez un fichier de clé SSH : la clé publique (.pub) ou la clé privée"}
	}
	for _, l := range lines {
		fmt.Fprintln(a.stdout, l.line)
		if art {
			fmt.Fprint(a.stdout, keys.Randomart(l.key))
		}
	}
	return nil
}

// fingerprintFile follows ssh-keygen -lf: a public key file line by line;
// else a private key, whose comment comes from the .pub beside it (its
// path when that comment is empty), else from the key itself when it is
// not encrypted.
func fingerprintFile(path string) ([]fingerprinted, error) {
	data, err := keys.ReadFileFollow(path)
	if err != nil {
		return nil, err
	}
	if entries, err := keys.ParsePublic(data); err == nil {
		var out []fingerprinted
		for _, e := range entries {
			out = append(out, fingerprinted{e.Key, keys.FingerprintLine(e.Key, e.Comment)})
		}
		return out, nil
	}
	priv, err := keys.ParsePrivate(data)
	if err != nil {
		return nil, err
	}
	if priv.Public == nil {
		return nil, fmt.Errorf("clé %s chiffrée à l'ancien format PEM : sa partie publique est illisible sans passphrase", priv.LegacyType)
	}
	if pubData, err := keys.ReadFileFollow(path + ".pub"); err == nil {
		if entries, err := keys.ParsePublic(pubData); err == nil && bytes.Equal(entries[0].Key.Marshal(), priv.Public.Marshal()) {
			comment := entries[0].Comment
			if comment == "" {
				comment = path + ".pub"
			}
			return []fingerprinted{{priv.Public, keys.FingerprintLine(priv.Public, comment)}}, nil
		}
	}
	if priv.Encrypted {
		return []fingerprinted{{priv.Public, keys.FingerprintLine(priv.Public, "")}}, nil
	}
	// ssh-keygen prints an unencrypted key's own comment, even an empty one.
	line := fmt.Sprintf("%d %s %s (%s)", keys.Bits(priv.Public), ssh.FingerprintSHA256(priv.Public), priv.Comment, keys.TypeName(priv.Public))
	return []fingerprinted{{priv.Public, line}}, nil
}
