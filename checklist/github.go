package checklist

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/termtext"
)

// writeFilesGitHub writes Actions workflow commands, escaped as the runner unescapes.
func writeFilesGitHub(w io.Writer, r FilesReport) error {
	bw := bufio.NewWriter(w)
	s := newSummary()
	for f := range r.all() {
		s.add(f)
		file := relativePath(r.Dir, cmp.Or(f.Archive, f.Path))
		who := func(msg string) string { // the learner and the archive's entry first
			if f.Entry != "" {
				msg = f.Entry + " : " + msg
			}
			if f.Apprenant != "" {
				msg = f.Apprenant + " — " + msg
			}
			return msg
		}
		for _, p := range f.Problems {
			cmd := map[bool]string{false: "error", true: "warning"}[p.Severity == SevWarning && !r.Strict]
			props := "file=" + ghProperty(file)
			if p.Line > 0 && f.Archive == "" {
				props += fmt.Sprintf(",line=%d", p.Line)
			}
			props += ",title=" + ghProperty(string(p.Code))
			msg := p.Located()
			if p.Code == CodePrivateKeyLeak {
				msg = "incident, " + leakIncident + " ; " + msg
			}
			fmt.Fprintf(bw, "::%s %s::%s\n", cmd, props, ghData(who(msg)))
		}
		if f.OthersTied { // the organiser decides which file counts
			fmt.Fprintf(bw, "::notice file=%s,title=%s::%s\n", ghProperty(file), ghProperty("autres fichiers"), ghData(who(f.OthersLine())))
		}
	}
	summary := fmt.Sprintf("%d %s%s, %d valide%s, %d invalide%s, %d avec avertissements",
		s.Files, r.unit(), termtext.Plural(s.Files), s.Valid, termtext.Plural(s.Valid), s.Invalid, termtext.Plural(s.Invalid), s.Warnings)
	sep := " ; problèmes : "
	for _, c := range s.Codes.ordered() {
		summary += fmt.Sprintf("%s%s %d", sep, c, s.Codes[c])
		sep = ", "
	}
	if len(s.Duplicates) > 0 {
		summary += fmt.Sprintf(" ; %d empreinte%s partagée%s", len(s.Duplicates), termtext.Plural(len(s.Duplicates)), termtext.Plural(len(s.Duplicates)))
	}
	fmt.Fprintf(bw, "::notice title=%s::%s\n", ghProperty("pret valider"), ghData(summary))
	return bw.Flush()
}

// ghData: the runner needs % CR LF escaped; %XX for every unsafe rune keeps the log safe.
func ghData(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '%' || termtext.Unsafe(r) || r == utf8.RuneError {
			for _, c := range []byte(string(r)) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func ghProperty(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(ghData(s))
}
