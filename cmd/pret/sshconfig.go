package main

import (
	"context"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/onboarding"
)

// sshConfigOptions is what `pret ssh-config` takes from the configuration.
type sshConfigOptions struct {
	Config *Config
}

func newSSHConfigCmd(a *app) *cobra.Command {
	opts := &sshConfigOptions{}
	return &cobra.Command{
		Use:   "ssh-config",
		Short: "Afficher le bloc à ajouter à ~/.ssh/config (pret ne l'écrit jamais)",
		Long: `Affiche le bloc « Host romeo » à copier dans ~/.ssh/config, pour la clé
de la séance. Le nom du nœud de login reste NOEUD-DE-LOGIN et l'identifiant
VOTRE-IDENTIFIANT : remplacez-les par ce que les organisateurs donneront.
pret ne devine jamais le nom d'une machine, n'écrit jamais ~/.ssh/config et
ne se connecte nulle part.`,
		Example: `  pret ssh-config
  pret ssh-config > bloc-romeo.txt`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Config = a.cfg
			return runSSHConfig(cmd.Context(), opts, a.io)
		},
	}
}

func runSSHConfig(ctx context.Context, opts *sshConfigOptions, ios *iostreams) error {
	home, _ := os.UserHomeDir()
	// Never wrapped: it is a file's text, to copy as it is. The key's
	// path and HOME come from the configuration and the environment:
	// escaped alike (so ~ still stands for HOME), a bidi control or an
	// escape sequence in them never reaches the terminal.
	block := onboarding.SSHConfig(checklist.Escape(opts.Config.Key.PrivatePath()), checklist.Escape(home))
	_, err := io.WriteString(ios.Out, block)
	return err
}
