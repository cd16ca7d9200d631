package main

import (
	"encoding/csv"
	"strings"
	"testing"
)

// TestValiderCSVSeparator: the csv report is ';'-separated by default,
// --csv-separateur virgule or tabulation changes it (as a word, since a
// ';' typed unquoted ends a shell command), and any other word is a
// usage error.
func TestValiderCSVSeparator(t *testing.T) {
	t.Parallel()
	notShort(t)
	h := newHome(t)
	writeZip(t, h.path("moodle.zip"), map[string]string{
		"Dupont Alice_1_assignsubmission_file_acces.md": accesPage(fpOne),
		"Émile Durand_2_assignsubmission_file_acces.md": accesPage(fpTwo),
	})
	for _, c := range []struct {
		args []string
		sep  rune
	}{
		{nil, ';'},
		{[]string{"--csv-separateur", "point-virgule"}, ';'},
		{[]string{"--csv-separateur", "virgule"}, ','},
		{[]string{"--csv-separateur", "Tabulation"}, '\t'},
	} {
		r := h.must(0, "", append([]string{"valider", "--format", "csv", "moodle.zip"}, c.args...)...)
		cr := csv.NewReader(strings.NewReader(strings.TrimPrefix(r.stdout, "\ufeff")))
		cr.Comma = c.sep
		rows, err := cr.ReadAll()
		if err != nil || len(rows) != 3 || rows[0][0] != "apprenant" || rows[1][0] != "Dupont Alice" || rows[2][0] != "Émile Durand" {
			t.Errorf("%v: %v %q", c.args, err, rows)
		}
	}
	r := h.pret("", "valider", "--format", "csv", "--csv-separateur", ";", "moodle.zip")
	says(t, r, 2, "point-virgule, virgule ou tabulation")
}
