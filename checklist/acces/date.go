package acces

import (
	"strings"
	"time"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/dates"
)

type foundDate struct {
	y, m, d int
	text    string
}

func (f foundDate) valid() (time.Time, bool) { return dates.Civil(f.y, f.m, f.d) }

// dateScan reads the words of one line once, keeping five at most: the
// first date in the numeric or month-name formats, the first ISO date,
// and the first label word. A line of a million words costs no more
// memory than a short one.
type dateScan struct {
	win  [5]string
	n    int // words in win
	skip int // words still covered by the last date found
	drop func(foundDate) bool

	first, firstISO    foundDate
	haveFirst, haveISO bool
	status             string // "demande", "verifie", or ""
}

func (s *dateScan) push(w string) {
	if s.status == "" {
		switch {
		case strings.HasPrefix(w, "demand"):
			s.status = "demande"
		case strings.HasPrefix(w, "verif"), strings.HasPrefix(w, "ouvert"):
			s.status = "verifie"
		}
	}
	// ISO dates stay whole words because of their dashes.
	if !s.haveISO {
		if y, m, d, ok := dates.ISOWord(w); ok {
			if f := (foundDate{y, m, d, w}); s.drop == nil || !s.drop(f) {
				s.firstISO, s.haveISO = f, true
			}
		}
	}
	s.win[s.n] = w
	s.n++
	if s.n == len(s.win) {
		s.step()
	}
}

// step looks at the oldest word with the others as look-ahead, then
// drops it.
func (s *dateScan) step() {
	win := s.win // a copy: the window moves on before the look-ahead is read
	ws := win[:s.n]
	w := ws[0]
	copy(s.win[:], s.win[1:s.n])
	s.n--
	if s.skip > 0 {
		s.skip--
		return
	}
	if s.haveFirst || !dates.Digits(w) && w != "1er" {
		return
	}
	var f foundDate
	if y, m, d, ok := slashed(ws); ok {
		// 20/10/2026: three numbers around two slashes.
		f = foundDate{y, m, d, w + "/" + ws[2] + "/" + ws[4]}
		s.skip = 4
	} else if y, m, d, ok := written(ws); ok {
		// 20 octobre 2026, 1er octobre 2026
		f = foundDate{y, m, d, w + " " + ws[1] + " " + ws[2]}
		s.skip = 2
	} else {
		return
	}
	if s.drop == nil || !s.drop(f) {
		s.first, s.haveFirst = f, true
	}
}

// date is the first date of the line: numeric or month-name formats
// first, then ISO.
func (s *dateScan) date() (foundDate, bool) {
	for s.n > 0 {
		s.step()
	}
	if s.haveFirst {
		return s.first, true
	}
	return s.firstISO, s.haveISO
}

// scanLine reads a line's words; drop, when set, leaves out dates.
func scanLine(folded string, drop func(foundDate) bool) *dateScan {
	s := &dateScan{drop: drop}
	for w := range wordSeq(folded) {
		s.push(w)
	}
	return s
}

// slashed and written read a date at the head of the window ws; the
// word-level rules are those of dates.Parse.
func slashed(ws []string) (y, m, d int, ok bool) {
	if len(ws) < 5 || ws[1] != "/" || ws[3] != "/" {
		return 0, 0, 0, false
	}
	return dates.Slashed(ws[0], ws[2], ws[4])
}

func written(ws []string) (y, m, d int, ok bool) {
	if len(ws) < 3 {
		return 0, 0, 0, false
	}
	return dates.Written(ws[0], ws[1], ws[2])
}

func aboutSession(folded string) bool { return strings.Contains(folded, "seance") }

func (d *document) checkDate(r *Result, rules Rules) {
	headingLabelled, headingUsed := false, false
	headingStatus := ""
	sessionDay := func(f foundDate) bool {
		t, ok := f.valid()
		return ok && t.Equal(rules.SessionDay)
	}
	for l := range d.all() {
		if l.blank {
			continue
		}
		if l.heading {
			// A heading can hold the date itself: "## Demande du 20/10/2026".
			h := scanLine(l.folded, nil)
			headingStatus = h.status
			headingLabelled, headingUsed = h.status != "", false
		}
		if !strings.ContainsAny(l.folded, "0123456789") {
			continue // no date without a digit
		}
		// "demandé le 20/10 pour la séance du 5 novembre": the session
		// day on such a line is the session's, not the request's.
		var drop func(foundDate) bool
		if aboutSession(l.folded) {
			drop = sessionDay
		}
		sc := scanLine(l.folded, drop)
		f, found := sc.date()
		if !found {
			continue
		}
		// A date counts when its line says what it is, or when it is the
		// first one under a heading that does; a line that starts with
		// "date" counts unless it is about the session.
		labelled := sc.status != "" || headingLabelled && !headingUsed ||
			strings.HasPrefix(l.folded, "date") && !aboutSession(l.folded)
		if !labelled {
			continue
		}
		headingUsed = true
		t, ok := f.valid()
		if ok {
			r.Date, r.Status = t.Format("2006-01-02"), sc.status
			if r.Status == "" {
				r.Status = headingStatus
			}
		}
		switch {
		case !ok:
			r.add("bad-date", checklist.SevError, l.no, "la date %q n'existe pas dans le calendrier (jour d'abord : JJ/MM/AAAA, ou AAAA-MM-JJ)", f.text)
		case !rules.Today.IsZero() && t.After(rules.Today):
			r.add("future-date", checklist.SevError, l.no, "la date %s est dans le futur : notez le jour de la demande ou de la vérification", t.Format("2006-01-02"))
		case !rules.SessionDay.IsZero() && !t.Before(rules.SessionDay):
			r.add("late-request", checklist.SevWarning, l.no, "la date %s tombe le jour de la séance ou après : le compte risque de ne pas être prêt", t.Format("2006-01-02"))
		}
		return
	}
	r.add("missing-date", checklist.SevError, 0, "aucune date de demande ou de vérification du compte : ajoutez par exemple « Date de la demande : 2026-10-20 »")
}
