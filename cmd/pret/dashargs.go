package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// dashPathArgs: « pret valider * » in a folder holding a learner's folder
// "--tous", "-h" or "--sortie=x" would act on that option and never check
// her. So, before any flag is acted on, an argument of pret valider before
// "--" that starts with "-" and names an existing path is a usage error
// naming it (cli.md). "-" alone is no option: pflag leaves it a path.
func dashPathArgs(root *cobra.Command, args []string) error {
	c, rest, err := root.Find(args)
	if err != nil || c.Name() != "valider" {
		return nil
	}
	for _, a := range rest {
		if a == "--" {
			break
		}
		if len(a) < 2 || !strings.HasPrefix(a, "-") {
			continue
		}
		if _, err := os.Lstat(a); err == nil {
			return usageError(dashPathHint(a), "%s est lu comme une option, pas comme un chemin", a)
		}
	}
	return nil
}

// dashPathHint says how to write a path that starts with "-".
func dashPathHint(arg string) string {
	return fmt.Sprintf("un chemin qui commence par « - » s'écrit après « -- » (« pret valider -- * ») ou avec « ./ » devant (« pret valider ./* », « ./%s »)", arg)
}
