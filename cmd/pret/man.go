package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/safefile"
)

// manOptions is what the hidden `pret man DOSSIER` takes: the release
// (GoReleaser) writes the manual pages with it.
type manOptions struct {
	Dir  string
	Root *cobra.Command
	Date time.Time
}

func newManCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "man DOSSIER",
		Short:   "Écrire les pages de manuel (pret.1, pret-cle.1, …) dans DOSSIER",
		Example: "  pret man dist/man",
		Hidden:  true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("pret man DOSSIER", "donnez le dossier où écrire les pages")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			date, err := manDate(os.Getenv("SOURCE_DATE_EPOCH"))
			if err != nil {
				return err
			}
			if err := checkOutput(a.guardStore(), args[0]+string(filepath.Separator)+"pret.1", "DOSSIER"); err != nil {
				return err
			}
			return runMan(cmd.Context(), &manOptions{Dir: args[0], Root: cmd.Root(), Date: date}, a.io)
		},
	}
}

// manDate is SOURCE_DATE_EPOCH when set, so that a release rebuilt from
// the same commit has the same pages.
func manDate(epoch string) (time.Time, error) {
	if epoch == "" {
		return time.Now(), nil
	}
	n, err := strconv.ParseInt(epoch, 10, 64)
	if err != nil {
		return time.Time{}, usageError("SOURCE_DATE_EPOCH est un nombre de secondes depuis 1970", "SOURCE_DATE_EPOCH illisible : %q", epoch)
	}
	return time.Unix(n, 0).UTC(), nil
}

var frenchMonths = [...]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}

func runMan(ctx context.Context, opts *manOptions, ios *iostreams) error {
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return refusedError("vérifiez le chemin et les droits", "dossier des pages de manuel : %s", describeError(err))
	}
	when := fmt.Sprintf("%s %d", frenchMonths[opts.Date.Month()-1], opts.Date.Year())
	var pages []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c.HasParent() {
			return
		}
		pages = append(pages, c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(opts.Root)
	for _, c := range pages {
		var buf bytes.Buffer
		if err := manPage(&buf, c, when, "pret "+version); err != nil {
			return err
		}
		page := buf.String()
		name := strings.ReplaceAll(c.CommandPath(), " ", "-") + ".1"
		path := filepath.Join(opts.Dir, name)
		if err := guarded(func() error { return safefile.WriteReplace(path, []byte(page), 0o644) }); err != nil {
			return refusedError("vérifiez le dossier", "page %s non écrite : %s", name, describeError(err))
		}
	}
	fmt.Fprintf(ios.Out, "%d pages de manuel écrites dans %s\n", len(pages), checklist.Escape(opts.Dir))
	return nil
}
