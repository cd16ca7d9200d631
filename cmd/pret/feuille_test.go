package main

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// feuilleRows are the learners of the worksheets of these tests, as
// Moodle lists them: Martin Bob and Petit Denis handed nothing in.
var feuilleRows = [][3]string{
	{"101", "Dupont Alice", "alice@example.org"},
	{"102", "Martin Bob", "bob@example.org"},
	{"103", "Durand Chloé", "chloe@example.org"},
	{"104", "Leroy Emma", "emma@example.org"},
	{"105", "Petit Denis", "denis@example.org"},
}

// feuilleSheet builds a worksheet as Moodle writes it (every cell with
// a space quoted, as PHP's fputcsv does), in French or English; the
// English one with a byte order mark and CRLF, the French one without.
func feuilleSheet(lang string, rows [][3]string) []byte {
	head := []string{"Identifiant", "Nom complet", "Adresse de courriel", "Statut", "Note", "Note maximale", "La note peut être modifiée", "Dernière modification (travail remis)", "Dernière modification (note)", "Feedback par commentaires"}
	status, eol, out := "Remis pour évaluation", "\n", ""
	if lang == "en" {
		head = []string{"Identifier", "Full name", "Email address", "Status", "Grade", "Maximum grade", "Grade can be changed", "Last modified (submission)", "Last modified (grade)", "Feedback comments"}
		status, eol, out = "Submitted for grading", "\r\n", "\ufeff"
	}
	cell := func(s string) string {
		if strings.ContainsAny(s, " \",") {
			return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
		}
		return s
	}
	line := func(cells ...string) string {
		for i := range cells {
			cells[i] = cell(cells[i])
		}
		return strings.Join(cells, ",") + eol
	}
	out += line(head...)
	for _, r := range rows {
		out += line("Participant "+r[0], r[1], r[2], status, "", "20", "Oui", "lundi 2 novembre 2026, 10:04", "-", "")
	}
	return []byte(out)
}

// feuilleHome is a home with the submissions of feuilleRows in rendus.zip
// (Martin Bob and Petit Denis handed nothing in) and their French
// worksheet in feuille.csv.
func feuilleHome(t *testing.T) *home {
	h := newHome(t)
	writeFile(t, h.path("feuille.csv"), feuilleSheet("fr", feuilleRows), 0o644)
	writeZip(t, h.path("rendus.zip"), map[string]string{
		"Dupont Alice_101_assignsubmission_file_acces.md":  accesPage(fpOne),
		"Durand Chloé_103_assignsubmission_file_/acces.md": "rien de ce qu'il faut\n",
		"Leroy Emma_104_assignsubmission_file_/acces.md":   accesPage(fpTwo),
	})
	return h
}

func readCSVFile(t *testing.T, path string) ([][]string, []byte) {
	t.Helper()
	data := readFile(t, path)
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff")))).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return recs, data
}

// TestValiderFeuilleReportsNoSubmission: with --feuille, the learners of
// the worksheet who handed nothing in are rows of their own,
// no-submission, with their name and e-mail, in texte, csv, json and
// html, and the run exits 1.
func TestValiderFeuilleReportsNoSubmission(t *testing.T) {
	t.Parallel()
	h := feuilleHome(t)
	for _, format := range []string{"texte", "csv", "json", "html"} {
		r := h.pret("", "valider", "--format", format, "--feuille", "feuille.csv", "rendus.zip")
		if r.code != 1 {
			t.Errorf("%s: exit %d\n%s", format, r.code, r.stderr)
		}
		for _, who := range []string{"Martin Bob", "Petit Denis"} {
			if !strings.Contains(r.stdout, who) {
				t.Errorf("%s does not name %s:\n%s", format, who, r.stdout)
			}
		}
		switch format {
		case "csv":
			// A French spreadsheet's csv: byte order mark, ';' (organisateurs.md).
			cr := csv.NewReader(strings.NewReader(strings.TrimPrefix(r.stdout, "\ufeff")))
			cr.Comma = ';'
			recs, err := cr.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			col := func(name string) int { return slices.Index(checklist.CSVHeader, name) }
			found := 0
			for _, rec := range recs[1:] {
				if (rec[0] == "Martin Bob" || rec[0] == "Petit Denis") && rec[col("erreurs")] == "no-submission" {
					found++
					if !strings.Contains(rec[col("courriel")], "@") || rec[col("participant")] == "" {
						t.Errorf("csv: no e-mail or number for %v", rec)
					}
				}
			}
			if found != 2 {
				t.Errorf("csv: %d no-submission rows\n%s", found, r.stdout)
			}
		case "json":
			rep := readReport(t, r.stdout)
			missing := 0
			for _, f := range rep.Files {
				if len(f.Problems) == 1 && f.Problems[0].Code == "no-submission" && !f.Valid {
					missing++
					if !strings.Contains(f.Problems[0].Message, "@example.org") {
						t.Errorf("json: no e-mail for %s: %q", f.Apprenant, f.Problems[0].Message)
					}
				}
			}
			if missing != 2 || rep.Summary.Files != 5 || rep.Summary.Invalid != 3 {
				t.Errorf("json: %d no-submission, summary %+v", missing, rep.Summary)
			}
		default:
			for _, mail := range []string{"bob@example.org", "denis@example.org"} {
				if !strings.Contains(r.stdout, mail) {
					t.Errorf("%s does not give %s", format, mail)
				}
			}
			if !strings.Contains(r.stdout, "no-submission") {
				t.Errorf("%s does not say no-submission", format)
			}
		}
	}
}

// TestValiderFeuilleSortie: --feuille-sortie writes the worksheet back,
// in its own language, byte order mark and line ends, every column and
// row kept and every cell the same but the grade (as configured) and
// the feedback comments.
func TestValiderFeuilleSortie(t *testing.T) {
	t.Parallel()
	h := feuilleHome(t)
	for _, lang := range []string{"fr", "en"} {
		in := h.path("feuille-" + lang + ".csv")
		out := h.path("remplie-" + lang + ".csv")
		os.WriteFile(in, feuilleSheet(lang, feuilleRows), 0o644)
		args := []string{"valider", "--format", "json", "--feuille", in, "--feuille-sortie", out, "rendus.zip"}
		// feuille.valide not given: a valid learner gets her row's « Note maximale ».
		want := map[string]string{"101": "20", "102": "0", "103": "0", "104": "20", "105": "0"}
		if lang == "en" {
			args = append(args, "--feuille-valide", "20", "--feuille-invalide", "")
			want = map[string]string{"101": "20", "102": "", "103": "", "104": "20", "105": ""}
		}
		r := h.must(1, "", args...)
		// The organiser is told what went into the grade column.
		if said := map[string]string{"fr": "2 rendus valides : « 20 » ; 3 invalides ou sans rendu : « 0 » (un rendu valide reçoit la « Note maximale »",
			"en": "2 rendus valides : « 20 » ; 3 invalides ou sans rendu : sans note\n"}[lang]; !strings.Contains(r.stderr, said) {
			t.Errorf("%s: stderr does not say %q:\n%s", lang, said, r.stderr)
		}
		before, raw := readCSVFile(t, in)
		after, written := readCSVFile(t, out)
		if bytes.HasPrefix(written, []byte("\ufeff")) != (lang == "en") || bytes.Count(written, []byte("\r\n")) != bytes.Count(raw, []byte("\r\n")) {
			t.Errorf("%s: byte order mark or line ends changed:\n%q", lang, written)
		}
		if len(after) != len(before) {
			t.Fatalf("%s: %d rows written, %d read", lang, len(after), len(before))
		}
		for i := range before {
			if len(after[i]) != len(before[i]) {
				t.Fatalf("%s: row %d has %d columns, had %d", lang, i, len(after[i]), len(before[i]))
			}
			for j := range before[i] {
				if i > 0 && (j == 4 || j == 9) {
					continue
				}
				if after[i][j] != before[i][j] {
					t.Errorf("%s: row %d column %d is %q, was %q", lang, i, j, after[i][j], before[i][j])
				}
			}
			if i == 0 {
				continue
			}
			num := strings.TrimPrefix(after[i][0], "Participant ")
			if after[i][4] != want[num] {
				t.Errorf("%s: grade of %s is %q, want %q", lang, num, after[i][4], want[num])
			}
			fb := after[i][9]
			switch num {
			case "101", "104":
				if fb != "acces.md valide." {
					t.Errorf("%s: feedback of %s: %q", lang, num, fb)
				}
			case "102", "105":
				if fb != "Aucun rendu reçu pour ce devoir." {
					t.Errorf("%s: feedback of %s: %q", lang, num, fb)
				}
			case "103":
				if !strings.HasPrefix(fb, "acces.md invalide :<br>") || !strings.Contains(fb, "empreinte") {
					t.Errorf("%s: feedback of %s: %q", lang, num, fb)
				}
			}
		}
		// Outside the two filled columns, the bytes are the bytes read:
		// the same file once both columns are emptied again.
		if lang == "fr" {
			blank := strings.NewReplacer(",20,20,", ",,20,", ",0,20,", ",,20,")
			var kept []string
			for _, l := range strings.SplitAfter(string(written), "\n") {
				if i := strings.LastIndex(l, `,-,`); i >= 0 {
					l = l[:i+3] + "\n"
				}
				kept = append(kept, blank.Replace(l))
			}
			if got := strings.Join(kept, ""); got != string(raw) {
				t.Errorf("fr: bytes outside the filled cells changed:\n%q\n%q", got, raw)
			}
		}
	}
	// The settings from the config file.
	os.WriteFile(h.path("config.yaml"), []byte("feuille:\n  valide: \"A\"\n  invalide: \"E\"\n"), 0o644)
	out := h.path("remplie-config.csv")
	r := h.pret("", "--config", "config.yaml", "valider", "--feuille", "feuille-fr.csv", "--feuille-sortie", out, "rendus.zip")
	recs, _ := readCSVFile(t, out)
	if r.code != 1 || recs[1][4] != "A" || recs[2][4] != "E" {
		t.Errorf("config: exit %d, rows %q\n%s", r.code, recs, r.stderr)
	}
}

// TestValiderFeuilleRefused: a worksheet pret cannot use, or one that is
// not the submissions' own, is a usage error in French (exit 2), and
// neither the report nor the worksheet is written.
func TestValiderFeuilleRefused(t *testing.T) {
	t.Parallel()
	h := feuilleHome(t)
	os.WriteFile(h.path("sans-id.csv"), []byte("\"Nom complet\",Note\n\"Dupont Alice\",\n"), 0o644)
	os.WriteFile(h.path("sans-note.csv"), []byte("Identifiant,\"Nom complet\"\n\"Participant 101\",\"Dupont Alice\"\n"), 0o644)
	os.WriteFile(h.path("ancienne.csv"), feuilleSheet("en", feuilleRows[:3]), 0o644)
	os.WriteFile(h.path("autre.csv"), feuilleSheet("fr", [][3]string{{"900", "X Y", "x@example.org"}}), 0o644)
	os.WriteFile(h.path("zeros.csv"), feuilleSheet("fr", append(slices.Clone(feuilleRows), [3]string{"00101", "Dupont Alice", "alice@example.org"})), 0o644)
	os.WriteFile(h.path("cr.csv"), bytes.ReplaceAll(feuilleSheet("fr", feuilleRows), []byte("\n"), []byte("\r")), 0o644)
	os.Mkdir(h.path("dossier"), 0o755)
	cases := []struct {
		args []string
		say  string
	}{
		{[]string{"--feuille", "sans-id.csv"}, "pret: erreur : la feuille d'évaluation n'a pas de colonne « Identifiant »"},
		{[]string{"--feuille", "sans-note.csv", "--feuille-sortie", "remplie.csv"}, "pas de colonne « Note »"},
		{[]string{"--feuille", "ancienne.csv"}, "1 rendu sans ligne dans la feuille d'évaluation ancienne.csv : Leroy Emma (participant 104)"},
		{[]string{"--feuille", "autre.csv"}, "aucun rendu n'est dans la feuille d'évaluation autre.csv"},
		{[]string{"--feuille", "absente.csv"}, "absente.csv"},
		{[]string{"--feuille-sortie", "remplie.csv"}, "--feuille-sortie sans --feuille"},
		{[]string{"--feuille", "zeros.csv"}, "lignes 2 et 7 : le même identifiant « Participant 101 »"},
		{[]string{"--feuille", "cr.csv", "--feuille-sortie", "remplie.csv"}, "ses fins de ligne sont des retours chariot seuls"},
		{[]string{"--feuille", "feuille.csv", "--feuille-sortie", "feuille.csv"}, "--feuille-sortie feuille.csv est aussi un fichier à valider : la feuille remplie le remplacerait"},
		{[]string{"--feuille", "feuille.csv", "--feuille-sortie", "dossier"}, "--feuille-sortie dossier est un dossier ; rien n'a été lu ni écrit\npret: conseil : indiquez un nom de fichier, par exemple --feuille-sortie remplie.csv"},
		{[]string{"--feuille", "feuille.csv", "--feuille-sortie", "rendus.zip"}, "--feuille-sortie rendus.zip est aussi un fichier à valider"},
		{[]string{"--feuille", "feuille.csv", "--feuille-sortie", "absent/remplie.csv"}, "--feuille-sortie absent/remplie.csv : le dossier absent n'existe pas"},
		{[]string{"--feuille", "feuille.csv", "--feuille-sortie", "feuille.csv/remplie.csv"}, "--feuille-sortie feuille.csv/remplie.csv : feuille.csv est un fichier, pas un dossier"},
		{[]string{"--feuille", "feuille.csv", "--feuille-sortie", "remplie.csv", "--sortie", "remplie.csv"}, "--feuille-sortie remplie.csv est aussi --sortie"},
		// The worksheet is an input of --sortie too (outside tester, stop 27).
		{[]string{"--feuille", "feuille.csv", "--sortie", "feuille.csv"}, "--sortie feuille.csv est aussi un fichier à valider : le rapport le remplacerait"},
	}
	for _, tc := range cases {
		args := []string{"valider", "--sortie", "rapport.txt"}
		if slices.Contains(tc.args, "--sortie") {
			args = args[:1]
		}
		r := h.pret("", append(append(args, tc.args...), "rendus.zip")...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.say) || !strings.Contains(r.stderr, "\npret: conseil : ") || r.stdout != "" {
			t.Errorf("%q: exit %d, want 2 and %q\n%s", tc.args, r.code, tc.say, r.stderr)
		}
		for _, name := range []string{"rapport.txt", "remplie.csv"} {
			if _, err := os.Stat(h.path(name)); err == nil {
				t.Errorf("%q: %s written", tc.args, name)
				os.Remove(h.path(name))
			}
		}
	}
	if data, _ := os.ReadFile(h.path("feuille.csv")); !bytes.Equal(data, feuilleSheet("fr", feuilleRows)) {
		t.Error("the worksheet read was changed")
	}
}

// TestValiderFeuilleUnreadArchive: an archive pret cannot read (corrupt,
// or over its entry limit) would grade all its learners as without a
// submission: the report says so, the filled worksheet is not written, exit 1.
func TestValiderFeuilleUnreadArchive(t *testing.T) {
	t.Parallel()
	var many bytes.Buffer
	zw := zip.NewWriter(&many)
	for i := range 200_001 { // the cap is 200,000 entries (organisateurs.md)
		if _, err := zw.CreateRaw(&zip.FileHeader{Name: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	zw.Close()
	for archive, code := range map[string]string{"PK\x03\x04 pas une archive": "unreadable", many.String(): "too-large"} {
		h := newHome(t)
		os.WriteFile(h.path("rendus.zip"), []byte(archive), 0o644)
		os.WriteFile(h.path("feuille.csv"), feuilleSheet("fr", feuilleRows), 0o644)
		r := h.pret("", "valider", "--feuille", "feuille.csv", "--feuille-sortie", "remplie.csv", "rendus.zip")
		if r.code != 1 || !strings.Contains(r.stderr, "pret: erreur : --feuille-sortie remplie.csv non écrite : rendus.zip n'a pas été lu") ||
			!strings.Contains(r.stdout, code) || !strings.Contains(r.stdout, "Martin Bob") {
			t.Errorf("%s: exit %d\n%s\n%s", code, r.code, r.stdout, r.stderr)
		}
		if _, err := os.Stat(h.path("remplie.csv")); err == nil {
			t.Errorf("%s: the worksheet was written", code)
		}
	}
}

// TestValiderFeuilleHelp: valider --help shows --feuille-sortie in its
// usage line and lists the two grade settings in full.
func TestValiderFeuilleHelp(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	r := h.pret("", "valider", "--help")
	for _, want := range []string{"[--feuille FICHIER [--feuille-sortie FICHIER]]", "--feuille-valide NOTE", "PRET_FEUILLE_VALIDE", "--feuille-invalide NOTE", "PRET_FEUILLE_INVALIDE", "0 par défaut"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("valider --help lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := h.pret("", "cle", "--help"); strings.Contains(r.stdout, "--feuille-valide NOTE") {
		t.Errorf("cle --help lists the grades:\n%s", r.stdout)
	}
}

// TestValiderOutputNotBesideASubmission: --sortie onto a .pub that pret
// reads beside a submission (outside tester, stop 27), or onto any file
// already in a folder to validate (a key handed in: stop 38), is refused,
// the file left as it was.
func TestValiderOutputNotBesideASubmission(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	dir := h.path("rendus/Dupont Alice_123456_assignsubmission_file_")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "acces.md"), []byte("Date de la demande : 2026-10-20\n"), 0o644)
	for name, want := range map[string]string{"id_ed25519_romeo.pub": "porte un nom de rendu", "id_ed25519": "lu avec les rendus"} {
		path, body := filepath.Join(dir, name), "ssh-ed25519 AAAA "+name+"\n"
		os.WriteFile(path, []byte(body), 0o644)
		r := h.pret("", "valider", "--sortie", path, "rendus")
		if r.code != 2 || !strings.Contains(r.stderr, want) || r.stdout != "" {
			t.Fatalf("%s: exit %d, want 2\n%s", name, r.code, r.stderr)
		}
		if data, _ := os.ReadFile(path); string(data) != body {
			t.Fatalf("%s was written: %q", name, data)
		}
	}
	// A new file there, with no submission's name, is the report.
	if r := h.pret("", "valider", "--sortie", h.path("rendus/rapport.txt"), "rendus"); r.code == 2 {
		t.Fatalf("a new report in the folder refused:\n%s", r.stderr)
	}
}
