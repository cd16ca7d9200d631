package acces

import (
	"strings"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/dates"
)

// dateRule finds the date of the request, or of the check that the
// account is open. A date counts when it is labelled: its block has a
// word starting with demand, verif or ouvert (the date nearest after it,
// else before it), or starts with « date »; or it is the first date under
// a heading that says so, or in the block right after a label that ends
// with a colon ("Date de la demande :", then the date in the next
// paragraph). The session's own day, in a block about the session, is
// the session's, not the request's.
type dateRule struct {
	done bool
	// A heading or a label block above: what it dates, and whether it
	// labels only the next block.
	labelled, nextOnly bool
	labelStatus        string
	// The first labelled value that is no date the reader knows, quoted
	// by bad-date when no labelled date is found.
	unread     string
	unreadLine int
	// The date taken.
	found     dates.Found
	foundLine int
	foundText string
	status    string
}

func (d *dateRule) visit(b *block, ws []word, rules Rules) {
	if d.done || b.kind == cell {
		return
	}
	status, labelAt := label(ws)
	session := false
	for _, w := range ws {
		session = session || w.w == "seance"
	}
	startsDate := len(ws) > 0 && ws[0].w == "date" && !session
	above, aboveStatus := d.labelled, d.labelStatus
	if d.nextOnly || b.kind == heading {
		d.labelled = false
	}
	if b.kind == heading {
		d.labelled, d.nextOnly, d.labelStatus = status != "" || startsDate, false, status
	}
	var found []dates.Found
	for _, f := range dates.Find(b.text, dates.Context{Today: rules.Today, Session: rules.SessionDay}) {
		if session && f.Err == nil && f.Day.Equal(rules.SessionDay) {
			continue // "demandé le 20/10 pour la séance du 5 novembre"
		}
		found = append(found, f)
	}
	var pick *dates.Found
	switch {
	case len(found) == 0:
	case status != "":
		pick = &found[len(found)-1]
		for i := range found {
			if found[i].Start >= labelAt {
				pick = &found[i]
				break
			}
		}
	case startsDate:
		pick = &found[0]
	case above && b.kind != heading:
		pick, status = &found[0], aboveStatus
	}
	if pick != nil {
		d.done = true
		d.pick(b, pick, status)
		return
	}
	if status == "" && !startsDate {
		return
	}
	_, value, ok := strings.Cut(b.text[max(labelAt, 0):], ":")
	switch value = strings.TrimSpace(value); {
	case !ok:
	case value == "" && b.kind != heading:
		d.labelled, d.nextOnly, d.labelStatus = true, true, status
	case value != "" && d.unread == "":
		d.unread, d.unreadLine = value, b.lineAt(strings.LastIndex(b.text, value))
	}
}

// pick records the labelled date and its problems: the result is kept in
// the rule until finish writes it.
func (d *dateRule) pick(b *block, f *dates.Found, status string) {
	d.found = *f
	d.foundLine = b.lineAt(f.Start)
	d.foundText = b.text[f.Start:f.End]
	d.status = status
}

func (d *dateRule) finish(r *Result, rules Rules) {
	if !d.done {
		if d.unread != "" {
			r.add("bad-date", checklist.SevError, d.unreadLine, "la date « %s » n'est pas lisible : écrivez-la par exemple 2026-10-20 ou 20 octobre 2026", quote(d.unread))
			return
		}
		r.add("missing-date", checklist.SevError, 0, "aucune date de demande ou de vérification du compte : ajoutez par exemple « Date de la demande : 2026-10-20 »")
		return
	}
	f, line := d.found, d.foundLine
	r.DateLine = line
	if f.Err != nil {
		r.add("bad-date", checklist.SevError, line, "la date « %s » n'est pas un jour du calendrier : %s", quote(d.foundText), f.Err)
		return
	}
	r.Date, r.Status = f.Day.Format(dates.ISO), d.status
	switch {
	case !rules.Today.IsZero() && f.Day.After(rules.Today):
		r.add("future-date", checklist.SevError, line, "la date %s est dans le futur : notez le jour de la demande ou de la vérification", r.Date)
	case !rules.SessionDay.IsZero() && !f.Day.Before(rules.SessionDay):
		r.add("late-request", checklist.SevWarning, line, "la date %s tombe le jour de la séance ou après : le compte risque de ne pas être prêt", r.Date)
	}
}

// label is what the first label word of a block dates ("demande",
// "verifie"), and where it is; "" and -1 for none.
func label(ws []word) (string, int) {
	for _, w := range ws {
		switch {
		case strings.HasPrefix(w.w, "demand"):
			return "demande", w.off
		case strings.HasPrefix(w.w, "verif"), strings.HasPrefix(w.w, "ouvert"):
			return "verifie", w.off
		}
	}
	return "", -1
}

// quote shortens a text from the file for a message: the first 40
// characters, on one line.
func quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
