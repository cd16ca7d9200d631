package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version and commit are set at build time with -ldflags "-X main.version=…".
var version, commit = "dev", ""

func versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Version, commit et version de Go",
		Example: "  pret version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c := commit
			if c == "" {
				if info, ok := debug.ReadBuildInfo(); ok {
					for _, s := range info.Settings {
						if s.Key == "vcs.revision" {
							c = s.Value
						}
					}
				}
			}
			if c == "" {
				c = "inconnu"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "pret %s (commit %s, %s)\n", version, c, runtime.Version())
			return nil
		},
	}
}
