package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version and commit are set at build time with -ldflags "-X main.version=…".
var version, commit = "dev", ""

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Version, commit et version de Go",
		Example: "  pret version",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVersion(cmd.Context(), a.io)
		},
	}
}

// versionLine is "pret VERSION (commit …, goX.Y)", for `pret version` and
// `pret --version`.
func versionLine() string {
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
	return fmt.Sprintf("pret %s (commit %s, %s)", version, c, runtime.Version())
}

func runVersion(ctx context.Context, ios *iostreams) error {
	fmt.Fprintln(ios.Out, versionLine())
	return nil
}
