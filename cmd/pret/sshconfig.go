package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/onboarding"
)

func newSSHConfigCmd(a *app) *cobra.Command {
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
		RunE: func(cmd *cobra.Command, args []string) error {
			home, _ := os.UserHomeDir()
			// Never wrapped: a file's text. Raw paths: SSHConfig quotes
			// them as ssh reads them, then escapes them for the terminal.
			_, err := io.WriteString(a.io.Out, onboarding.SSHConfig(a.cfg.Key.PrivatePath(), home))
			return err
		},
	}
}
