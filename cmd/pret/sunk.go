package main

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/checklist/sunk"
	"github.com/romeo-pret/pret/internal/safefile"
)

type sunkOptions struct {
	Report                                     reportFlags
	Values, Policy, Pods, ConfigMap, Sandboxes string // files, and namespaces comma-separated
	Grace                                      int    // seconds
}

func newSunkCmd(a *app) *cobra.Command {
	opts := &sunkOptions{}
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
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSunk(opts, a.io)
		},
	}
	opts.Report.add(c)
	pathFlag(c.Flags(), &opts.Values, "valeurs", "`FICHIER` des valeurs Helm de la release Slurm")
	pathFlag(c.Flags(), &opts.Policy, "politique", "`FICHIER` de la politique de l'exécuteur (YAML ou JSON, ou runner.json)")
	pathFlag(c.Flags(), &opts.Pods, "pods", "facultatif : `FICHIER` de kubectl get pods … -l app.kubernetes.io/name=sunk-scheduler -o yaml")
	pathFlag(c.Flags(), &opts.ConfigMap, "configmap", "facultatif : `FICHIER` de la ConfigMap de l'ordonnanceur (SUNK ≥ 8.0), -o yaml")
	c.Flags().IntVar(&opts.Grace, "grace", 30, "délai de grâce des pods des bacs à sable, en `SECONDES`")
	c.Flags().Var(&checkedValue{p: &opts.Sandboxes, check: checkText, refused: "rouge\x1b[31m"}, "bacs-a-sable", "les namespace des bacs à sable, `NS,NS…`")
	return c
}

func runSunk(opts *sunkOptions, ios *iostreams) error {
	if opts.Values == "" || opts.Policy == "" {
		return usageError("pret sunk --valeurs values.yaml --politique slurm-policy.yaml", "--valeurs et --politique sont obligatoires")
	}
	if opts.Grace < 0 {
		return usageError("--grace 30 (défaut de Kubernetes), 300 pour un stockage à instantanés", "délai de grâce négatif : %d", opts.Grace)
	}
	in := sunk.Inputs{Grace: opts.Grace}
	for _, f := range []struct {
		flag, path string
		dst        *[]byte
	}{{"--valeurs", opts.Values, &in.Values}, {"--politique", opts.Policy, &in.Policy}, {"--pods", opts.Pods, &in.Pods}, {"--configmap", opts.ConfigMap, &in.ConfigMap}} {
		if f.path == "" {
			continue
		}
		if err := mustExist(f.path); err != nil {
			return err
		}
		data, err := safefile.Read(f.path, safefile.Kind{Name: "fichier", Max: acces.MaxAccessSize}, safefile.FollowLink)
		if errors.Is(err, safefile.ErrTooLarge) {
			return usageError("vérifiez le fichier", "%s %s illisible : plus de 1 Mio", f.flag, f.path)
		} else if err != nil {
			return usageError("vérifiez le fichier", "%s %s illisible : %v", f.flag, f.path, err)
		}
		*f.dst = data
	}
	for ns := range strings.SplitSeq(opts.Sandboxes, ",") {
		if ns = strings.TrimSpace(ns); ns != "" {
			in.Sandboxes = append(in.Sandboxes, ns)
		}
	}
	report, err := sunk.Check(in)
	var ie *sunk.InputError
	switch {
	case errors.As(err, &ie):
		return usageError("donnez le fichier tel que kubectl, cwic ou Helm l'écrivent", "%s", ie.Error())
	case err != nil:
		return err
	}
	return writeReport(ios, report, opts.Report)
}
