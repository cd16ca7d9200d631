package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/romeo-pret/pret/onboarding"
)

type app struct {
	ctx            context.Context
	stdin          *os.File
	stdout, stderr io.Writer
	configFlag     string
	cfg            *Config
}

const usageTemplate = `Utilisation :{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} COMMANDE [options]{{end}}{{if gt (len .Aliases) 0}}

Alias :
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Exemples :
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Commandes :{{range .Commands}}{{if .IsAvailableCommand}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Options :
{{.LocalFlags.FlagUsages | enFrancais | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Options communes :
{{.InheritedFlags.FlagUsages | enFrancais | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableSubCommands}}

« {{.CommandPath}} COMMANDE --help » détaille chaque commande.{{end}}
`

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "pret",
		Short: "Prêt pour la séance ROMEO : clé ed25519, compte d'accès, acces.md",
		Long: `pret prépare la séance ROMEO du jeudi 5 novembre 2026, de 9h30 à 12h.

Lancé seul, pret est un assistant : il crée la clé ~/.ssh/id_ed25519_romeo
avec une passphrase (ou garde celle qui existe, sans jamais l'écraser),
affiche son empreinte, note la date de la demande du compte d'accès (ou de
la vérification qu'il est ouvert) et écrit acces.md.

pret ne se connecte jamais nulle part et ne devine jamais le nom du nœud de
login : il vient des organisateurs.`,
		Example: `  pret                          # l'assistant, dans un terminal
  pret cle                      # créer ou garder la clé
  pret acces --statut demande   # noter la demande et écrire acces.md
  pret verifier                 # la liste de contrôle, sans rien modifier
  pret valider rendus/          # organisateurs : valider des acces.md`,
		Args:                  a.noArgs,
		DisableFlagsInUseLine: true,
		SilenceErrors:         true,
		SilenceUsage:          true,
		RunE:                  a.runWizard,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Name() == "version" {
				return nil
			}
			cfg, warnings, err := loadConfig(a.configFlag)
			if err != nil {
				return err
			}
			for _, w := range warnings {
				fmt.Fprintf(a.stderr, "pret: attention : %s\n", w)
			}
			a.cfg = cfg
			return nil
		},
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetHelpCommand(&cobra.Command{Hidden: true})
	root.PersistentFlags().StringVar(&a.configFlag, "config", "", "`FICHIER` de configuration (défaut : $XDG_CONFIG_HOME/pret/config.yaml)")
	root.PersistentFlags().BoolP("help", "h", false, "afficher cette aide")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError(fmt.Sprintf("« %s --help » liste les options", c.CommandPath()), "%s", frenchFlagError(err.Error()))
	})
	// pflag writes "(default …)" in its flag lists; the help is French.
	cobra.AddTemplateFunc("enFrancais", func(s string) string {
		return strings.ReplaceAll(s, " (default ", " (défaut : ")
	})
	root.SetUsageTemplate(usageTemplate)

	root.AddCommand(
		a.assistantCommand(),
		a.cleCommand(),
		a.empreinteCommand(),
		a.accesCommand(),
		a.verifierCommand(),
		a.validerCommand(),
		a.livrablesCommand(),
		a.modeleCommand(),
		a.sunkCommand(),
		versionCommand(),
	)
	for _, c := range root.Commands() {
		c.DisableFlagsInUseLine = true
		c.SilenceErrors, c.SilenceUsage = true, true
	}
	return root
}

func (a *app) noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError("« pret --help » liste les commandes", "commande inconnue : %q", args[0])
	}
	return nil
}

func (a *app) assistantCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "assistant",
		Short:   "L'assistant guidé (comme « pret » seul ; il faut un terminal)",
		Example: "  pret assistant",
		Args:    a.noArgs,
		RunE:    a.runWizard,
	}
}

// interactive reports whether questions can be asked.
func (a *app) interactive() bool {
	if !term.IsTerminal(int(a.stdin.Fd())) {
		return false
	}
	if f, ok := a.stdout.(*os.File); ok {
		return term.IsTerminal(int(f.Fd()))
	}
	return false
}

func (a *app) prompter() onboarding.Prompter {
	out, _ := a.stdout.(*os.File)
	return &onboarding.SurveyPrompter{In: a.stdin, Out: out, Err: a.stderr}
}

func (a *app) warn(w onboarding.Warning) {
	fmt.Fprintf(a.stderr, "pret: attention : %s\n", w.Msg)
	if w.Hint != "" {
		fmt.Fprintf(a.stderr, "pret: conseil : %s\n", w.Hint)
	}
}
