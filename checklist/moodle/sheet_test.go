package moodle

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// The worksheets as Moodle writes them: PHP's fputcsv quotes a cell that
// holds a space; the English one comes with a byte order mark and CRLF.
const (
	sheetFR = `Identifiant,"Nom complet","Adresse de courriel",Statut,Note,"Note maximale","La note peut être modifiée","Dernière modification (travail remis)","Dernière modification (note)","Feedback par commentaires"
"Participant 101","Dupont Alice",alice@example.org,"Remis pour évaluation",,20,Oui,"lundi 2 novembre 2026, 10:04",-,
"Participant 102","Martin Bob",bob@example.org,"Aucun travail remis",,20,Oui,-,-,"déjà ""noté"""
"Participant 103","Durand Chloé",chloe@example.org,"Remis pour évaluation",,20,Oui,"mardi 3 novembre 2026, 08:00",-,
`
	sheetEN = "\ufeffIdentifier,\"Full name\",\"Email address\",Status,Grade,\"Maximum grade\",\"Grade can be changed\",\"Last modified (submission)\",\"Last modified (grade)\",\"Feedback comments\"\r\n" +
		"\"Participant 101\",\"Dupont Alice\",alice@example.org,\"Submitted for grading\",,20,Yes,\"Monday, 2 November 2026, 10:04 AM\",-,\r\n" +
		"\"Participant 102\",\"Martin Bob\",bob@example.org,\"No submission\",,20,Yes,-,-,\"multi\r\nline\"\r\n" +
		"\"Participant 103\",\"Durand Chloé\",chloe@example.org,\"Submitted for grading\",,20,Yes,-,-,\r\n"
)

func mustParse(t *testing.T, data string) *Sheet {
	t.Helper()
	s, err := Parse([]byte(data))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return s
}

// sameRows: the same learners, whatever line a filled cell on two lines
// moved them to.
func sameRows(a, b *Sheet) bool {
	return slices.EqualFunc(a.rows, b.rows, func(x, y Row) bool {
		x.Line, y.Line = 0, 0
		return x == y
	})
}

// outside is a worksheet's bytes without its grade and feedback cells.
func outside(s *Sheet) string {
	var b strings.Builder
	if s.bom {
		b.WriteString(bom)
	}
	at := 0
	for _, cells := range s.cells {
		for _, c := range cells {
			if c.start >= 0 {
				b.Write(s.data[at:c.start])
				b.WriteString("<>")
				at = c.end
			}
		}
	}
	b.Write(s.data[at:])
	return b.String()
}

func readCSVComma(t *testing.T, data []byte, comma rune) [][]string {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte(bom))))
	r.Comma = comma
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("encoding/csv: %v\n%s", err, data)
	}
	return recs
}

func TestReadBothLanguages(t *testing.T) {
	for name, data := range map[string]string{"fr": sheetFR, "en": sheetEN} {
		s := mustParse(t, data)
		want := []Row{
			{Line: 2, Participant: "101", Name: "Dupont Alice", Email: "alice@example.org", Max: "20"},
			{Line: 3, Participant: "102", Name: "Martin Bob", Email: "bob@example.org", Max: "20"},
			{Line: 4, Participant: "103", Name: "Durand Chloé", Email: "chloe@example.org", Max: "20"},
		}
		if name == "en" {
			want[2].Line = 5 // the cell on two lines
		}
		if !slices.Equal(s.rows, want) {
			t.Errorf("%s: rows %+v", name, s.rows)
		}
		if s.bom != (name == "en") || s.comma != ',' {
			t.Errorf("%s: bom %v comma %q", name, s.bom, s.comma)
		}
		if err := s.CheckWritable(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestWriteKeepsTheRest: nothing to fill writes the very bytes read;
// filling keeps every column, every row and, outside the two filled
// cells, every field's bytes (quotes, line ends, byte order mark).
func TestWriteKeepsTheRest(t *testing.T) {
	for name, data := range map[string]string{"fr": sheetFR, "en": sheetEN, "semicolons": strings.ReplaceAll(sheetFR, ",", ";")} {
		s := mustParse(t, data)
		fills := map[string]Fill{
			"101": {Grade: "1", Feedback: "acces.md valide."},
			"102": {Grade: "0", Feedback: "Aucun rendu reçu pour ce devoir."},
		}
		after := checkWrite(t, []byte(data), s, func(i int) (Fill, bool) {
			f, ok := fills[s.rows[i-1].Participant]
			return f, ok
		})
		g, fb := s.col[colGrade], s.col[colFeedback]
		if len(after) != 4 || after[1][g] != "1" || after[2][fb] != "Aucun rendu reçu pour ce devoir." || after[3][g] != "" {
			t.Errorf("%s: encoding/csv reads %q", name, after)
		}
	}
}

// checkWrite: s, read from data, written back with nothing filled is
// data; filled with fill (the values of record i > 0, if any), it reads
// again to the same form, header and rows, every byte outside the two
// filled cells kept, and encoding/csv reads each cell as before but the
// filled ones, which hold the values. It returns the records read back.
func checkWrite(t *testing.T, data []byte, s *Sheet, fill func(i int) (Fill, bool)) [][]string {
	t.Helper()
	if got := s.Write(nil); !bytes.Equal(got, data) {
		t.Fatalf("unchanged worksheet written as %q, read %q", got, data)
	}
	fills := map[string]Fill{}
	for i, r := range s.rows {
		if f, ok := fill(i + 1); ok {
			fills[r.Participant] = f
		}
	}
	out := s.Write(fills)
	again, err := Parse(out)
	if err != nil {
		t.Fatalf("the filled worksheet does not read again: %v\n%q", err, out)
	}
	if again.bom != s.bom || again.comma != s.comma || !slices.Equal(again.header, s.header) || !sameRows(again, s) {
		t.Fatalf("header, rows or form changed:\n%q\n%q", data, out)
	}
	if a, b := outside(again), outside(s); a != b {
		t.Fatalf("bytes outside the filled cells changed:\n%q\n%q", a, b)
	}
	before, after := readCSVComma(t, data, s.comma), readCSVComma(t, out, s.comma)
	if len(after) != len(before) {
		t.Fatalf("%d records read back, %d read", len(after), len(before))
	}
	g, fb := s.col[colGrade], s.col[colFeedback]
	for i, rec := range after {
		if len(rec) != len(before[i]) {
			t.Fatalf("row %d has %d columns, had %d", i, len(rec), len(before[i]))
		}
		f, filled := Fill{}, false
		if i > 0 {
			f, filled = fill(i)
		}
		for j, v := range rec {
			want := before[i][j]
			// A CSV reader reads CRLF in a quoted cell as LF.
			switch {
			case filled && j == g:
				want = strings.ReplaceAll(f.Grade, "\r\n", "\n")
			case filled && j == fb:
				want = strings.ReplaceAll(f.Feedback, "\r\n", "\n")
			}
			if v != want {
				t.Fatalf("row %d column %d: %q, want %q\n%q", i, j, v, want, out)
			}
		}
	}
	return after
}

func manyRows(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "Participant %d,\n", i)
	}
	return b.String()
}

func TestSheetErrors(t *testing.T) {
	cases := map[string]struct{ data, say string }{
		"no identifier":       {"\"Nom complet\",Note\n\"Dupont Alice\",\n", "pas de colonne « Identifiant »"},
		"empty":               {"", "pas de colonne « Identifiant »"},
		"not a participant":   {"Identifiant,Note\n\"Utilisateur 12\",\n", "ligne 2 : identifiant « Utilisateur 12 »"},
		"no number":           {"Identifier,Grade\nParticipant,\n", "au lieu de « Participant 123456 »"},
		"twice":               {"Identifiant,Note\nParticipant 7,\nParticipant 7,\n", "lignes 2 et 3 : le même identifiant"},
		"ragged":              {"Identifiant,Note\nParticipant 7\n", "ligne 2 : le nombre de colonnes"},
		"bare quote":          {"Identifiant,Note\nParticipant 7,1\"\n", "ligne 2 : guillemet mal placé"},
		"bad quote in header": {"Identi\"fiant,Note\n", "ligne 1 : guillemet mal placé"},
		"not UTF-8":           {"Identifiant,\"Nom complet\"\nParticipant 7,Andr\xe9\n", "pas en UTF-8"},
		"too wide":            {"Identifiant" + strings.Repeat(",", maxColumns) + "\n", "ligne 1 : plus de 1000 colonnes"},
		"too long":            {"Identifiant,Note\n" + manyRows(maxRows+1), "ligne 50002 : plus de 50000 apprenants"},
		"CR line ends":        {"Identifiant,Note\rParticipant 101,\rParticipant 102,\r", "fins de ligne"},
		"CR then LF":          {"Identifiant,Note\rParticipant 101,\nParticipant 102,\n", "fins de ligne"},
		"CR, one line":        {"Identifiant,Note\r", "fins de ligne"},
	}
	for name, tc := range cases {
		_, err := Parse([]byte(tc.data))
		var se *Error
		if !errors.As(err, &se) || !strings.Contains(se.Msg, tc.say) || se.Hint == "" {
			t.Errorf("%s: %v, want %q", name, err, tc.say)
		}
	}
	s := mustParse(t, "Identifiant,\"Nom complet\"\nParticipant 7,x\n")
	if err := s.CheckWritable(); err == nil || !strings.Contains(err.Error(), "pas de colonne « Note »") {
		t.Errorf("no grade column: %v", err)
	}
}

func TestReadAnyBounded(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := ReadAny(dir); err == nil || !strings.Contains(err.Error(), "illisible : ce n'est pas un fichier ordinaire") {
		t.Errorf("a folder: %v", err)
	}
	big := filepath.Join(dir, "gros.csv")
	os.WriteFile(big, bytes.Repeat([]byte("x"), int(Worksheet.Max)+1), 0o644)
	if _, _, err := ReadAny(big); err == nil || !strings.Contains(err.Error(), "trop grand (plus de 8 Mio) pour une feuille d'évaluation") {
		t.Errorf("too large: %v", err)
	}
	ok := filepath.Join(dir, "feuille.csv")
	os.WriteFile(ok, []byte(sheetEN), 0o644)
	if s, _, err := ReadAny(ok); err != nil || len(s.rows) != 3 {
		t.Errorf("a worksheet: %v", err)
	}
}

// results is a run for Match.
type results []checklist.FileResult

func (r results) Len() int                      { return len(r) }
func (r results) At(i int) checklist.FileResult { return r[i] }

// TestParticipantOfFilled: the number is the one the walker filled, by
// its value; a path is never read for one (the walker alone knows
// Moodle's folder names).
func TestParticipantOfFilled(t *testing.T) {
	for p, want := range map[string]string{"9": "9", "0009": "9", "": ""} {
		if got := ParticipantOf(checklist.FileResult{Path: "r.zip!/Dupont Alice_101_assignsubmission_file_/acces.md", Participant: p}); got != want {
			t.Errorf("Participant %q: %q, want %q", p, got, want)
		}
	}
}

func TestMatch(t *testing.T) {
	s := mustParse(t, sheetFR)
	run := results{
		{Path: "rendus.zip!/Dupont Alice_101_assignsubmission_file_/acces.md", Apprenant: "Dupont Alice", Participant: "101", Valid: true},
		{Path: "rendus.zip!/Durand Chloé_103_assignsubmission_file_acces.md", Apprenant: "Durand Chloé", Participant: "103",
			Problems: []checklist.Problem{
				{Code: "missing-date", Severity: checklist.SevError, Message: "aucune date <b>", Line: 3},
				{Code: "late-request", Severity: checklist.SevWarning, Message: "demande tardive"},
			}},
		{Path: "seul/acces.md", Apprenant: "seul", Valid: true},
	}
	m, err := Match(run, s, "feuille.csv")
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() != 4 || m.Missing() != 1 {
		t.Fatalf("len %d, missing %d", m.Len(), m.Missing())
	}
	if f := m.At(0); f.Participant != "101" || f.Email != "alice@example.org" {
		t.Errorf("a matched result: %+v", f)
	}
	if f := m.At(2); f.Participant != "" || f.Email != "" {
		t.Errorf("a result outside Moodle: %+v", f)
	}
	miss := m.At(3)
	if miss.Valid || miss.Apprenant != "Martin Bob" || miss.Email != "bob@example.org" || miss.Participant != "102" || miss.Path != "feuille.csv" ||
		len(miss.Problems) != 1 || miss.Problems[0].Code != "no-submission" || miss.Problems[0].Severity != checklist.SevError || miss.Problems[0].Line != 3 ||
		!strings.Contains(miss.Problems[0].Message, "Martin Bob (bob@example.org, participant 102)") {
		t.Errorf("no-submission: %+v", miss)
	}
	fills := m.Fills(Grades{Valid: "19", Invalid: "0", ValidSet: true})
	want := map[string]Fill{
		"101": {Grade: "19", Feedback: "acces.md valide.", Valid: true},
		"102": {Grade: "0", Feedback: "Aucun rendu reçu pour ce devoir."},
		"103": {Grade: "0", Feedback: "acces.md invalide :<br>ligne 3 : aucune date &lt;b&gt; → " + html.EscapeString(checklist.Info(checklist.CodeMissingDate).Advice) +
			"<br>demande tardive (avertissement) → " + html.EscapeString(checklist.Info(checklist.CodeLateRequest).Advice)},
	}
	if len(fills) != len(want) {
		t.Errorf("fills %+v", fills)
	}
	for k, w := range want {
		if fills[k] != w {
			t.Errorf("%s: %+v, want %+v", k, fills[k], w)
		}
	}
	// Two files of one learner: valid only when both are, each named.
	two := results{
		{Path: "r/Dupont Alice_101_assignsubmission_file_/acces.md", Participant: "101", Valid: true},
		{Path: "r/Dupont Alice_101_assignsubmission_file_/acces (1).md", Participant: "101", Problems: []checklist.Problem{{Code: "bad-date", Severity: checklist.SevError, Message: "date"}}},
	}
	m, err = Match(two, s, "f.csv")
	if err != nil {
		t.Fatal(err)
	}
	if f := m.Fills(Grades{Valid: "1", Invalid: "0"})["101"]; f != (Fill{Grade: "0", Feedback: "acces.md invalide :<br>acces (1).md : date → " + html.EscapeString(checklist.Info(checklist.CodeBadDate).Advice)}) {
		t.Errorf("two files: %+v", f)
	}
	// The learner reads her feedback: it never names the other learner
	// who stated her key (outside tester); the report does.
	dup := results{{Path: "r/Martin Bob_102_assignsubmission_file_/acces.md", Participant: "102", Problems: []checklist.Problem{{Code: "duplicate-fingerprint", Severity: checklist.SevError, Line: 3,
		Message: "la même empreinte figure aussi dans r/Dupont Alice_101_assignsubmission_file_/acces.md : deux personnes ne partagent pas une clé"}}}}
	if m, err = Match(dup, s, "f.csv"); err != nil {
		t.Fatal(err)
	}
	if f := m.Fills(Grades{Valid: "1", Invalid: "0"})["102"]; strings.Contains(f.Feedback, "Alice") || !strings.Contains(f.Feedback, "ligne 3 : la même empreinte figure dans le rendu d&#39;une autre personne") {
		t.Errorf("duplicate: %+v", f)
	}
}

func TestUnread(t *testing.T) {
	s := mustParse(t, sheetFR)
	unreadable := []checklist.Problem{{Code: "unreadable", Severity: checklist.SevError, Message: "illisible"}}
	own := results{{Path: "r/Dupont Alice_101_assignsubmission_file_/acces.md", Participant: "101", Problems: unreadable}}
	if m, err := Match(own, s, "f.csv"); err != nil || m.Unread() != "" {
		t.Errorf("a learner's own unreadable file: %v %q", err, m.Unread())
	}
	above := append(own, checklist.FileResult{Path: "rendus.zip", Problems: unreadable})
	if m, err := Match(above, s, "f.csv"); err != nil || m.Unread() != "rendus.zip" {
		t.Errorf("an unreadable archive: %v %q", err, m.Unread())
	}
	// An archive over the entry or directory limit is read no more than a corrupt one.
	tooLarge := append(own, checklist.FileResult{Path: "grand.zip", Problems: []checklist.Problem{{Code: "too-large", Severity: checklist.SevError, Message: "archive trop grande"}}})
	if m, err := Match(tooLarge, s, "f.csv"); err != nil || m.Unread() != "grand.zip" {
		t.Errorf("an archive too large: %v %q", err, m.Unread())
	}
}

func TestMatchRefusesAnotherAssignment(t *testing.T) {
	s := mustParse(t, sheetFR)
	none := results{{Path: "r/Leroy Emma_900_assignsubmission_file_acces.md", Apprenant: "Leroy Emma", Participant: "900"}}
	if _, err := Match(none, s, "f.csv"); err == nil || !strings.Contains(err.Error(), "aucun rendu n'est dans la feuille d'évaluation f.csv") {
		t.Errorf("no number in the worksheet: %v", err)
	}
	some := results{
		{Path: "r/Dupont Alice_101_assignsubmission_file_acces.md", Apprenant: "Dupont Alice", Participant: "101"},
		{Path: "r/Leroy\x1b[31m Emma_900_assignsubmission_file_/Martin Bob_102_assignsubmission_file_acces.md", Apprenant: "Leroy\x1b[31m Emma", Participant: "900"},
	}
	_, err := Match(some, s, "f.csv")
	var se *Error
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "1 rendu sans ligne dans la feuille d'évaluation f.csv : Leroy\\033[31m Emma (participant 900)") || strings.Contains(se.Msg, "\x1b") {
		t.Errorf("a submission outside the worksheet: %v", err)
	}
}

// FuzzSheet: a worksheet pret reads, written back with nothing filled,
// is the same bytes; filled with any values, it reads again to the same
// header and rows, the two columns holding the values.
func FuzzSheet(f *testing.F) {
	f.Add([]byte(sheetFR), "1", "x")
	f.Add([]byte(sheetEN), "", "a \"b\"\r\nc")
	f.Add([]byte("Identifiant;Note;\"Feedback par commentaires\"\nParticipant 1;;\n"), "0,5", "é;")
	f.Add([]byte("Note,Identifiant\r\nx,Participant 3"), " ", "")
	f.Fuzz(func(t *testing.T, data []byte, grade, feedback string) {
		s, err := Parse(data)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || se.Msg == "" || se.Hint == "" {
				t.Fatalf("an error outside the contract: %v", err)
			}
			return
		}
		// A value that is not UTF-8 makes a worksheet that is not.
		grade, feedback = strings.ToValidUTF8(grade, "?"), strings.ToValidUTF8(feedback, "?")
		checkWrite(t, data, s, func(int) (Fill, bool) { return Fill{Grade: grade, Feedback: feedback}, true })
	})
}

// TestParticipantByValue: a participant number is its value, whatever
// the leading zeros: "Participant 00101" is "Participant 101" (the same
// learner twice is refused), and a folder numbered 0101 is that row.
func TestParticipantByValue(t *testing.T) {
	_, err := Parse([]byte("Identifiant,Note\n\"Participant 101\",\n\"Participant 102\",\n\"Participant 00101\",\n"))
	var se *Error
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "lignes 2 et 4 : le même identifiant « Participant 101 »") {
		t.Errorf("leading zeros: %v", err)
	}
	for id, want := range map[string]string{"Participant 0": "0", "Participant 000": "0", "Participant 0042": "42", "participant 7": "7"} {
		if got, ok := participantNumber(id); !ok || got != want {
			t.Errorf("%q: %q %v, want %q", id, got, ok, want)
		}
	}
	s := mustParse(t, "Identifiant,Note\n\"Participant 00101\",\n\"Participant 102\",\n")
	m, err := Match(results{{Path: "r/Dupont Alice_101_assignsubmission_file_/acces.md", Participant: "101", Valid: true},
		{Path: "r/Martin Bob_000102_assignsubmission_file_/acces.md", Participant: "000102", Valid: true}}, s, "f.csv")
	if err != nil || m.Missing() != 0 {
		t.Fatalf("match by value: %v", err)
	}
	if out := string(s.Write(m.Fills(Grades{Valid: "1", Invalid: "0"}))); out != "Identifiant,Note\n\"Participant 00101\",1\n\"Participant 102\",1\n" {
		t.Errorf("written: %q", out)
	}
}

// TestGradeScale: a valid learner gets her row's « Note maximale »
// (« Maximum grade »), 20 on a scale of 20, unless feuille.valide was
// given; Written says which grades went where.
func TestGradeScale(t *testing.T) {
	for name, data := range map[string]string{"fr": strings.Replace(sheetFR, ",20,Oui,\"mardi", ",10,Oui,\"mardi", 1), "en": sheetEN} {
		s := mustParse(t, data)
		run := results{
			{Path: "r/Dupont Alice_101_assignsubmission_file_/acces.md", Participant: "101", Valid: true},
			{Path: "r/Durand Chloé_103_assignsubmission_file_/acces.md", Participant: "103", Valid: true},
		}
		m, err := Match(run, s, "f.csv")
		if err != nil {
			t.Fatal(err)
		}
		fills := m.Fills(Grades{Valid: "1", Invalid: "0"})
		wantChloe := map[string]string{"fr": "10", "en": "20"}[name]
		if fills["101"].Grade != "20" || fills["103"].Grade != wantChloe || fills["102"].Grade != "0" || !fills["101"].Max {
			t.Errorf("%s: %+v", name, fills)
		}
		said := Written(fills)
		if !strings.Contains(said, "2 rendus valides : « 20 »") || !strings.Contains(said, "1 invalide ou sans rendu : « 0 »") || !strings.Contains(said, "Note maximale") {
			t.Errorf("%s: %q", name, said)
		}
		// Not a number (a scale's item, a dash): feuille.valide.
		for _, max := range []string{"-", "Très bien", "20,00,1"} {
			s.rows[0].Max = max
			if f := m.Fills(Grades{Valid: "1", Invalid: "0"})["101"]; f.Grade != "1" || f.Max {
				t.Errorf("%s: « Note maximale » %q: %+v", name, max, f)
			}
		}
		s.rows[0].Max = "20,00"
		if f := m.Fills(Grades{Valid: "1", Invalid: "0"})["101"]; f.Grade != "20,00" {
			t.Errorf("%s: 20,00: %+v", name, f)
		}
		set := m.Fills(Grades{Valid: "1", Invalid: "0", ValidSet: true})
		if set["101"].Grade != "1" || set["101"].Max || strings.Contains(Written(set), "Note maximale") {
			t.Errorf("%s: feuille.valide given: %+v, %q", name, set["101"], Written(set))
		}
	}
}
