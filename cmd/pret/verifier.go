package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/checklist/learner"
	"github.com/romeo-pret/pret/onboarding"
)

type reportFlags struct {
	format string
	strict bool
}

func (f *reportFlags) add(c *cobra.Command) {
	c.Flags().StringVar(&f.format, "format", "texte", "`FORMAT` de sortie : texte, json ou junit")
	c.Flags().BoolVar(&f.strict, "strict", false, "compter les avertissements comme des erreurs")
}

// writeReport prints a checklist in the chosen format; the exit code is 1
// unless it passes (warnings count with --strict).
func (a *app) writeReport(report *checklist.Report, f reportFlags) error {
	if err := checklist.WriteReport(a.stdout, f.format, report, a.style()); err != nil {
		return err
	}
	if !report.OK(f.strict) {
		return &silentExit{onboarding.ExitRefused}
	}
	return nil
}

// writeFiles prints validated files; the exit code is 1 if one is
// invalid (with --strict, a warning makes a file invalid).
func (a *app) writeFiles(name string, files []checklist.FileResult, f reportFlags) error {
	invalid := false
	for i := range files {
		if f.strict && len(files[i].Problems) > 0 {
			files[i].Valid = false
		}
		invalid = invalid || !files[i].Valid
	}
	if err := checklist.WriteFiles(a.stdout, f.format, name, files, a.style()); err != nil {
		return err
	}
	if invalid {
		return &silentExit{onboarding.ExitRefused}
	}
	return nil
}

func (f *reportFlags) check() error {
	if !slices.Contains(checklist.Formats, f.format) {
		return usageError("--format texte, json ou junit", "format inconnu : %q", f.format)
	}
	return nil
}

// style colours text only on a terminal, and never with NO_COLOR set.
func (a *app) style() checklist.Style {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return checklist.Style{}
	}
	f, ok := a.stdout.(*os.File)
	return checklist.Style{Color: ok && term.IsTerminal(int(f.Fd()))}
}

func (a *app) verifierCommand() *cobra.Command {
	var rf reportFlags
	c := &cobra.Command{
		Use:     "verifier [--format texte|json|junit] [--strict]",
		Aliases: []string{"check"},
		Short:   "La liste de contrôle de l'apprenant (lecture seule, sans question)",
		Long: `Vérifie, sans rien modifier et sans rien demander : la clé (présente,
ed25519, protégée, droits, .pub), la date notée, acces.md (présent, valide,
conforme à la clé), la date de la séance, et si sinfo ou kubectl sont
installés (pour information ; ils ne sont jamais lancés).

Code de sortie 0 si tout passe (avertissements permis, sauf --strict), 1
sinon. Formats json et junit pour la CI.`,
		Example: `  pret verifier
  pret verifier --format json
  pret verifier --format junit > pret.xml`,
		Args: a.noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := rf.check(); err != nil {
				return err
			}
			report, err := a.learnerReport()
			if err != nil {
				return err
			}
			return a.writeReport(report, rf)
		},
	}
	rf.add(c)
	return c
}

func (a *app) learnerReport() (*checklist.Report, error) {
	state, err := onboarding.LoadState(a.cfg.StatePath)
	if err != nil {
		return nil, err
	}
	home, _ := os.UserHomeDir()
	l := learner.Learner{
		Store:      a.cfg.Key,
		AccessFile: a.cfg.AccessFile,
		SessionDay: a.cfg.SessionDay,
		Today:      a.cfg.Today,
		Home:       home,
		LookPath:   exec.LookPath,
	}
	if last := state.Last(); last != nil {
		l.AccessStatus, l.AccessDate = last.Status, last.Date
	}
	return l.Check(), nil
}

func (a *app) validerCommand() *cobra.Command {
	var rf reportFlags
	var workers int
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
			if err := rf.check(); err != nil {
				return err
			}
			if len(args) == 0 {
				args = []string{"."}
			}
			for _, p := range args {
				if err := mustExist(p); err != nil {
					return err
				}
			}
			rules := acces.Rules{KeyName: a.cfg.Key.Name + ".pub", SessionDay: a.cfg.SessionDay, Today: a.cfg.Today}
			files, err := acces.ValidatePaths(args, rules, workers)
			if err != nil {
				return usageError("vérifiez les chemins donnés", "%v", err)
			}
			if len(files) == 0 {
				fmt.Fprintf(a.stderr, "pret: attention : aucun acces.md trouvé dans %s\n", strings.Join(args, ", "))
			}
			return a.writeFiles("pret valider", files, rf)
		},
	}
	rf.add(c)
	c.Flags().IntVar(&workers, "paralleles", 0, "`N` fichiers lus en parallèle (défaut : un par cœur)")
	return c
}
