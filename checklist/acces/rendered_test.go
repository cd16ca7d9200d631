package acces

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// TestReadAsRendered holds the validator to what a reader of the rendered
// page sees (CommonMark with GitHub's tables): testdata/rendus has a file
// per case — headings, lists and laziness, HTML blocks and comments, link
// definitions, code, escapes and entities, tables — and verdicts.tsv the
// verdict and error codes each implies, with the CommonMark rule why.
func TestReadAsRendered(t *testing.T) {
	dir := filepath.Join("testdata", "rendus")
	tsv, err := os.ReadFile(filepath.Join(dir, "verdicts.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(tsv)), "\n")[1:]
	if len(rows) < 45 {
		t.Fatalf("%d cases: the corpus must hold at least 45", len(rows))
	}
	for _, row := range rows {
		f := strings.Split(row, "\t")
		name, verdict, want, why := f[0], f[1], f[2], f[3]
		t.Run(strings.TrimSuffix(name, ".md"), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			r := Validate(data, rules)
			var errs []string
			for _, p := range r.Problems {
				if p.Severity == checklist.SevError {
					errs = append(errs, string(p.Code))
				}
			}
			if got := strings.Join(errs, ","); got != want || r.Valid() != (verdict == "valid") {
				t.Errorf("errors %q, want %s %q (%s)\n%+v", got, verdict, want, why, r.Problems)
			}
		})
	}
}
