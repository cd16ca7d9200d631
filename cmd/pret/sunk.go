package main

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/checklist/sunk"
	"github.com/romeo-pret/pret/internal/safefile"
)

// sunkOptions are what `pret sunk` is given: files, flags.
type sunkOptions struct {
	app                                        *app
	report                                     reportFlags
	values, policy, pods, configMap, sandboxes string // files; namespaces comma-separated
	grace                                      int    // seconds
}

// newSunkCmd runs runF, when not nil, instead of runSunk (gh's NewCmdX).
func newSunkCmd(a *app, runF func(*sunkOptions) error) *cobra.Command {
	opts := &sunkOptions{app: a}
	c := &cobra.Command{
		Use:   "sunk --valeurs FICHIER --politique FICHIER [--pods FICHIER] [--configmap FICHIER] [--grace SECONDES] [--bacs-a-sable NS,…]",
		Short: "Opérateurs : vérifier hors ligne les bacs à sable sur le SUNK Pod Scheduler",
		Long: `Vérifie, depuis des fichiers déjà là et sans rien lancer ni contacter, les
réglages qui placent les bacs à sable CoreWeave sur le SUNK Pod Scheduler :
l'ordonnanceur activé et nommé dans la politique de l'exécuteur, un KillWait
de Slurm assez long pour le délai de grâce des pods (grâce < KillWait − 5 s),
une portée qui voit les namespace des bacs à sable, des annotations bien
formées. Le nom de l'ordonnanceur n'est jamais deviné.`,
		Example: `  pret sunk --valeurs values.yaml --politique slurm-policy.yaml
  pret sunk --valeurs values.yaml --politique runner.json --pods pods.yaml --grace 300
  pret sunk --valeurs values.yaml --politique p.yaml --configmap cm.yaml --bacs-a-sable sb-kim,sb-lea --format junit`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.values == "" || opts.policy == "" {
				return usageError("pret sunk --valeurs values.yaml --politique slurm-policy.yaml", "--valeurs et --politique sont obligatoires")
			}
			if opts.grace < 0 {
				return usageError("--grace 30 (défaut de Kubernetes), 300 pour un stockage à instantanés", "délai de grâce négatif : %d", opts.grace)
			}
			return pick(runF, runSunk)(opts)
		},
	}
	opts.report.add(c, checklist.Formats)
	pathFlag(c.Flags(), &opts.values, "valeurs", "`FICHIER` des valeurs Helm de la release Slurm")
	pathFlag(c.Flags(), &opts.policy, "politique", "`FICHIER` de la politique de l'exécuteur (YAML ou JSON, ou runner.json)")
	pathFlag(c.Flags(), &opts.pods, "pods", "facultatif : `FICHIER` de kubectl get pods … -l app.kubernetes.io/name=sunk-scheduler -o yaml")
	pathFlag(c.Flags(), &opts.configMap, "configmap", "facultatif : `FICHIER` de la ConfigMap de l'ordonnanceur (SUNK ≥ 8.0), -o yaml")
	c.Flags().IntVar(&opts.grace, "grace", 30, "délai de grâce des pods des bacs à sable, en `SECONDES`")
	c.Flags().Var(&checkedValue{p: &opts.sandboxes, check: checkText}, "bacs-a-sable", "les namespace des bacs à sable, `NS,NS…`")
	return c
}

func runSunk(opts *sunkOptions) error {
	in, err := opts.inputs()
	if err != nil {
		return err
	}
	report, err := sunk.Check(in)
	if ie, ok := errors.AsType[*sunk.InputError](err); ok {
		return usageError("donnez le fichier tel que kubectl, cwic ou Helm l'écrivent", "%s", ie.Error())
	} else if err != nil {
		return err
	}
	return writeReport(opts.app.io, report, opts.report)
}

// inputs reads the files given, bounded, and splits the namespaces.
func (opts *sunkOptions) inputs() (sunk.Inputs, error) {
	in := sunk.Inputs{Grace: opts.grace}
	for _, f := range []struct {
		flag, path string
		dst        *[]byte
	}{{"--valeurs", opts.values, &in.Values}, {"--politique", opts.policy, &in.Policy}, {"--pods", opts.pods, &in.Pods}, {"--configmap", opts.configMap, &in.ConfigMap}} {
		if f.path == "" {
			continue
		}
		if err := mustExist(f.path); err != nil {
			return in, err
		}
		data, err := safefile.Read(f.path, safefile.Kind{Name: "fichier à vérifier", Max: acces.MaxAccessSize}, safefile.FollowLink)
		if err != nil {
			// There but not a file pret can read (a folder, a FIFO, too
			// large): exit 1 as for pret empreinte; only an absent path is
			// a usage error (cli.md). safefile's error names the path.
			return in, refusedError("donnez à "+f.flag+" un fichier ordinaire lisible, de 1 Mio au plus", "%s illisible : %v", f.flag, err)
		}
		*f.dst = data
	}
	for ns := range strings.SplitSeq(opts.sandboxes, ",") {
		if ns = strings.TrimSpace(ns); ns != "" {
			in.Sandboxes = append(in.Sandboxes, ns)
		}
	}
	return in, nil
}
