package checklist

import (
	"encoding/csv"
	"io"
	"iter"
	"slices"
	"strings"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// CSVHeader is the csv report's first row (organisateurs.md).
var CSVHeader = []string{"apprenant", "participant", "courriel", "chemin", "valide", "signé", "date", "statut", "empreinte", "erreurs", "avertissements", "problèmes", "autres fichiers"}

// writeFilesCSV writes the roster as a French spreadsheet opens it
// without an import dialog: UTF-8 with a byte order mark (without it,
// Excel reads the accents as Windows-1252), ';' between cells unless
// FilesReport.Comma says (a French spreadsheet takes ',' as the decimal
// mark and reads a comma-separated file as one column), CRLF line ends
// (RFC 4180). One row per file: the leaks first, as an incident, then
// by learner as French sorts names (É with E, case and accents only
// breaking ties), then by path. A cell is made formula-safe and
// terminal-safe (formulaSafe).
func writeFilesCSV(w io.Writer, r FilesReport) error {
	if _, err := io.WriteString(w, "\ufeff"); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	cw.Comma = ';'
	if r.Comma != 0 {
		cw.Comma = r.Comma
	}
	cw.Write(CSVHeader)
	for f := range r.sortedByName() {
		valid, signed := "non", "non"
		if f.Valid {
			valid = "oui"
		}
		if f.Signed {
			signed = "oui"
		}
		row := []string{f.Apprenant, f.Participant, f.Email, f.Path, valid, signed, f.Date, statutLabel(f.Statut), f.Fingerprint,
			strings.Join(f.codes(SevError), " "), strings.Join(f.codes(SevWarning), " "), strings.Join(f.labels(), " ; "), strings.Join(f.Others, " ; ")}
		for i := range row {
			row[i] = formulaSafe(row[i])
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// sortedByName yields the files, the leaks first, then by learner as
// French sorts names, then by path. Only a small key per file is held:
// the files are read again in that order.
func (r FilesReport) sortedByName() iter.Seq[FileResult] {
	type key struct {
		leak          bool
		learner, path string
		i             int
	}
	var keys []key
	i := 0
	for f := range r.read() {
		keys = append(keys, key{f.Leaks(), f.Apprenant, f.Path, i})
		i++
	}
	fr := collate.New(language.French)
	slices.SortStableFunc(keys, func(a, b key) int {
		switch {
		case a.leak != b.leak:
			if a.leak {
				return -1
			}
			return 1
		case a.learner != b.learner:
			if c := fr.CompareString(a.learner, b.learner); c != 0 {
				return c
			}
		}
		return strings.Compare(a.path, b.path)
	})
	return func(yield func(FileResult) bool) {
		for _, k := range keys {
			if !yield(r.at(k.i)) {
				return
			}
		}
	}
}

// statutLabel is the stated status as people read it: "demande" (the
// request), "vérifié" (the account checked).
func statutLabel(s string) string {
	switch s {
	case "verifie":
		return "vérifié"
	}
	return s
}

// labels are the file's problems in French, one per code, in order; a
// leak says it is an incident.
func (f FileResult) labels() []string {
	var out []string
	var seen []string
	for _, p := range f.Problems {
		if slices.Contains(seen, p.Code) {
			continue
		}
		seen = append(seen, p.Code)
		out = append(out, problemLabel(p))
	}
	return out
}

// problemLabel is a problem's French label.
func problemLabel(p Problem) string {
	l := codeInfo(p.Code, p.Severity).Label
	if p.Code == "private-key-leak" {
		l = "INCIDENT : " + l + " ; " + leakIncident
	}
	return l
}

// formulaSafe prefixes with ' a cell a spreadsheet would run as a formula
// (one starting with =, +, -, @, or a tab or carriage return that hides
// one), and escapes control characters so that the roster printed in a
// terminal cannot drive it.
func formulaSafe(s string) string {
	s = Escape(s)
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
