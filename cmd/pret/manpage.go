package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// manPage writes one manual page in roff, in French. pret writes roff
// itself rather than through cobra/doc: that package brings a Markdown
// renderer whose tables (2 000 HTML entities) were built at every start
// of every command, about 1 ms, for a page written once per release.
func manPage(w io.Writer, c *cobra.Command, date, source string) error {
	var b strings.Builder
	name := strings.ReplaceAll(c.CommandPath(), " ", "-")
	fmt.Fprintf(&b, ".TH %q \"1\" %q %q \"Manuel de pret\"\n.nh\n.ad l\n", strings.ToUpper(name), date, source)
	fmt.Fprintf(&b, ".SH NOM\n%s \\- %s\n", roffText(name), roffText(c.Short))
	fmt.Fprintf(&b, ".SH SYNOPSIS\n\\fB%s\\fP\n", roffText(c.UseLine()))
	b.WriteString(".SH DESCRIPTION\n")
	long := c.Long
	if long == "" {
		long = c.Short
	}
	for i, para := range strings.Split(strings.TrimSpace(long), "\n\n") {
		if i > 0 {
			b.WriteString(".PP\n")
		}
		b.WriteString(roffText(para) + "\n")
	}
	manFlags(&b, "OPTIONS", c.NonInheritedFlags())
	manFlags(&b, "OPTIONS COMMUNES", c.InheritedFlags())
	if c.Example != "" {
		fmt.Fprintf(&b, ".SH EXEMPLES\n.PP\n.RS\n.nf\n%s\n.fi\n.RE\n", roffText(c.Example))
	}
	var see []string
	if c.HasParent() {
		see = append(see, strings.ReplaceAll(c.Parent().CommandPath(), " ", "-"))
	}
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			see = append(see, strings.ReplaceAll(sub.CommandPath(), " ", "-"))
		}
	}
	if len(see) > 0 {
		b.WriteString(".SH VOIR AUSSI\n")
		for i, s := range see {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "\\fB%s\\fP(1)", roffText(s))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func manFlags(b *strings.Builder, title string, flags *pflag.FlagSet) {
	first := true
	flags.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if first {
			fmt.Fprintf(b, ".SH %s\n", title)
			first = false
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
		switch f.DefValue {
		case "", "false", "0", "[]", "0s":
		default:
			fmt.Fprintf(b, " (défaut : %s)", roffText(f.DefValue))
		}
		b.WriteString("\n")
	})
}

// roffText escapes text for roff: backslashes, and a line starting with a
// dot or a quote, which roff would read as a request. The help's
// backquotes (its markup for values) are dropped.
func roffText(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "`", "")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}
