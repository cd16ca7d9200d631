package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/internal/termtext"
)

// shells are cobra's four generators, with French descriptions, in the
// order SuggestionsFor reads them.
var shells = []struct {
	name, short, example string
	gen                  func(root *cobra.Command, w io.Writer) error
}{
	{"bash", "Complétion pour bash", "  source <(pret completion bash)\n  pret completion bash > /etc/bash_completion.d/pret",
		func(root *cobra.Command, w io.Writer) error { return root.GenBashCompletionV2(w, true) }},
	{"fish", "Complétion pour fish", "  pret completion fish > ~/.config/fish/completions/pret.fish",
		func(root *cobra.Command, w io.Writer) error { return root.GenFishCompletion(w, true) }},
	{"powershell", "Complétion pour PowerShell", "  pret completion powershell | Out-String | Invoke-Expression",
		(*cobra.Command).GenPowerShellCompletionWithDesc},
	{"zsh", "Complétion pour zsh", "  pret completion zsh > \"${fpath[1]}/_pret\"", (*cobra.Command).GenZshCompletion},
}

func newCompletionCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "completion SHELL",
		Short: "Script de complétion des commandes et options pour bash, zsh, fish ou PowerShell",
		Long: `Écrit sur la sortie standard le script qui complète les commandes et les
options de pret dans votre shell (touche Tab), avec leur description en
français. Chargez-le au démarrage du shell ; les exemples de chaque shell
sont dans « pret completion SHELL --help ».`,
		Example: `  source <(pret completion bash)
  pret completion zsh > "${fpath[1]}/_pret"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("pret completion bash (ou zsh, fish, powershell)", "dites pour quel shell : bash, zsh, fish ou powershell")
			}
			return usageError(didYouMean(cmd.SuggestionsFor(args[0]), "pret completion bash (ou zsh, fish, powershell)"), "shell inconnu : « %s »", termtext.Escape(args[0]))
		},
		RunE: func(cmd *cobra.Command, args []string) error { return nil },
	}
	for _, sh := range shells {
		c.AddCommand(&cobra.Command{
			Use:     sh.name,
			Short:   sh.short,
			Long:    fmt.Sprintf("Écrit le script de complétion de pret pour %s sur la sortie standard.", sh.name),
			Example: sh.example,
			Args:    noArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				return sh.gen(cmd.Root(), a.io.Out)
			},
		})
	}
	return c
}
