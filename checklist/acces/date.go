package acces

import (
	"strings"
	"sync/atomic"
	"time"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/dates"
)

type foundDate struct {
	y, m, d int
	// The date's words, joined by sep when a message quotes it: built
	// only then, not for every date read.
	a, b, c string
	sep     string
}

func (f foundDate) valid() (time.Time, bool) { return dates.Civil(f.y, f.m, f.d) }

// text is the date as the bad-date message quotes it.
func (f foundDate) text() string {
	if f.sep == "" {
		return f.a // ISO: one word
	}
	return f.a + f.sep + f.b + f.sep + f.c
}

// dateScan reads the words of one line once, keeping five at most: the
// first date in the numeric or month-name formats, the first ISO date,
// and the first label word. A line of a million words costs no more
// memory than a short one.
type dateScan struct {
	win  [8]string // a ring of five words at most: the oldest is win[head]
	head int
	n    int // words in win
	skip int // words still covered by the last date found
	// dropSession leaves out the dates that fall on session.
	dropSession bool
	// statusOnly stops at the first label word: only status is read.
	statusOnly bool
	session    time.Time

	first, firstISO    foundDate
	haveFirst, haveISO bool
	status             string // "demande", "verifie", or ""
}

func (s *dateScan) drop(f foundDate) bool {
	if !s.dropSession {
		return false
	}
	t, ok := f.valid()
	return ok && t.Equal(s.session)
}

func (s *dateScan) push(w string) bool {
	if s.status == "" && len(w) >= 5 {
		switch w[0] {
		case 'd':
			if strings.HasPrefix(w, "demand") {
				s.status = "demande"
			}
		case 'v', 'o':
			if strings.HasPrefix(w, "verif") || strings.HasPrefix(w, "ouvert") {
				s.status = "verifie"
			}
		}
	}
	// ISO dates stay whole words because of their dashes.
	if !s.haveISO && len(w) >= 8 && w[4] == '-' {
		if y, m, d, ok := dates.ISOWord(w); ok {
			if f := (foundDate{y: y, m: m, d: d, a: w}); !s.drop(f) {
				s.firstISO, s.haveISO = f, true
			}
		}
	}
	s.win[(s.head+s.n)&ringMask] = w
	s.n++
	if s.n == window {
		s.step()
	}
	// With a first date and a label, the rest of the line changes
	// nothing date reports: neither is ever replaced.
	return s.status == "" || !s.haveFirst && !s.statusOnly
}

// window is how many words a date spans at most (20 / 10 / 2026); the
// ring holds them in eight slots, so that its index is a mask.
const (
	window   = 5
	ringMask = 7
)

// step looks at the oldest word with the others as look-ahead, then
// drops it.
func (s *dateScan) step() {
	w := s.win[s.head]
	n := s.n
	s.head = (s.head + 1) & ringMask
	s.n--
	if s.skip > 0 {
		s.skip--
		return
	}
	if s.haveFirst || w == "" || w[0]-'0' > 9 || !dates.Digits(w) && w != "1er" {
		return
	}
	// The window in order, w first.
	var ws [window]string
	for i := range n {
		ws[i] = s.win[(s.head-1+i)&ringMask]
	}
	var f foundDate
	if y, m, d, ok := slashed(ws[:n]); ok {
		// 20/10/2026: three numbers around two slashes.
		f = foundDate{y: y, m: m, d: d, a: w, b: ws[2], c: ws[4], sep: "/"}
		s.skip = 4
	} else if y, m, d, ok := written(ws[:n]); ok {
		// 20 octobre 2026, 1er octobre 2026
		f = foundDate{y: y, m: m, d: d, a: w, b: ws[1], c: ws[2], sep: " "}
		s.skip = 2
	} else {
		return
	}
	if !s.drop(f) {
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

// scan reads a line's words into s, which the caller keeps on its stack.
func (s *dateScan) scan(folded string) {
	eachWord(folded, s.push)
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
	// A small file's forms are read once for this rule and the
	// sentence's; a larger one's are read here line by line, and a line
	// with neither a heading nor a digit need not be read: it is skipped
	// below (TestDateLineSkipIsExact).
	cached := d.cached()
	for i := 0; i+1 < len(d.starts); i++ {
		if !cached && !mayDateOrHeading(d.rawLine(i).raw) {
			continue
		}
		l := d.form(i)
		if l.blank {
			continue
		}
		digit := hasDigit(l.folded)
		// "demandé le 20/10 pour la séance du 5 novembre": the session
		// day on such a line is the session's, not the request's.
		var sc dateScan
		if digit {
			if aboutSession(l.folded) {
				sc.dropSession, sc.session = true, rules.SessionDay
			}
			sc.scan(l.folded)
		}
		if l.heading {
			// A heading can hold the date itself: "## Demande du 20/10/2026".
			// Its label is the line's first label word, which the date
			// scan found too (which dates it drops changes no label).
			headingStatus = sc.status
			if !digit {
				h := dateScan{statusOnly: true}
				h.scan(l.folded)
				headingStatus = h.status
			}
			headingLabelled, headingUsed = headingStatus != "", false
		}
		if !digit {
			continue // no date without a digit
		}
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
			r.Date, r.Status = isoDay(f.y, f.m, f.d), sc.status
			if r.Status == "" {
				r.Status = headingStatus
			}
		}
		switch {
		case !ok:
			r.add("bad-date", checklist.SevError, l.no, "la date %q n'existe pas dans le calendrier (jour d'abord : JJ/MM/AAAA, ou AAAA-MM-JJ)", f.text())
		case !rules.Today.IsZero() && t.After(rules.Today):
			r.add("future-date", checklist.SevError, l.no, "la date %s est dans le futur : notez le jour de la demande ou de la vérification", r.Date)
		case !rules.SessionDay.IsZero() && !t.Before(rules.SessionDay):
			r.add("late-request", checklist.SevWarning, l.no, "la date %s tombe le jour de la séance ou après : le compte risque de ne pas être prêt", r.Date)
		}
		return
	}
	r.add("missing-date", checklist.SevError, 0, "aucune date de demande ou de vérification du compte : ajoutez par exemple « Date de la demande : 2026-10-20 »")
}

// mayDateOrHeading is false for a raw line that can be neither a heading
// (stripDecoration needs a '#') nor hold a digit once folded (Fold makes
// an ASCII digit only of an ASCII digit, TestFoldMakesNoDigit; the
// decoration is only taken away).
func mayDateOrHeading(raw string) bool {
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c == '#' || c-'0' <= 9 {
			return true
		}
	}
	return false
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i]-'0' <= 9 {
			return true
		}
	}
	return false
}

// isoDay is time.Date(y, m, d).Format("2006-01-02") of a day Civil
// accepted, whose year has four digits (dates.Year), without a layout to
// interpret. A batch states few days, many times: each is made once and
// shared (dayStrings), not one string per file.
func isoDay(y, m, d int) string {
	b := [10]byte{byte('0' + y/1000%10), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10), '-',
		byte('0' + m/10), byte('0' + m%10), '-', byte('0' + d/10), byte('0' + d%10)}
	slot := &dayStrings[(y*12*31+m*31+d)%len(dayStrings)]
	if p := slot.Load(); p != nil && *p == string(b[:]) {
		return *p
	}
	s := string(b[:])
	slot.Store(&s)
	return s
}

// dayStrings holds the days made last, one per slot; workers validating
// in parallel read and replace them atomically. Eleven years of days fit
// without sharing a slot.
var dayStrings [4096]atomic.Pointer[string]
