package main

import (
	"cmp"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version, commit and date: -ldflags -X (.goreleaser.yaml), or build info.
var version, commit, date = "dev", "", ""

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Version, commit et version de Go",
		Example: "  pret version",
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintln(a.io.Out, versionLine())
			return err
		},
	}
}

// versionLine is "pret VERSION (commit …, goX.Y)".
func versionLine() string {
	v, c := version, commit
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && c == "" {
				c = s.Value
			}
		}
		// go install …@v1.2.3 records the module's version.
		if v == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
	}
	c = cmp.Or(c, "inconnu")
	if date != "" {
		c += ", " + date
	}
	return fmt.Sprintf("pret %s (commit %s, %s)", v, c, runtime.Version())
}
