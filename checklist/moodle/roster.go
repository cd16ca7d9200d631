package moodle

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/termtext"
)

// rosterHeader is the first row of GitHub Classroom's classroom_roster.csv.
var rosterHeader = []string{"identifier", "github_username", "github_id", "name"}

// Student is one row of a Classroom roster.
type Student struct {
	Line                    int
	Identifier, Login, Name string
}

// Roster is a GitHub Classroom roster, read only: Classroom imports no
// grades, so pret never writes one back.
type Roster struct{ students []Student }

// errNotRoster: the first row does not name the roster's columns.
var errNotRoster = errors.New("pas un roster Classroom")

// ParseRoster reads a Classroom roster: UTF-8, comma-separated, a header
// naming identifier and github_username (github_id and name if there);
// errNotRoster when its first row does not name them.
func ParseRoster(data []byte) (*Roster, error) {
	data = bytes.TrimPrefix(data, []byte(bom))
	r := csv.NewReader(bytes.NewReader(data))
	header, err := r.Read()
	for _, want := range rosterHeader[:2] {
		if err != nil || !slices.ContainsFunc(header, func(h string) bool { return strings.EqualFold(strings.TrimSpace(h), want) }) {
			return nil, errNotRoster
		}
	}
	if !utf8.Valid(data) {
		return nil, sheetError("téléchargez à nouveau le roster depuis GitHub Classroom", "le roster Classroom n'est pas en UTF-8")
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	cell := func(rec []string, name string) string {
		if i, ok := col[name]; ok {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	ro, seen := &Roster{}, map[string]int{} // folded login → its line
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return ro, nil
		}
		if err != nil {
			return nil, rosterCSVError(err)
		}
		line, _ := r.FieldPos(0)
		if len(ro.students) == maxRows {
			return nil, sheetError("donnez le roster d'une seule classe", "roster Classroom, ligne %d : plus de %d étudiants", line, maxRows)
		}
		st := Student{Line: line, Identifier: cell(rec, "identifier"), Login: cell(rec, "github_username"), Name: cell(rec, "name")}
		// One account, two students: her repository would go to either.
		if first, dup := seen[strings.ToLower(st.Login)]; dup && st.Login != "" {
			return nil, sheetError("gardez une ligne par étudiant, telle que GitHub Classroom l'a écrite",
				"roster Classroom, lignes %d et %d : le même compte GitHub « %s » (GitHub ne distingue pas les majuscules)", first, line, termtext.Escape(st.Login))
		}
		seen[strings.ToLower(st.Login)] = line
		ro.students = append(ro.students, st)
	}
}

func rosterCSVError(err error) error {
	line := 0
	if pe, ok := errors.AsType[*csv.ParseError](err); ok {
		line = pe.Line
	}
	return sheetError("téléchargez à nouveau le roster depuis GitHub Classroom (« Download » dans « Students »)",
		"roster Classroom illisible, ligne %d : CSV mal formé", line)
}

// RosterMatched is a run's results with the roster beside: a result
// whose learner is a student's login (her repository "ASSIGNMENT-LOGIN")
// carries her name and identifier; a student without one gets a result
// of her own, no-submission, after the others.
type RosterMatched struct {
	absent
	byLogin map[string]int // folded login → index in students
	owner   []int          // by result: 1 + her index; 0 none
	ro      *Roster
}

// MatchRoster matches the results to the roster read at path.
func MatchRoster(base checklist.Results, ro *Roster, path string) *RosterMatched {
	m := &RosterMatched{absent: absent{base: base}, byLogin: map[string]int{}, ro: ro, owner: make([]int, base.Len())}
	for i, s := range ro.students {
		if s.Login != "" {
			m.byLogin[strings.ToLower(s.Login)] = i
		}
	}
	has := make([]bool, len(ro.students))
	for i := range base.Len() {
		if k, ok := m.studentOf(base.At(i)); ok {
			m.owner[i], has[k] = k+1, true
		}
	}
	for k, s := range ro.students {
		if !has[k] {
			m.missing = append(m.missing, noRepository(s, path))
		}
	}
	return m
}

// studentOf is the student whose login names the result's learner: the
// login itself, or a repository name ending in "-LOGIN" (GitHub logins
// compare without case).
func (m *RosterMatched) studentOf(f checklist.FileResult) (int, bool) {
	if f.Participant != "" {
		return 0, false // a Moodle learner
	}
	who := strings.ToLower(f.Apprenant)
	if k, ok := m.byLogin[who]; ok {
		return k, true // her name as the walk read it: after ASSIGNMENT-submissions' prefix
	}
	// Else her repository's name, when the walk cut a longer prefix all
	// repositories share ("acces-romeo-x-" of acces-romeo-x-bob, login x-bob).
	for el := range strings.SplitSeq(strings.ToLower(filepath.ToSlash(f.Path)), "/") {
		if strings.HasSuffix(el, "-"+who) {
			who = el
			break
		}
	}
	for i := strings.IndexByte(who, '-'); i >= 0; i = strings.IndexByte(who, '-') {
		who = who[i+1:]
		if k, ok := m.byLogin[who]; ok {
			return k, true
		}
	}
	return 0, false
}

// At is result i, with the roster's name and identifier.
func (m *RosterMatched) At(i int) checklist.FileResult {
	if n := m.base.Len(); i >= n {
		return m.missing[i-n]
	}
	f := m.base.At(i)
	if k := m.owner[i]; k > 0 {
		s := m.ro.students[k-1]
		if s.Name != "" {
			f.Apprenant = s.Name
		}
		f.Participant = s.Identifier
	}
	return f
}

// noRepository is the result of a student who handed nothing in.
func noRepository(s Student, path string) checklist.FileResult {
	who := cmp.Or(s.Name, s.Login, s.Identifier)
	var contact []string
	for _, v := range []string{s.Identifier, s.Login} {
		if v != "" && v != who && !slices.Contains(contact, v) {
			contact = append(contact, v)
		}
	}
	why := "aucun dépôt de ce compte GitHub dans les rendus"
	if s.Login == "" {
		why = "pas de compte GitHub relié à cette ligne du roster : aucun dépôt ne peut être le sien"
	}
	msg := fmt.Sprintf("aucun rendu de %s : inscrit au roster Classroom, %s", who, why)
	if len(contact) > 0 {
		msg = fmt.Sprintf("aucun rendu de %s (%s) : inscrit au roster Classroom, %s", who, strings.Join(contact, ", "), why)
	}
	return checklist.FileResult{Path: path, Apprenant: who, Participant: s.Identifier,
		Problems: []checklist.Problem{{Code: checklist.CodeNoSubmission, Severity: checklist.SevError, Line: s.Line, Message: msg}}}
}
