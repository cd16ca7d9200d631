package main

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/keys"
)

// empreinteOptions is what `pret empreinte` takes from its arguments,
// flags and configuration.
type empreinteOptions struct {
	Config *Config
	Path   string // the key file; empty is the configured key
	Art    bool
}

func newEmpreinteCmd(a *app) *cobra.Command {
	opts := &empreinteOptions{}
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
		Args: maxArgs(1, "donnez un seul fichier"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Config, opts.Path = a.cfg, ""
			if len(args) == 1 {
				opts.Path = args[0]
			}
			return runEmpreinte(cmd.Context(), opts, a.io)
		},
	}
	c.Flags().BoolVar(&opts.Art, "art", false, "ajouter l'image aléatoire (randomart) de « ssh-keygen -lv »")
	return c
}

type fingerprinted struct {
	key  ssh.PublicKey
	line string
}

func runEmpreinte(ctx context.Context, opts *empreinteOptions, ios *iostreams) error {
	path := opts.Path
	if path != "" {
		if err := mustExist(path); err != nil {
			return err
		}
	} else {
		key := opts.Config.Key
		path = key.PublicPath()
		if _, err := os.Stat(path); err != nil {
			path = key.PrivatePath()
			if _, err := os.Stat(path); err != nil {
				return refusedError("créez-la avec « pret cle »", "aucune clé en %s", key.PrivatePath())
			}
		}
	}
	lines, err := fingerprintFile(path)
	if err != nil {
		return refusedError("donnez un fichier de clé SSH : la clé publique (.pub) ou la clé privée", "%s : %v", path, err)
	}
	for _, l := range lines {
		fmt.Fprintln(ios.Out, l.line)
		if opts.Art {
			fmt.Fprint(ios.Out, keys.Randomart(l.key))
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
