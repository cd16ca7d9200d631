package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/viper"

	"github.com/romeo-pret/pret/checklist"
)

// fastPath runs the two command lines whose start-up is measured against
// other tools, `pret version` and `pret empreinte FICHIER`, without
// building the cobra tree: building and walking it costs most of a
// millisecond of a cold start (pages of code touched once), twice what the
// commands themselves do. They call the same run… functions, load the
// configuration the same way and exit through the same exitCode, so what
// they print and return is the tree's to the byte; TestFastPathIsTheTree
// holds that over generated command lines. Anything else, a flag, a second
// argument, returns ok false and goes to the tree.
func fastPath(ctx context.Context, args []string, ios *iostreams) (code int, ok bool) {
	switch {
	case isVersion(args):
		return exitCode(ios.outputError(runVersion(ctx, ios)), ios.Err), true
	case len(args) == 2 && (args[0] == "empreinte" || args[0] == "fingerprint") && plainArg(args[1]):
		cfg, warnings, err := loadConfig(viper.New(), "")
		if err != nil {
			return exitCode(err, ios.Err), true
		}
		for _, w := range warnings {
			fmt.Fprintf(ios.Err, "pret: attention : %s\n", checklist.Escape(w))
		}
		return exitCode(ios.outputError(runEmpreinte(ctx, &empreinteOptions{Config: cfg, Path: args[1]}, ios)), ios.Err), true
	}
	return 0, false
}

// isVersion is `pret version`, `pret --version` or `pret -v`.
func isVersion(args []string) bool {
	return len(args) == 1 && (args[0] == "version" || args[0] == "--version" || args[0] == "-v")
}

// plainArg is an argument cobra would take as is: not a flag, and "-"
// (standard input) is one.
func plainArg(s string) bool {
	return s != "" && (s == "-" || !strings.HasPrefix(s, "-"))
}
