package checklist

import (
	"encoding/csv"
	"io"
	"iter"
	"strings"
)

// writeFilesCSV writes the roster: RFC 4180, UTF-8, a header row, one row
// per file. A cell is made formula-safe and terminal-safe (formulaSafe).
func writeFilesCSV(w io.Writer, files iter.Seq[FileResult]) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"apprenant", "chemin", "valide", "date", "statut", "empreinte", "erreurs", "avertissements"})
	for f := range files {
		valid := "non"
		if f.Valid {
			valid = "oui"
		}
		row := []string{f.Apprenant, f.Path, valid, f.Date, f.Statut, f.Fingerprint,
			strings.Join(f.codes(SevError), " "), strings.Join(f.codes(SevWarning), " ")}
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
