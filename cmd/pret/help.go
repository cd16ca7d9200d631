package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/romeo-pret/pret/internal/termtext"
)

// settingAnnotation marks the flags of config keys, listed apart.
const settingAnnotation = "pret-reglage"

const usageTemplate = `Utilisation :{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} COMMANDE [options]{{end}}{{if gt (len .Aliases) 0}}

Alias :
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Exemples :
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Commandes :{{range .Commands}}{{if .IsAvailableCommand}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{with localOptions .}}

Options :
{{.}}{{end}}{{with commonOptions .}}

Options communes :
{{.}}{{end}}{{with settingOptions .}}

Réglages (option > variable PRET_… > fichier de configuration > défaut) :
{{.}}{{end}}{{if .HasAvailableSubCommands}}

« {{.CommandPath}} COMMANDE --help » détaille chaque commande.{{end}}
`

func init() {
	// Template functions are global in cobra; they are pure.
	option := func(f *pflag.Flag) bool { return !isSetting(f) }
	cobra.AddTemplateFunc("localOptions", func(c *cobra.Command) string { return flagUsages(c.LocalNonPersistentFlags(), option) })
	cobra.AddTemplateFunc("commonOptions", func(c *cobra.Command) string {
		return flagUsages(c.InheritedFlags(), option) + flagUsages(c.PersistentFlags(), option)
	})
	cobra.AddTemplateFunc("settingOptions", func(c *cobra.Command) string {
		if c.HasParent() {
			// Those a command names (valider's grades) in full.
			own := strings.Fields(c.Annotations[settingAnnotation])
			listed := flagUsages(c.InheritedFlags(), func(f *pflag.Flag) bool {
				return isSetting(f) && slices.Contains(own, f.Annotations[settingAnnotation][0])
			})
			return strings.TrimPrefix(listed+"\n  --seance-…, --cle-…, --acces-…, --organisateurs-…, --feuille-… : « pret --help » les détaille", "\n")
		}
		return flagUsages(c.PersistentFlags(), isSetting)
	})
}

// newHelpCmd is `pret help [COMMANDE]`, in French.
func newHelpCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:                   "help [COMMANDE]",
		Short:                 "L'aide de pret ou d'une commande",
		DisableFlagsInUseLine: true,
		Example:               "  pret help\n  pret help cle",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var names []cobra.Completion
			for _, sub := range c.Root().Commands() {
				if sub.IsAvailableCommand() {
					names = append(names, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 || target == nil {
				return usageError(didYouMean(c.Root().SuggestionsFor(args[0]), "« pret help » liste les commandes"), "pas d'aide pour « %s » : commande inconnue", termtext.Escape(strings.Join(args, " ")))
			}
			return target.Help()
		},
	}
}

func isSetting(f *pflag.Flag) bool { return f.Annotations[settingAnnotation] != nil }

// flagUsages is pflag's list of the flags that keep says, in French.
func flagUsages(all *pflag.FlagSet, keep func(*pflag.Flag) bool) string {
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	all.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && keep(f) {
			fs.AddFlag(f)
		}
	})
	return strings.TrimRight(strings.ReplaceAll(fs.FlagUsages(), " (default ", " (défaut : "), " \n")
}
