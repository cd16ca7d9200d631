package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist/acces"
)

// validerOptions is what `pret valider` takes from its arguments, flags
// and configuration.
type validerOptions struct {
	Config  *Config
	Paths   []string // files and folders; empty is the current folder
	Report  reportFlags
	Workers int // files read in parallel; 0 is one per core
}

func newValiderCmd(a *app) *cobra.Command {
	opts := &validerOptions{}
	c := &cobra.Command{
		Use:     "valider [CHEMIN…] [--format texte|json|junit] [--strict]",
		Aliases: []string{"validate"},
		Short:   "Organisateurs : valider des fichiers acces.md",
		Long: `Valide les acces.md reçus : les dossiers sont parcourus à la recherche des
fichiers nommés acces.md ou accès.md (toute casse) ; un fichier nommé sur la
ligne de commande est lu quel que soit son nom. Sans CHEMIN : le dossier
courant.

Chaque problème a un code stable (missing-date, bad-fingerprint,
private-key-leak, …). Aucune sortie ne recopie une ligne de clé privée.
Une même empreinte dans deux fichiers est une erreur : deux personnes ne
partagent pas une clé. Code de sortie 1 si un fichier est invalide.`,
		Example: `  pret valider
  pret valider rendus/ --format json
  pret valider rendus/kim/acces.md --strict`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Config, opts.Paths = a.cfg, args
			return runValider(cmd.Context(), opts, a.io)
		},
	}
	opts.Report.add(c)
	c.Flags().IntVar(&opts.Workers, "paralleles", 0, "`N` fichiers lus en parallèle (défaut : un par cœur)")
	return c
}

func runValider(ctx context.Context, opts *validerOptions, ios *iostreams) error {
	if err := opts.Report.check(); err != nil {
		return err
	}
	paths := opts.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	for _, p := range paths {
		if err := mustExist(p); err != nil {
			return err
		}
	}
	cfg := opts.Config
	rules := acces.Rules{KeyName: cfg.Key.Name + ".pub", SessionDay: cfg.SessionDay, Today: cfg.Today}
	files, err := acces.ValidatePaths(paths, rules, opts.Workers)
	if err != nil {
		return usageError("vérifiez les chemins donnés", "%v", err)
	}
	if len(files) == 0 {
		fmt.Fprintf(ios.Err, "pret: attention : aucun acces.md trouvé dans %s\n", strings.Join(paths, ", "))
	}
	return writeFiles(ios, "pret valider", files, opts.Report)
}
