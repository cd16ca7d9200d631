// Package moodle reads the Moodle grading worksheet, matches its rows to
// the submissions of a run, and writes it back with the grade and the
// feedback comments filled, every other byte as read (organisateurs.md).
package moodle

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/termtext"
)

// Worksheet is what a worksheet may weigh: a course of 400 learners
// writes about 100 KB; a file past 8 MiB is not one.
var Worksheet = safefile.Kind{Name: "feuille d'évaluation", Max: 8 << 20}

// bom is the UTF-8 byte order mark some Moodle versions and spreadsheets write.
const bom = "\ufeff"

// column is a column pret uses, found by its title.
type column int

const (
	colID column = iota
	colName
	colEmail
	colGrade
	colFeedback
	colMax
	nColumns
)

// headers are the titles Moodle gives the columns pret uses, English and
// French: Moodle imports only titles in the importer's language, so pret
// never renames one. Sources: assign.php 'recordid', moodle.php
// 'fullname', 'email', 'grade'/'gradenoun', assignfeedback_comments.php
// 'pluginname' ('Commentaires de feedback' as issue 22 quotes it).
var headers = [nColumns][]string{
	colID:       {"Identifier", "Identifiant"},
	colName:     {"Full name", "Nom complet"},
	colEmail:    {"Email address", "Adresse de courriel", "Adresse courriel"},
	colGrade:    {"Grade", "Note"},
	colFeedback: {"Feedback comments", "Feedback par commentaires", "Commentaires de feedback"},
	colMax:      {"Maximum grade", "Note maximale"}, // moodle.php 'maxgrade'
}

// participantPrefix is Moodle's 'hiddenuser', the same in English and French.
const participantPrefix = "Participant"

// delimiters are Moodle's comma, and what a spreadsheet may save instead.
var delimiters = []rune{',', ';', '\t'}

// Row is one learner of the worksheet.
type Row struct {
	Line        int    // the row's line in the file, for messages
	Participant string // the number after "Participant"
	Name, Email string // "" when the worksheet has no such column
	Max         string // the row's « Note maximale », as Moodle wrote it; "" none
}

// Sheet is a worksheet as read, able to write itself back: its bytes
// and, per learner, the row and its two cells to fill, never every field.
type Sheet struct {
	data   []byte // the file without its byte order mark
	bom    bool
	comma  rune
	header []string
	col    [nColumns]int
	rows   []Row
	cells  [][2]span // each row's grade and feedback cells; {-1, -1} for a missing column
}

// maxColumns and maxRows bound a worksheet (organisateurs.md).
const (
	maxColumns = 1000
	maxRows    = 50000
)

// span is a field's bytes in data, quotes included.
type span struct{ start, end int }

// Error is a worksheet pret cannot use, with what to do about it, in French.
type Error struct {
	Msg, Hint string
}

func (e *Error) Error() string { return e.Msg }

func sheetError(hint, format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// ReadAny reads what --feuille names: GitHub Classroom's roster when its
// first row is the roster's, else Moodle's worksheet.
func ReadAny(path string) (*Sheet, *Roster, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, nil, err
	}
	if ro, err := ParseRoster(data); !errors.Is(err, errNotRoster) {
		return nil, ro, err
	}
	s, err := Parse(data)
	return s, nil, err
}

// readBounded reads a worksheet through the bounded reader.
func readBounded(path string) ([]byte, error) {
	data, err := safefile.Read(path, Worksheet, safefile.FollowLink)
	if errors.Is(err, safefile.ErrTooLarge) {
		// safefile says "pour un <kind>"; a worksheet is feminine.
		return nil, sheetError("donnez la feuille d'un seul devoir, telle que Moodle l'a écrite (environ 100 Ko pour 400 apprenants)",
			"feuille d'évaluation illisible : fichier trop grand (plus de %d Mio) pour une feuille d'évaluation : il n'a pas été lu", Worksheet.Max>>20)
	}
	if err != nil {
		return nil, sheetError("donnez le fichier CSV téléchargé depuis Moodle (« Télécharger la feuille d'évaluation »)",
			"feuille d'évaluation illisible : %s", safefile.Reason(err))
	}
	return data, nil
}

// Parse reads a worksheet: UTF-8, maybe with a byte order mark, its
// delimiter the one under which the first row holds the identifier.
func Parse(data []byte) (*Sheet, error) {
	s := &Sheet{}
	if bytes.HasPrefix(data, []byte(bom)) {
		s.bom, data = true, data[len(bom):]
	}
	s.data = data
	if !utf8.Valid(data) {
		return nil, sheetError("enregistrez la feuille en UTF-8 (CSV UTF-8 dans un tableur), ou téléchargez-la à nouveau depuis Moodle",
			"la feuille d'évaluation n'est pas en UTF-8")
	}
	// encoding/csv ends no line at a CR alone: the whole file would be
	// one row. A CR not before an LF in the titles means old-Mac lines.
	first, _, _ := bytes.Cut(data, []byte{'\n'})
	cr := bytes.IndexByte(first, '\r')
	if cr >= 0 && (cr != len(first)-1 || len(first) == len(data)) {
		return nil, sheetError("enregistrez la feuille en CSV UTF-8 avec des fins de ligne Windows (CRLF) ou Unix (LF), ou téléchargez-la à nouveau depuis Moodle",
			"feuille d'évaluation illisible : ses fins de ligne sont des retours chariot seuls (CR, anciens Mac), que pret ne lit pas")
	}
	// Titles read under some delimiter but without the identifier: no
	// identifier; read under none: broken CSV.
	var headerErr error
	noID := false
	for _, comma := range delimiters {
		if bytes.Count(first, []byte(string(comma))) >= maxColumns {
			return nil, sheetError("donnez la feuille téléchargée depuis Moodle, telle qu'elle est", "feuille d'évaluation, ligne 1 : plus de %d colonnes", maxColumns)
		}
		err := s.parse(comma)
		switch {
		case err == nil:
			return s, nil
		case errors.Is(err, errNoID):
			noID = true
		case s.header != nil: // past the titles: the delimiter is this one
			return nil, err
		case headerErr == nil:
			headerErr = err
		}
	}
	if !noID {
		return nil, csvError(headerErr)
	}
	return nil, sheetError("donnez la feuille téléchargée depuis Moodle (« Télécharger la feuille d'évaluation ») : sa première ligne nomme les colonnes, dont « Identifiant »",
		"la feuille d'évaluation n'a pas de colonne « Identifiant » (« Identifier » en anglais) : pret ne peut relier aucune ligne à un rendu")
}

// errNoID is a first row without the identifier under one delimiter.
var errNoID = errors.New("pas de colonne Identifiant")

func (s *Sheet) parse(comma rune) error {
	s.comma = comma
	s.header, s.rows, s.cells = nil, nil, nil
	// FieldPos gives lines and columns: one forward cursor makes offsets.
	line, lineOff := 1, 0
	offset := func(l, c int) int {
		for ; line < l; line++ {
			lineOff += bytes.IndexByte(s.data[lineOff:], '\n') + 1
		}
		return lineOff + c - 1
	}
	r := csv.NewReader(bytes.NewReader(s.data))
	r.Comma = comma
	r.ReuseRecord = true
	seen := map[string]int{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil && s.header == nil {
			return err
		} else if err != nil {
			return csvError(err)
		}
		if s.header == nil {
			s.header = slices.Clone(rec)
			if err := s.findColumns(); err != nil {
				return err
			}
			continue
		}
		row, err := s.readRow(r, rec, seen)
		if err != nil {
			return err
		}
		var cells [2]span
		for k, c := range [2]column{colGrade, colFeedback} {
			cells[k] = span{-1, -1}
			if i := s.col[c]; i >= 0 {
				cells[k] = fieldSpan(r, rec, i, offset, s.data, comma)
			}
		}
		s.rows = append(s.rows, row)
		s.cells = append(s.cells, cells)
	}
	if s.header == nil {
		return errNoID
	}
	return nil
}

// fieldSpan is where field i of the record just read lies in data,
// quotes included.
func fieldSpan(r *csv.Reader, rec []string, i int, offset func(l, c int) int, data []byte, comma rune) span {
	l, c := r.FieldPos(i)
	sp := span{start: offset(l, c)}
	if i+1 < len(rec) {
		l, c = r.FieldPos(i + 1)
		sp.end = offset(l, c) - utf8.RuneLen(comma)
		return sp
	}
	sp.end = int(r.InputOffset())
	if sp.end > sp.start && data[sp.end-1] == '\n' {
		sp.end--
		if sp.end > sp.start && data[sp.end-1] == '\r' {
			sp.end--
		}
	}
	return sp
}

// csvError says in French where the CSV breaks.
func csvError(err error) error {
	var pe *csv.ParseError
	what := "CSV mal formé"
	line := 0
	if errors.As(err, &pe) {
		line = pe.Line
		switch {
		case errors.Is(pe.Err, csv.ErrFieldCount):
			what = "le nombre de colonnes n'est pas celui de la première ligne"
		case errors.Is(pe.Err, csv.ErrQuote), errors.Is(pe.Err, csv.ErrBareQuote):
			what = "guillemet mal placé"
		}
	}
	return sheetError("téléchargez à nouveau la feuille depuis Moodle, ou corrigez-la dans un tableur et enregistrez-la en CSV UTF-8",
		"feuille d'évaluation illisible, ligne %d : %s", line, what)
}

// findColumns finds the columns pret uses by their titles, case and
// spaces around aside. Only the identifier is required here.
func (s *Sheet) findColumns() error {
	for c := range s.col {
		s.col[c] = -1
	}
	for i, h := range s.header {
		title := func(n string) bool { return strings.EqualFold(strings.TrimSpace(h), n) }
		for c, names := range headers {
			if s.col[c] < 0 && slices.ContainsFunc(names, title) {
				s.col[c] = i
			}
		}
	}
	if s.col[colID] < 0 {
		return errNoID
	}
	return nil
}

// readRow reads one learner: "Participant N", once, and name and e-mail.
func (s *Sheet) readRow(r *csv.Reader, rec []string, seen map[string]int) (Row, error) {
	line, _ := r.FieldPos(0)
	if len(s.rows) == maxRows {
		return Row{}, sheetError("donnez la feuille d'un seul devoir, telle que Moodle l'a écrite",
			"feuille d'évaluation, ligne %d : plus de %d apprenants", line, maxRows)
	}
	id := strings.TrimSpace(rec[s.col[colID]])
	num, ok := participantNumber(id)
	if !ok {
		return Row{}, sheetError("gardez la colonne « "+s.header[s.col[colID]]+" » telle que Moodle l'a écrite",
			"feuille d'évaluation, ligne %d : identifiant « %s » au lieu de « Participant 123456 »", line, termtext.Escape(id))
	}
	if first, dup := seen[num]; dup {
		return Row{}, sheetError("gardez une ligne par participant, telle que Moodle l'a écrite",
			"feuille d'évaluation, lignes %d et %d : le même identifiant « Participant %s »", first, line, num)
	}
	seen[num] = line
	// Clones: the record's fields share one string the row must not keep.
	row := Row{Line: line, Participant: strings.Clone(num)}
	if c := s.col[colName]; c >= 0 {
		row.Name = strings.Clone(strings.TrimSpace(rec[c]))
	}
	if c := s.col[colEmail]; c >= 0 {
		row.Email = strings.Clone(strings.TrimSpace(rec[c]))
	}
	if c := s.col[colMax]; c >= 0 {
		row.Max = strings.Clone(strings.TrimSpace(rec[c]))
	}
	return row, nil
}

// participantNumber reads "Participant 123456", any case and spacing.
func participantNumber(id string) (string, bool) {
	if len(id) < len(participantPrefix) || !strings.EqualFold(id[:len(participantPrefix)], participantPrefix) {
		return "", false
	}
	return number(strings.TrimSpace(id[len(participantPrefix):]))
}

// number is a participant number by its value, without leading zeros
// ("00101" is "101"), however it is spelled; Moodle's ids are far below
// 18 digits.
func number(s string) (string, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return "", false
	}
	s = strings.TrimLeft(s, "0")
	if s == "" {
		s = "0"
	}
	return s, len(s) <= 18
}

// CheckWritable says whether the worksheet has a grade column to fill.
func (s *Sheet) CheckWritable() error {
	if s.col[colGrade] < 0 {
		return sheetError("téléchargez la feuille d'un devoir noté (Moodle n'écrit la colonne « Note » que pour un devoir qui a une note)",
			"la feuille d'évaluation n'a pas de colonne « Note » (« Grade » en anglais) : --feuille-sortie n'a rien où écrire la note")
	}
	return nil
}

// Fill is what goes into one learner's row.
type Fill struct {
	Grade, Feedback string
	Valid           bool // the grade is a valid submission's
	Max             bool // the grade is the row's « Note maximale »
}

// Write returns the worksheet with the grade and feedback cells of the
// rows fills names (by participant number) replaced, every other byte
// as read.
func (s *Sheet) Write(fills map[string]Fill) []byte {
	var out bytes.Buffer
	if s.bom {
		out.WriteString(bom)
	}
	type cell struct {
		span
		value string
	}
	var cells []cell
	for i, row := range s.rows {
		if f, ok := fills[row.Participant]; ok {
			for k, v := range [2]string{f.Grade, f.Feedback} {
				if c := s.cells[i][k]; c.start >= 0 {
					cells = append(cells, cell{c, v})
				}
			}
		}
	}
	slices.SortFunc(cells, func(a, b cell) int { return a.start - b.start }) // in file order
	at := 0
	for _, c := range cells {
		out.Write(s.data[at:c.start])
		// Quoted as PHP's fputcsv quotes, or as the cell it replaces was.
		v, old := c.value, s.data[c.start:c.end]
		if bytes.HasPrefix(old, []byte{'"'}) || strings.ContainsAny(v, string(s.comma)+"\"\\\r\n \t") {
			v = `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
		}
		out.WriteString(v)
		at = c.end
	}
	out.Write(s.data[at:])
	return out.Bytes()
}
