package checklist

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"iter"
	"time"

	"github.com/romeo-pret/pret/internal/termtext"
)

var FileFormats = []string{"texte", "json", "junit", "csv", "sarif", "github", "html"}

type FilesReport struct {
	Name      string // "pret valider"
	Files     []FileResult
	Results   Results // if set, read instead of Files (a smaller record per file)
	All       bool    // texte lists files without problems too
	Style     Style
	Version   string
	Dir       string // sarif and github name paths from it
	Strict    bool
	Comma     rune // csv, 0 for ';'
	Sources   []string
	Generated time.Time
	// Learners: the results are an export's, one per learner (a Moodle
	// or Classroom learner, a learner's folder): the summary counts them.
	Learners bool
}

type Results interface {
	Len() int
	At(i int) FileResult
}

type fileSlice []FileResult

func (s fileSlice) Len() int            { return len(s) }
func (s fileSlice) At(i int) FileResult { return s[i] }

func (r FilesReport) results() Results {
	if r.Results == nil {
		return fileSlice(r.Files)
	}
	return r.Results
}

// all yields the leaks first (an incident, acted on first), then the rest.
func (r FilesReport) all() iter.Seq[FileResult] {
	return func(yield func(FileResult) bool) {
		res := r.results()
		for _, leaks := range [2]bool{true, false} {
			for i := range res.Len() {
				if f := res.At(i); f.Leaks() == leaks && !yield(f) {
					return
				}
			}
		}
	}
}

var fileWriters = map[string]func(io.Writer, FilesReport) error{"texte": writeFilesText, "json": writeFilesJSON, "junit": writeFilesJUnit,
	"csv": writeFilesCSV, "sarif": writeFilesSARIF, "github": writeFilesGitHub, "html": writeFilesHTML}

func WriteFilesReport(w io.Writer, format string, r FilesReport) error {
	if write, ok := fileWriters[cmp.Or(format, "texte")]; ok {
		return write(w, r)
	}
	return fmt.Errorf("format inconnu : %q", format)
}

var verdictStyles = map[string][2]string{"valide": {"32", "valide  "}, "avertissement": {"33", "valide  "}, "invalide": {"31", "invalide"}}

// writeFilesText: every string from a file or a file name goes through Escape.
func writeFilesText(w io.Writer, r FilesReport) error {
	bw := bufio.NewWriter(w)
	s := newSummary()
	for f := range r.all() {
		s.add(f)
	}
	if n := s.Codes[CodePrivateKeyLeak]; n > 0 {
		fmt.Fprintf(bw, "%s %d fichier%s %s une clé privée : %s, à chaque apprenant nommé.\n", r.Style.paint("1;31", "INCIDENT :"),
			n, termtext.Plural(n), map[bool]string{false: "contient", true: "contiennent"}[n > 1], leakIncident)
	}
	hidden := 0
	for f := range r.all() {
		if !r.All && len(f.Problems) == 0 && len(f.Explain) == 0 {
			hidden++
			continue
		}
		line := termtext.Escape(f.Path)
		if f.Email != "" {
			line = " (" + termtext.Escape(f.Email) + ") — " + line
		} else if f.Apprenant != "" {
			line = " — " + line
		}
		v := verdictStyles[f.verdict()]
		fmt.Fprintf(bw, "%s  %s%s\n", r.Style.paint(v[0], v[1]), termtext.Escape(f.Apprenant), line)
		if f.Leaks() {
			fmt.Fprintf(bw, "    %s %s\n", r.Style.paint("1;31", "incident :"), leakIncident)
		}
		for _, p := range f.Problems {
			fmt.Fprintf(bw, "    %s\n", termtext.Escape(problemLine(p)))
		}
		for _, e := range f.Explain {
			fmt.Fprintf(bw, "    · %s\n", termtext.Escape(e))
		}
		if o := f.OthersLine(); o != "" {
			fmt.Fprintf(bw, "    %s\n", termtext.Escape(o))
		}
	}
	unit := r.unit()
	fmt.Fprintf(bw, "Résumé : %d %s%s, %d valide%s, %d invalide%s\n",
		s.Files, unit, termtext.Plural(s.Files), s.Valid, termtext.Plural(s.Valid), s.Invalid, termtext.Plural(s.Invalid))
	if s.Warnings > 0 {
		fmt.Fprintf(bw, "    dont %d valide%s avec des avertissements\n", s.Warnings, termtext.Plural(s.Warnings))
	}
	if hidden > 0 {
		fmt.Fprintf(bw, "    %d %s%s sans problème non listé%s (--tous pour les voir)\n", hidden, unit, termtext.Plural(hidden), termtext.Plural(hidden))
	}
	if len(s.Codes) > 0 {
		fmt.Fprintf(bw, "Problèmes, du plus fréquent au plus rare (nombre %s) :\n", map[bool]string{false: "de fichiers", true: "d'apprenants"}[r.Learners])
	}
	for _, c := range s.Codes.ordered() {
		fmt.Fprintf(bw, "    %-24s %d\n", c, s.Codes[c])
	}
	if n := len(s.Duplicates); n > 0 {
		fmt.Fprintf(bw, "Empreintes partagées par plusieurs apprenants (%d groupe%s) :\n", n, termtext.Plural(n))
	}
	for _, g := range s.Duplicates {
		fmt.Fprintf(bw, "    - %s\n", termtext.Escape(g[0]))
		for _, p := range g[1:] {
			fmt.Fprintf(bw, "      %s\n", termtext.Escape(p))
		}
	}
	return bw.Flush()
}
