package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/onboarding"
)

// settings gives the onboarding steps their plain values.
func settings(c *Config) (onboarding.Settings, error) {
	s := onboarding.Settings{
		Session:   onboarding.Session{Title: c.SessionTitle, Day: c.SessionDay, Start: c.SessionStart, End: c.SessionEnd},
		Store:     c.Key,
		File:      c.AccessFile,
		StatePath: c.StatePath,
		Today:     c.Today,
	}
	if c.AccessModel != "" {
		f, err := os.Open(c.AccessModel)
		if err != nil {
			return s, usageError("corrigez acces.modele, ou videz-le pour le modèle intégré", "modèle d'acces.md introuvable : %s", c.AccessModel)
		}
		defer f.Close()
		text, err := io.ReadAll(io.LimitReader(f, 1<<20))
		if err != nil {
			return s, usageError("", "modèle d'acces.md illisible : %s", c.AccessModel)
		}
		s.Template = string(text)
	}
	return s, nil
}

func parseStatus(s string) (string, bool) {
	switch checklist.Fold(strings.TrimSpace(s)) {
	case "demande":
		return onboarding.StatusRequested, true
	case "verifie":
		return onboarding.StatusVerified, true
	}
	return "", false
}

// accesOptions is what `pret acces` takes from its flags and the configuration.
type accesOptions struct {
	Config *Config
	Status string // demande or verifie; asked on a terminal when empty
	Date   string // as typed; empty is today
	Force  bool
	// Sign signs acces.md right after writing it (signature.md).
	Sign     bool
	PassFile string // with Sign: the passphrase's file; - is stdin
}

func newAccesCmd(a *app) *cobra.Command {
	opts := &accesOptions{}
	c := &cobra.Command{
		Use:     "acces [--statut demande|verifie] [--date AAAA-MM-JJ] [--force] [--signer]",
		Aliases: []string{"access"},
		Short:   "Noter la date du compte d'accès et écrire acces.md",
		Long: `Note la date de la demande du compte d'accès (--statut demande), ou la
date à laquelle vous avez vérifié qu'il est ouvert (--statut verifie), puis
écrit acces.md avec ses quatre éléments : la date, le chemin de la clé
publique, l'empreinte avec le type ED25519, et la phrase du cours.

La date est celle du jour par défaut ; elle ne peut pas être dans le futur.
Un acces.md au contenu différent n'est remplacé qu'après un oui dans le
terminal, ou avec --force. Il faut la clé : « pret cle ».

Avec --signer, acces.md est signé juste après (comme « pret signer ») : la
passphrase est demandée dans le terminal, ou lue avec --passphrase-file.`,
		Example: `  pret acces --statut demande
  pret acces --statut verifie --date 2026-10-23
  pret acces --statut demande --force
  pret acces --statut demande --signer`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Config = a.cfg
			return runAcces(cmd.Context(), opts, a.io)
		},
	}
	choiceFlag(c.Flags(), &opts.Status, "statut", "", "statut", []string{"demande", "verifie"}, "`STATUT` : demande (date de la demande) ou verifie (date de la vérification du compte ouvert)")
	stringFlag(c.Flags(), &opts.Date, "date", "", "la date, `AAAA-MM-JJ` (défaut : aujourd'hui)")
	c.Flags().BoolVar(&opts.Force, "force", false, "remplacer un acces.md au contenu différent sans demander")
	c.Flags().BoolVar(&opts.Sign, "signer", false, "signer acces.md juste après l'avoir écrit (voir « pret signer »)")
	pathFlag(c.Flags(), &opts.PassFile, "passphrase-file", "", "avec --signer : lire la passphrase dans ce `FICHIER` (première ligne ; - pour l'entrée standard)")
	return c
}

func runAcces(ctx context.Context, opts *accesOptions, ios *iostreams) error {
	status, date, force := opts.Status, opts.Date, opts.Force
	s, err := settings(opts.Config)
	if err != nil {
		return err
	}
	if opts.PassFile != "" && !opts.Sign {
		return usageError("ajoutez --signer pour signer acces.md après l'avoir écrit", "--passphrase-file ne sert qu'avec --signer")
	}
	if opts.Sign {
		// Checked before anything is written: a run that cannot get the
		// passphrase must not leave a half-done job.
		if err := checkPassSource(opts.PassFile, ios, "pret acces --signer"); err != nil {
			return err
		}
	}
	if status == "" {
		if !ios.Interactive() {
			return usageError("pret acces --statut demande (ou --statut verifie si le compte est déjà ouvert)", "sans terminal, --statut est obligatoire")
		}
		i, err := ios.Prompter().Select("Avez-vous déjà un compte d'accès ouvert ?", []string{"Oui, il est ouvert", "Non, je l'ai demandé"}, 1, "")
		if err != nil {
			return err
		}
		status = map[bool]string{true: "verifie", false: "demande"}[i == 0]
	}
	st, ok := parseStatus(status)
	if !ok {
		return usageError("--statut demande ou --statut verifie", "statut inconnu : %q", status)
	}
	day := s.Today
	if date != "" {
		if day, err = onboarding.ParseDay(date); err != nil {
			return usageError("--date AAAA-MM-JJ, par exemple --date 2026-10-20", "%v", err)
		}
	}
	plan, err := onboarding.PlanAccess(s, st == onboarding.StatusVerified, day)
	if err != nil {
		return err
	}
	if plan.Warning != "" {
		fmt.Fprintf(ios.Err, "pret: attention : %s\n", plan.Warning)
	}
	if plan.Status == onboarding.FileDifferent && !force {
		if !ios.Interactive() {
			return refusedError("relisez-le, puis relancez avec --force pour le remplacer",
				"%s existe déjà avec un autre contenu ; il n'est pas remplacé", s.File)
		}
		i, err := ios.Prompter().Select(fmt.Sprintf("%s existe déjà avec un autre contenu. Le remplacer ?", s.File), []string{"Oui", "Non"}, 1, "")
		if err != nil {
			return err
		}
		if i != 0 {
			return refusedError("relancez avec --force pour le remplacer", "%s conservé tel quel ; rien n'a été noté", s.File)
		}
	}
	if err := guarded(func() error { return plan.Apply(s) }); err != nil {
		return err
	}
	what := "Demande du compte d'accès notée"
	if st == onboarding.StatusVerified {
		what = "Vérification du compte d'accès notée"
	}
	fmt.Fprintf(ios.Out, "%s : %s\n", what, day.Format("2006-01-02"))
	if plan.Status == onboarding.FileSame {
		fmt.Fprintf(ios.Out, "%s est déjà à jour ; il n'a pas été touché\n", s.File)
	} else {
		fmt.Fprintf(ios.Out, "acces.md écrit : %s\n", s.File)
	}
	fmt.Fprintln(ios.Out, plan.Key)
	if opts.Sign {
		return signAccess(opts.Config, s.File, opts.PassFile, ios)
	}
	return nil
}
