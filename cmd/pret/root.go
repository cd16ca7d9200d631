package main

// Adding a command: newXCmd(a *app) in x.go, returning usageError (exit
// 2) or another error; add it to rootCommand and TestCommandsInProcess.

import (
	"bytes"
	"fmt"
	"io"

	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// app is what the commands share: streams, viper, configuration.
type app struct {
	io         *iostreams
	v          *viper.Viper
	configFlag string
	cfg        *Config
}

func newApp(ios *iostreams) *app { return &app{io: ios, v: viper.New()} }

const rootLong = `pret prépare la séance ROMEO du jeudi 5 novembre 2026, de 9h30 à 12h.

Lancé seul, pret est un assistant : il crée la clé ~/.ssh/id_ed25519_romeo
avec une passphrase (ou garde celle qui existe, sans jamais l'écraser),
affiche son empreinte, note la date de la demande du compte d'accès (ou de
la vérification qu'il est ouvert) et écrit acces.md.

pret ne se connecte jamais nulle part et ne devine jamais le nom du nœud de
login : il vient des organisateurs.

Codes de sortie : 0 fait ; 1 contrôle échoué, action refusée ou erreur
inattendue ; 2 mauvaise utilisation (option, valeur, configuration) ;
129 terminal fermé (SIGHUP) ; 130 interrompu (Ctrl-C) ; 143 arrêté (SIGTERM).`

const rootExample = `  pret                          # l'assistant, dans un terminal
  pret cle                      # créer ou garder la clé
  pret acces --statut demande   # noter la demande et écrire acces.md
  pret verifier                 # la liste de contrôle, sans rien modifier
  pret valider rendus/          # organisateurs : valider des acces.md`

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:                   "pret",
		Short:                 "Prêt pour la séance ROMEO : clé ed25519, compte d'accès, acces.md",
		Long:                  rootLong,
		Example:               rootExample,
		Args:                  noArgs,
		DisableFlagsInUseLine: true,
		SilenceErrors:         true,
		SilenceUsage:          true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWizard(&assistantOptions{app: a})
		},
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if !needsConfig(cmd) {
				return nil
			}
			cfg, warning, err := loadConfig(a.v, a.configFlag)
			if warning != "" {
				fmt.Fprintf(a.io.Err, "pret: attention : %s\n", termtext.Escape(warning))
			}
			a.cfg = cfg
			return err
		},
	}
	root.SuggestionsMinimumDistance = 2
	// completion is pret's own command, with French help.
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetHelpCommand(newHelpCmd(a))
	root.Version = versionLine()
	root.SetVersionTemplate("{{.Version}}\n")
	root.Flags().BoolP("version", "v", false, "afficher la version de pret")
	pathFlag(root.PersistentFlags(), &a.configFlag, "config", "`FICHIER` de configuration (défaut : $XDG_CONFIG_HOME/pret/config.yaml)")
	root.PersistentFlags().BoolP("help", "h", false, "afficher cette aide")
	a.bindConfigFlags(root)
	root.SetFlagErrorFunc(flagError)
	root.SetUsageTemplate(usageTemplate)
	a.wrapHelp(root)
	a.addCommands(root)
	return root
}

// wrapHelp wraps help at word boundaries on a narrow terminal.
func (a *app) wrapHelp(root *cobra.Command) {
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		var buf bytes.Buffer
		c.SetOut(&buf)
		help(c, args)
		c.SetOut(a.io.Out)
		io.WriteString(a.io.Out, a.io.Wrap(buf.String()))
	})
}

func (a *app) addCommands(root *cobra.Command) {
	root.AddCommand(
		newAssistantCmd(a, nil),
		newCleCmd(a, nil),
		newEmpreinteCmd(a, nil),
		newAccesCmd(a, nil),
		newSSHConfigCmd(a),
		newSignerCmd(a, nil),
		newVerifierCmd(a, nil),
		newValiderCmd(a, nil),
		newLivrablesCmd(a, nil),
		newModeleCmd(a, nil),
		newSunkCmd(a, nil),
		newVersionCmd(a),
		newCompletionCmd(a),
		newManCmd(a),
	)
	// SuggestionsFor reads the distance on each command (0 unset); no Args is noArgs.
	for _, c := range root.Commands() {
		c.SuggestionsMinimumDistance = 2
		if c.Args == nil {
			c.Args = noArgs
		}
	}
	frenchUseLines(root)
}

// frenchUseLines: cobra ends a usage line with "[flags]" unless told not
// to, on every command, those below a command too (completion bash).
func frenchUseLines(c *cobra.Command) {
	c.DisableFlagsInUseLine = true
	for _, sub := range c.Commands() {
		frenchUseLines(sub)
	}
}

// needsConfig: a broken config must not hide the version, the help.
func needsConfig(cmd *cobra.Command) bool {
	for c := cmd; c != nil; c = c.Parent() {
		switch c.Name() {
		case "version", "help", "completion", "man":
			return false
		}
	}
	return true
}

// noArgs is cobra's Args for a command that takes no argument, in French.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		if cmd.HasParent() {
			return usageError(fmt.Sprintf("« %s --help » montre comment l'appeler", cmd.CommandPath()), "%s ne prend rien après son nom ; reçu en trop : « %s »", cmd.CommandPath(), termtext.Escape(args[0]))
		}
		return usageError(didYouMean(cmd.SuggestionsFor(args[0]), "« pret --help » liste les commandes"), "commande inconnue : « %s »", termtext.Escape(args[0]))
	}
	return nil
}

// didYouMean is cobra's "Did you mean this?" in French.
func didYouMean(names []string, hint string) string {
	if len(names) == 0 {
		return hint
	}
	for i, n := range names {
		names[i] = "« " + n + " »"
	}
	return "vouliez-vous dire " + frenchList(names) + " ?"
}

func maxArgs(n int, hint string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return usageError(hint, "%s : %d chemins donnés, %d au plus", cmd.CommandPath(), len(args), n)
		}
		return nil
	}
}

// pick is runF when a test gives one (gh's NewCmdX(f, runF): the test
// sees the options the command line gives), else the command's run.
func pick[T any](runF, run func(T) error) func(T) error {
	if runF != nil {
		return runF
	}
	return run
}
