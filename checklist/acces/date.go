package acces

import (
	"cmp"
	"slices"
	"strings"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/textfold"
	"github.com/romeo-pret/pret/keys"
)

// dateRule finds the labelled date of the request or check (acces-md.md: a label word in
// the block, a block starting « date », a heading or a "…:" block above). The session's
// own day, in a block about the session, is not the request's.
type dateRule struct {
	done bool
	// A heading or label block above: what it dates, whether it labels
	// only the next block, and whether this block is the first after it.
	labelled, nextOnly, fresh bool
	labelStatus               string
	// The first labelled value that is no date, for bad-date.
	unread     string
	unreadLine int
	found      dates.Found
	foundLine  int
	foundText  string
	status     string
}

func (d *dateRule) visit(b *block, ts []textfold.Token, rules Rules) {
	if d.done || b.kind == cell {
		return
	}
	status, labelAt, labelEnd := label(ts)
	session := slices.ContainsFunc(ts, func(w textfold.Token) bool { return w.Folded == "seance" })
	first := slices.IndexFunc(ts, notDecoration)
	startsDate := first >= 0 && ts[first].Folded == "date" && !session
	above, aboveStatus, fresh := d.labelled, d.labelStatus, d.fresh
	if b.kind == heading {
		d.labelled, d.nextOnly, d.labelStatus = status != "" || startsDate, false, status
	} else if d.nextOnly {
		d.labelled = false
	}
	d.fresh = b.kind == heading && d.labelled
	if status == "" && !startsDate && (!above || b.kind == heading) {
		return // nothing labels this block's dates: none is taken, none is unread
	}
	all := dates.Find(b.text, ts, context(rules))
	found := candidates(all, session, rules)
	var pick *dates.Found
	switch {
	case len(found) == 0:
	case status != "":
		// The first date after the label, else the last before it.
		i := slices.IndexFunc(found, func(f dates.Found) bool { return f.Start >= labelAt })
		pick = &found[cmp.Or(i+1, len(found))-1]
	case startsDate:
		pick = &found[0]
	case above && b.kind != heading:
		pick, status = &found[0], aboveStatus
	}
	if pick != nil {
		d.done, d.found, d.status = true, *pick, status
		d.foundLine, d.foundText = b.lineAt(pick.Start), b.text[pick.Start:pick.End]
		return
	}
	if above && fresh && b.kind != heading && status == "" && !startsDate && !strings.Contains(b.text, ":") {
		// The block a label heading or "Date de la demande :" points at,
		// with no date and no label of its own ("Chemin … :"): what it
		// says is the unread date.
		d.unreadValue(b, strings.TrimSpace(b.text))
		return
	}
	if status == "" && !startsDate {
		return
	}
	_, value, ok := strings.Cut(b.text[max(labelAt, 0):], ":")
	if !ok && startsDate && labelEnd >= 0 {
		// "Date de la demande 3 brumaire": the value follows the label.
		value, ok = b.text[labelEnd:], true
	}
	if !ok && status != "" && labelEnd >= 0 {
		// "Demande faite le 20/10/26": a label in a sentence, no colon;
		// what it dates starts at the first digit after it, unless a day
		// is read there (the session's, say, passed over). No date holds
		// a label word: all has the dates from labelEnd as if read from it.
		readsADay := slices.ContainsFunc(all, func(f dates.Found) bool { return f.Start >= labelEnd && f.Err == nil })
		if i := strings.IndexAny(b.text[labelEnd:], "0123456789"); i >= 0 && !readsADay {
			value, ok = b.text[labelEnd+i:], true
		}
	}
	switch value = strings.TrimSpace(value); {
	case !ok:
	case value == "" && b.kind != heading:
		d.labelled, d.nextOnly, d.labelStatus, d.fresh = true, true, status, true
	default:
		d.unreadValue(b, value)
	}
}

// candidates are the dates of a block the rule can take, of all it holds.
func candidates(all []dates.Found, session bool, rules Rules) []dates.Found {
	var found, relative []dates.Found
	for _, f := range all {
		switch {
		case session && f.Err == nil && f.Day.Equal(rules.SessionDay):
			// "demandé le 20/10 pour la séance du 5 novembre"
		case f.Relative:
			relative = append(relative, f)
		default:
			found = append(found, f)
		}
	}
	if len(found) == 0 {
		// "Demandé hier, le 19/10" is the 19th; "Demandé hier" alone is
		// a date all the same, refused for what it is.
		return relative
	}
	return found
}

func (d *dateRule) unreadValue(b *block, value string) {
	if value != "" && d.unread == "" {
		d.unread, d.unreadLine = value, b.lineAt(strings.LastIndex(b.text, value))
	}
}

func context(rules Rules) dates.Context {
	return dates.Context{Today: rules.Today, Session: rules.SessionDay}
}

func (d *dateRule) finish(r *Result, rules Rules) {
	if !d.done {
		if d.unread != "" {
			reason := "écrivez-la par exemple 2026-10-20 ou 20 octobre 2026"
			if keys.LooksLikeFragment(d.unread) {
				// Maybe a line of a key cut from its proofs (keys/leak cannot tell):
				// neither it nor a reason naming its words is shown.
				r.add(checklist.CodeBadDate, checklist.SevError, d.unreadLine, "la date n'est pas lisible (un texte en base64, non recopié) : %s", reason)
				return
			}
			if _, err := dates.Parse(d.unread, context(rules)); err != nil { // always a *dates.Error
				// A file is read days later: never advise "hier".
				reason = strings.ReplaceAll(err.(*dates.Error).Reason, dates.Forms, dates.CalendarForms)
			}
			r.add(checklist.CodeBadDate, checklist.SevError, d.unreadLine, "la date « %s » n'est pas lisible : %s", quote(d.unread), reason)
			return
		}
		r.add(checklist.CodeMissingDate, checklist.SevError, 0, "aucune date de demande ou de vérification du compte : ajoutez par exemple « Date de la demande : 2026-10-20 »")
		return
	}
	f, line := d.found, d.foundLine
	r.DateLine = line
	switch {
	case f.Relative:
		// Read days later, "hier" names another day (acces-md.md).
		r.add(checklist.CodeBadDate, checklist.SevError, line, "la date « %s » dépend du jour où elle a été écrite : écrivez le jour lui-même, par exemple 2026-10-20", quote(d.foundText))
		return
	case f.Err != nil && f.Err.Read:
		// Read, and no day pret can take: the same words as the wizard's refusal.
		r.add(checklist.CodeBadDate, checklist.SevError, line, "la date « %s » est refusée : %s", quote(d.foundText), f.Err.Reason)
		return
	case f.Err != nil:
		r.add(checklist.CodeBadDate, checklist.SevError, line, "la date « %s » n'est pas lisible : %s", quote(d.foundText), f.Err.Reason)
		return
	}
	r.Date, r.Status = f.Day.Format(dates.ISO), d.status
	switch {
	case !rules.Today.IsZero() && f.Day.After(rules.Today):
		r.add(checklist.CodeFutureDate, checklist.SevError, line, "la date %s est dans le futur : notez le jour de la demande ou de la vérification", r.Date)
	case !rules.SessionDay.IsZero() && !f.Day.Before(rules.SessionDay):
		r.add(checklist.CodeLateRequest, checklist.SevWarning, line, "la date %s tombe le jour de la séance ou après : le compte risque de ne pas être prêt", r.Date)
	}
}

// label is what the first label word of ts dates, where it starts and where
// the next word starts; "" and -1 for none.
func label(ts []textfold.Token) (status string, at, next int) {
	for i, w := range ts {
		switch {
		case strings.HasPrefix(w.Folded, "demand"):
			status = "demande"
		case strings.HasPrefix(w.Folded, "verif"), strings.HasPrefix(w.Folded, "ouvert"):
			status = "verifie"
		default:
			continue
		}
		next = -1
		if j := slices.IndexFunc(ts[i+1:], notDecoration); j >= 0 {
			next = ts[i+1+j].Start
		}
		return status, w.Start, next
	}
	return "", -1, -1
}

// quote shortens a text from the file to 40 characters on one line.
func quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
