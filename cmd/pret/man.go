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
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/onboarding"
)

// manOptions is what the hidden `pret man DOSSIER` takes: the release
// (GoReleaser) writes the manual pages with it.
type manOptions struct {
	Dir  string
	Root *cobra.Command
	Date time.Time
	Key  keys.Store // the key no page may land on, nor in its folder
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
			store, err := a.guardStore()
			if err != nil {
				return err
			}
			return runMan(cmd.Context(), &manOptions{Dir: args[0], Root: cmd.Root(), Date: date, Key: store}, a.io)
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
	// Every page's path is checked before the folder is made or a page
	// written: a link at any page name (pret-acces.1 -> the key) or a
	// folder below the key's is refused with nothing written, and so is a
	// folder in the way of a page.
	paths := make([]string, len(pages))
	for i, c := range pages {
		// Not filepath.Join: it would clean "lien/.." lexically, where
		// the system goes up from the link's target.
		paths[i] = opts.Dir + string(filepath.Separator) + strings.ReplaceAll(c.CommandPath(), " ", "-") + ".1"
		if err := checkOutput(opts.Key, paths[i], "DOSSIER"); err != nil {
			return err
		}
		if st, err := os.Stat(paths[i]); err == nil && st.IsDir() {
			return refusedError("retirez ce dossier ou choisissez un autre DOSSIER", "%s est un dossier, à la place d'une page de manuel ; rien n'a été écrit", checklist.Escape(paths[i]))
		}
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return refusedError("vérifiez le chemin et les droits", "dossier des pages de manuel : %s", describeError(err))
	}
	for i, c := range pages {
		var buf bytes.Buffer
		if err := manPage(&buf, c, when, "pret "+version); err != nil {
			return err
		}
		// Checked again just before the write: the folder exists now, and
		// a link may have appeared in it.
		if err := checkOutput(opts.Key, paths[i], "DOSSIER"); err != nil {
			return err
		}
		if err := guarded(func() error { return onboarding.Protected(opts.Key).WriteReplace(paths[i], buf.Bytes(), 0o644) }); err != nil {
			return refusedError("vérifiez le dossier", "page %s non écrite (%d pages écrites avant elle) : %s", filepath.Base(paths[i]), i, describeError(err))
		}
	}
	fmt.Fprintf(ios.Out, "%d pages de manuel écrites dans %s\n", len(pages), checklist.Escape(opts.Dir))
	return nil
}
