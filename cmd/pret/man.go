package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/onboarding"
)

// newManCmd is the hidden `pret man DOSSIER`, for the release.
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
			// A release rebuilt from the same commit has the same pages.
			date := time.Now()
			if epoch := os.Getenv("SOURCE_DATE_EPOCH"); epoch != "" {
				n, err := strconv.ParseInt(epoch, 10, 64)
				if err != nil {
					return usageError("SOURCE_DATE_EPOCH est un nombre de secondes depuis 1970", "SOURCE_DATE_EPOCH illisible : « %s »", termtext.Escape(epoch))
				}
				date = time.Unix(n, 0).UTC()
			}
			// The configured key, else the default place.
			cfg, _, err := loadConfig(a.v, a.configFlag)
			if err != nil {
				home, herr := expandHome("~/.ssh")
				if herr != nil {
					return err
				}
				cfg = &Config{Key: keys.Store{Dir: home, Name: "id_ed25519_romeo", Files: keyFiles}}
			}
			return runMan(args[0], cmd.Root(), date, cfg.Key, a.io)
		},
	}
}

// runMan writes one page per available command into dir.
func runMan(dir string, root *cobra.Command, date time.Time, key keys.Store, ios *iostreams) error {
	var pages []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		pages = append(pages, c)
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				walk(sub)
			}
		}
	}
	walk(root)
	// Every path is checked first: a link (pret-acces.1 -> the key), a folder.
	paths := make([]string, len(pages))
	outs := make([]onboarding.Output, len(pages))
	for i, c := range pages {
		// Not filepath.Join: it would clean "lien/.." lexically.
		paths[i] = dir + string(filepath.Separator) + pageName(c) + ".1"
		outs[i] = onboarding.Output{Path: paths[i], Setting: "DOSSIER"}
	}
	if err := onboarding.CheckOutputs(key, outs...); err != nil {
		return err
	}
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return refusedError("retirez ce dossier ou choisissez un autre DOSSIER", "%s est un dossier, à la place d'une page de manuel ; rien n'a été écrit", termtext.Escape(p))
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return refusedError("vérifiez le chemin et les droits", "dossier des pages de manuel : %s", describeError(err))
	}
	when := fmt.Sprintf("%s %d", dates.Months[date.Month()-1], date.Year())
	for i, c := range pages {
		page := manPage(c, when, "pret "+version)
		// A link put there since is replaced, never written through, and
		// the key's files refused (Protected).
		if err := guarded(func() error { return onboarding.Protected(key).WriteReplace(paths[i], []byte(page), 0o644) }); err != nil {
			return refusedError("vérifiez le dossier", "page %s non écrite (%d pages écrites avant elle) : %s", filepath.Base(paths[i]), i, describeError(err))
		}
	}
	fmt.Fprintf(ios.Out, "%d pages de manuel écrites dans %s\n", len(pages), termtext.Escape(dir))
	return nil
}

func pageName(c *cobra.Command) string { return strings.ReplaceAll(c.CommandPath(), " ", "-") }

// manPage is one manual page in roff, in French.
func manPage(c *cobra.Command, date, source string) string {
	var b strings.Builder
	name := pageName(c)
	fmt.Fprintf(&b, ".TH %q \"1\" %q %q \"Manuel de pret\"\n.nh\n.ad l\n", strings.ToUpper(name), date, source)
	fmt.Fprintf(&b, ".SH NOM\n%s \\- %s\n", roffText(name), roffText(c.Short))
	fmt.Fprintf(&b, ".SH SYNOPSIS\n\\fB%s\\fP\n.SH DESCRIPTION\n", roffText(c.UseLine()))
	b.WriteString(strings.ReplaceAll(roffText(strings.TrimSpace(cmp.Or(c.Long, c.Short))), "\n\n", "\n.PP\n") + "\n")
	manFlags(&b, "OPTIONS", c.NonInheritedFlags())
	manFlags(&b, "OPTIONS COMMUNES", c.InheritedFlags())
	if c.Example != "" {
		fmt.Fprintf(&b, ".SH EXEMPLES\n.PP\n.RS\n.nf\n%s\n.fi\n.RE\n", roffText(c.Example))
	}
	var see []string
	for _, s := range append([]*cobra.Command{c.Parent()}, c.Commands()...) {
		if s != nil && (s == c.Parent() || s.IsAvailableCommand()) {
			see = append(see, `\fB`+roffText(pageName(s))+`\fP(1)`)
		}
	}
	if len(see) > 0 {
		b.WriteString(".SH VOIR AUSSI\n" + strings.Join(see, ", ") + "\n")
	}
	return b.String()
}

func manFlags(b *strings.Builder, title string, flags *pflag.FlagSet) {
	if flags.HasAvailableFlags() {
		fmt.Fprintf(b, ".SH %s\n", title)
	}
	flags.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		placeholder, usage := pflag.UnquoteUsage(f)
		b.WriteString(".TP\n")
		if f.Shorthand != "" {
			fmt.Fprintf(b, "\\fB\\-%s\\fP, ", f.Shorthand)
		}
		fmt.Fprintf(b, "\\fB\\-\\-%s\\fP", roffText(f.Name))
		if placeholder != "" {
			fmt.Fprintf(b, " \\fI%s\\fP", roffText(placeholder))
		}
		b.WriteString("\n" + roffText(usage))
		if !slices.Contains([]string{"", "false", "0", "[]", "0s"}, f.DefValue) {
			fmt.Fprintf(b, " (défaut : %s)", roffText(f.DefValue))
		}
		b.WriteString("\n")
	})
}

// roffText escapes backslashes and lines that roff would read as requests.
func roffText(s string) string {
	return roffRequest().ReplaceAllString(strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\e`), "`", ""), `\&$1`)
}

var roffRequest = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^([.'])`) })
