package moodle

import (
	"fmt"
	"html"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/termtext"
)

// ParticipantOf is the Moodle participant number of a result by its
// value, "" outside Moodle (checklist/submissions reads the names).
func ParticipantOf(f checklist.FileResult) string {
	if n, ok := number(f.Participant); ok {
		return n
	}
	return f.Participant
}

// Grades are the values written in the grade column. Unless ValidSet
// (feuille.valide given), a valid submission gets its row's « Note
// maximale » when the worksheet has one: 20 on a scale of 20, not 1.
type Grades struct {
	Valid, Invalid string
	ValidSet       bool
}

// Matched is a run's results with the worksheet beside: each result
// gains its participant number and e-mail, and each learner without a
// submission gets a result of its own, no-submission, after the others.
type Matched struct {
	absent
	sheet   *Sheet
	byNum   map[string]int // participant number → index in sheet.rows
	results map[string][]int
}

// absent is a run's results, then one result per learner without a
// submission, found in a worksheet or a roster.
type absent struct {
	base    checklist.Results
	missing []checklist.FileResult
}

// Missing is how many learners of the worksheet or roster have no submission.
func (a *absent) Missing() int { return len(a.missing) }

// Len is the run's results and one per learner without a submission.
func (a *absent) Len() int { return a.base.Len() + len(a.missing) }

// Match matches the results to the worksheet at sheetPath. It fails
// when the two cannot be from one assignment: none of the submissions'
// numbers is in the worksheet, or some are and others not.
func Match(base checklist.Results, sheet *Sheet, sheetPath string) (*Matched, error) {
	m := &Matched{absent: absent{base: base}, sheet: sheet, byNum: map[string]int{}, results: map[string][]int{}}
	for i, r := range sheet.rows {
		m.byNum[r.Participant] = i
	}
	var strangers []string
	found := 0
	for i := range base.Len() {
		f := base.At(i)
		num := ParticipantOf(f)
		if num == "" {
			continue
		}
		if _, ok := m.byNum[num]; ok && len(m.results[num]) == 0 {
			found++
		} else if !ok && len(m.results[num]) == 0 {
			strangers = append(strangers, fmt.Sprintf("%s (participant %s)", f.Apprenant, num))
		}
		m.results[num] = append(m.results[num], i)
	}
	if len(strangers) > 0 && found == 0 {
		return nil, sheetError("téléchargez la feuille d'évaluation du devoir dont viennent les rendus",
			"aucun rendu n'est dans la feuille d'évaluation %s (%d rendus Moodle, %d lignes) : la feuille et les rendus ne sont pas du même devoir", termtext.Escape(sheetPath), len(strangers), len(sheet.rows))
	}
	if len(strangers) > 0 {
		shown := strangers
		if len(shown) > 3 {
			shown = append(shown[:3:3], fmt.Sprintf("et %d autres", len(strangers)-3))
		}
		return nil, sheetError("téléchargez à nouveau la feuille d'évaluation, de tous les groupes, après la date limite des rendus",
			"%d rendu%s sans ligne dans la feuille d'évaluation %s : %s ; la note de ces apprenants n'aurait nulle part où aller", len(strangers), termtext.Plural(len(strangers)), termtext.Escape(sheetPath), termtext.Escape(strings.Join(shown, ", ")))
	}
	for _, r := range sheet.rows {
		if len(m.results[r.Participant]) == 0 {
			m.missing = append(m.missing, noSubmission(r, sheetPath))
		}
	}
	return m, nil
}

// Unread is the path of the first result of no Moodle participant that
// was not read, unreadable or too large (an archive over pret's limits),
// "" none: its learners would be graded as if absent.
func (m *Matched) Unread() string {
	unreadable := func(p checklist.Problem) bool {
		return p.Code == checklist.CodeUnreadable || p.Code == checklist.CodeTooLarge
	}
	for i := range m.base.Len() {
		if f := m.base.At(i); ParticipantOf(f) == "" && slices.ContainsFunc(f.Problems, unreadable) {
			return f.Path
		}
	}
	return ""
}

// At is result i, with its participant number and its row's e-mail.
func (m *Matched) At(i int) checklist.FileResult {
	if n := m.base.Len(); i >= n {
		return m.missing[i-n]
	}
	f := m.base.At(i)
	if num := ParticipantOf(f); num != "" {
		f.Participant = num
		if f.Email == "" {
			f.Email = m.sheet.rows[m.byNum[num]].Email
		}
	}
	return f
}

// noSubmission is the result of a learner who handed nothing in.
func noSubmission(r Row, sheetPath string) checklist.FileResult {
	who := r.Name
	if who == "" {
		who = participantPrefix + " " + r.Participant
	}
	contact := "participant " + r.Participant
	if r.Email != "" {
		contact = r.Email + ", " + contact
	}
	return checklist.FileResult{
		Path:        sheetPath,
		Apprenant:   who,
		Participant: r.Participant,
		Email:       r.Email,
		Problems: []checklist.Problem{{Code: checklist.CodeNoSubmission, Severity: checklist.SevError, Line: r.Line,
			Message: fmt.Sprintf("aucun rendu de %s (%s) : dans la feuille d'évaluation, absent des rendus", who, contact)}},
	}
}

// Fills are what Write puts in each learner's row: the grade, valid when
// all her files are, and every problem in the feedback with what she does
// about it (CodeInfo.Advice: the feedback speaks to her, the report to the
// organiser), as HTML (escaped, lines joined by <br>) as Moodle reads it.
func (m *Matched) Fills(g Grades) map[string]Fill {
	fills := make(map[string]Fill, len(m.sheet.rows))
	for _, r := range m.sheet.rows {
		idx := m.results[r.Participant]
		if len(idx) == 0 {
			fills[r.Participant] = Fill{Grade: g.Invalid, Feedback: "Aucun rendu reçu pour ce devoir."}
			continue
		}
		valid := true
		var lines []string
		advised := map[checklist.Code]bool{}
		for _, i := range idx {
			f := m.base.At(i)
			valid = valid && f.Valid
			lead := ""
			if len(idx) > 1 {
				lead = path.Base(strings.ReplaceAll(f.Path, "\\", "/")) + " : "
			}
			for _, p := range f.Problems {
				msg := p.Message
				if p.Code == checklist.CodeDuplicateFingerprint { // the learner reads it: no other learner named
					msg = "la même empreinte figure dans le rendu d'une autre personne : deux personnes ne partagent pas une clé"
				}
				line := lead + msg
				if p.Line > 0 {
					line = fmt.Sprintf("%sligne %d : %s", lead, p.Line, msg)
				}
				if p.Severity == checklist.SevWarning {
					line += " (avertissement)"
				}
				if !advised[p.Code] { // what the learner does, said once per code
					advised[p.Code] = true
					line += " → " + checklist.Info(p.Code).Advice
				}
				lines = append(lines, html.EscapeString(termtext.Escape(line)))
			}
		}
		head, grade := "acces.md valide.", g.Valid
		if !valid {
			head, grade = "acces.md invalide :", g.Invalid
		} else if len(lines) > 0 {
			head = "acces.md valide, avec des avertissements :"
		}
		useMax := valid && !g.ValidSet && isGrade(r.Max)
		if useMax {
			grade = r.Max
		}
		fills[r.Participant] = Fill{Grade: grade, Feedback: strings.Join(append([]string{head}, lines...), "<br>"), Valid: valid, Max: useMax}
	}
	return fills
}

// isGrade reports whether a « Note maximale » cell is a number as Moodle
// writes one ("20", "20,00", "100.00"): a grade the import reads back.
func isGrade(s string) bool {
	whole, frac, _ := strings.Cut(strings.Replace(s, ",", ".", 1), ".")
	return whole != "" && strings.Trim(whole, "0123456789") == "" && strings.Trim(frac, "0123456789") == ""
}

// Written says in French what fills put in the grade column, for the
// organiser: how many rows got which grade, and why.
func Written(fills map[string]Fill) string {
	var valid, invalid []string // the grades, once each
	nValid, nInvalid, nMax := 0, 0, 0
	for _, p := range slices.Sorted(maps.Keys(fills)) {
		f := fills[p]
		list, n := &invalid, &nInvalid
		if f.Valid {
			list, n = &valid, &nValid
		}
		*n++
		if f.Max {
			nMax++
		}
		if !slices.Contains(*list, f.Grade) {
			*list = append(*list, f.Grade)
		}
	}
	say := func(n int, what string, grades []string) string {
		if n == 0 {
			return ""
		}
		shown := make([]string, len(grades))
		for i, g := range grades {
			shown[i] = "« " + termtext.Escape(g) + " »"
			if g == "" {
				shown[i] = "sans note"
			}
		}
		return fmt.Sprintf("%d %s : %s", n, what, strings.Join(shown, " ou "))
	}
	parts := slices.DeleteFunc([]string{say(nValid, "rendu"+termtext.Plural(nValid)+" valide"+termtext.Plural(nValid), valid),
		say(nInvalid, "invalide"+termtext.Plural(nInvalid)+" ou sans rendu", invalid)}, func(s string) bool { return s == "" })
	msg := "notes écrites : " + strings.Join(parts, " ; ")
	if nMax > 0 {
		msg += " (un rendu valide reçoit la « Note maximale » de sa ligne ; --feuille-valide pour une autre note)"
	}
	return msg
}
