package checklist

import (
	"cmp"
	"encoding/csv"
	"io"
	"slices"
	"strings"

	"github.com/romeo-pret/pret/internal/termtext"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

var CSVHeader = []string{"apprenant", "participant", "courriel", "chemin", "valide", "signé", "date", "statut", "empreinte", "erreurs", "avertissements", "problèmes", "autres fichiers"}

// writeFilesCSV: a BOM (else Excel reads Windows-1252), ';' (',' is the
// French decimal mark), CRLF (RFC 4180). Leaks first, then French order.
func writeFilesCSV(w io.Writer, r FilesReport) error {
	type key struct {
		rank          int
		learner, path string
		i             int
	}
	res := r.results()
	keys := make([]key, res.Len())
	for i := range keys {
		f := res.At(i)
		keys[i] = key{map[bool]int{true: 0, false: 1}[f.Leaks()], f.Apprenant, f.Path, i}
	}
	fr := collate.New(language.French)
	slices.SortStableFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), fr.CompareString(a.learner, b.learner), strings.Compare(a.path, b.path))
	})
	if _, err := io.WriteString(w, "\ufeff"); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	cw.Comma = cmp.Or(r.Comma, ';')
	cw.Write(CSVHeader)
	yes := map[bool]string{true: "oui", false: "non"}
	for _, k := range keys {
		f := res.At(k.i)
		var labels []string
		for _, code := range f.codes("") {
			l := Info(Code(code)).Label
			if Code(code) == CodePrivateKeyLeak {
				l = "INCIDENT : " + l + " ; " + leakIncident
			}
			labels = append(labels, l)
		}
		row := []string{f.Apprenant, f.Participant, f.Email, f.Path, yes[f.Valid], yes[f.Signed], f.Date, statutLabel(f.Statut), f.Fingerprint,
			strings.Join(f.codes(SevError), " "), strings.Join(f.codes(SevWarning), " "), strings.Join(labels, " ; "), othersCell(f)}
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

func statutLabel(s string) string {
	if s == "verifie" {
		return "vérifié"
	}
	return s
}

// formulaSafe: Escape (no tab or CR hides a formula), then ' before one.
func formulaSafe(s string) string {
	s = termtext.Escape(s)
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}
