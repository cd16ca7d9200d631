package acces

import (
	"strings"
	"time"

	"github.com/romeo-pret/pret/checklist"
)

// monthNames are the folded French month names, January first.
var monthNames = [12]string{"janvier", "fevrier", "mars", "avril", "mai", "juin",
	"juillet", "aout", "septembre", "octobre", "novembre", "decembre"}

func monthNumber(w string) (time.Month, bool) {
	for i, n := range monthNames {
		if w == n {
			return time.Month(i + 1), true
		}
	}
	return 0, false
}

type foundDate struct {
	y, m, d int
	text    string
}

func (f foundDate) valid() (time.Time, bool) {
	if f.m < 1 || f.m > 12 || f.d < 1 || f.d > 31 {
		return time.Time{}, false
	}
	t := time.Date(f.y, time.Month(f.m), f.d, 0, 0, 0, 0, time.UTC)
	return t, t.Day() == f.d && int(t.Month()) == f.m
}

// findDates reads the dates of a line's words in the three formats.
func findDates(ws []string) []foundDate {
	var out []foundDate
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if !isDigits(w) && w != "1er" {
			continue
		}
		// 2026-10-20: words keeps "2026-10-20" whole (a dash inside a word).
		// 20/10/2026: three numbers around two slashes.
		if i+4 < len(ws) && ws[i+1] == "/" && ws[i+3] == "/" && isDigits(ws[i+2]) && isDigits(ws[i+4]) &&
			len(w) <= 2 && len(ws[i+2]) <= 2 && len(ws[i+4]) == 4 {
			out = append(out, foundDate{atoi(ws[i+4]), atoi(ws[i+2]), atoi(w), w + "/" + ws[i+2] + "/" + ws[i+4]})
			i += 4
			continue
		}
		// 20 octobre 2026, 1er octobre 2026
		if i+2 < len(ws) && (len(w) <= 2 || w == "1er") && isDigits(ws[i+2]) && len(ws[i+2]) == 4 {
			if m, ok := monthNumber(ws[i+1]); ok {
				d := 1
				if w != "1er" {
					d = atoi(w)
				}
				out = append(out, foundDate{atoi(ws[i+2]), int(m), d, w + " " + ws[i+1] + " " + ws[i+2]})
				i += 2
			}
		}
	}
	// ISO dates stay whole words because of their dashes.
	for _, w := range ws {
		if len(w) >= 8 && len(w) <= 10 && strings.Count(w, "-") == 2 {
			p := strings.Split(w, "-")
			if len(p[0]) == 4 && isDigits(p[0]) && isDigits(p[1]) && isDigits(p[2]) && len(p[1]) <= 2 && len(p[2]) <= 2 {
				out = append(out, foundDate{atoi(p[0]), atoi(p[1]), atoi(p[2]), w})
			}
		}
	}
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 6; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

func hasLabelWord(ws []string) bool {
	for _, w := range ws {
		if strings.HasPrefix(w, "demand") || strings.HasPrefix(w, "verif") || strings.HasPrefix(w, "ouvert") {
			return true
		}
	}
	return false
}

// dateStatus says what a date records: a request ("demand…") or a check
// that the account is open ("verif…", "ouvert…"), from its line, else from
// its heading; "" when neither says.
func dateStatus(line, heading []string) string {
	for _, ws := range [][]string{line, heading} {
		for _, w := range ws {
			switch {
			case strings.HasPrefix(w, "demand"):
				return "demande"
			case strings.HasPrefix(w, "verif"), strings.HasPrefix(w, "ouvert"):
				return "verifie"
			}
		}
	}
	return ""
}

func aboutSession(folded string) bool { return strings.Contains(folded, "seance") }

func (d *document) checkDate(r *Result, rules Rules) {
	headingLabelled, headingUsed := false, false
	var headingWords []string
	for l := range d.all() {
		if l.blank {
			continue
		}
		if l.heading {
			headingLabelled, headingUsed = hasLabelWord(l.words), false
			headingWords = l.words
			// A heading can hold the date itself: "## Demande du 20/10/2026".
		}
		dates := findDates(l.words)
		if len(dates) == 0 {
			continue
		}
		// A date counts when its line says what it is, or when it is the
		// first one under a heading that does; a line that starts with
		// "date" counts unless it is about the session.
		labelled := hasLabelWord(l.words) || headingLabelled && !headingUsed ||
			strings.HasPrefix(l.folded, "date") && !aboutSession(l.folded)
		if !labelled {
			continue
		}
		if aboutSession(l.folded) {
			// "demandé le 20/10 pour la séance du 5 novembre": the session
			// day on such a line is the session's, not the request's.
			kept := dates[:0:0]
			for _, c := range dates {
				if t, ok := c.valid(); !ok || !t.Equal(rules.SessionDay) {
					kept = append(kept, c)
				}
			}
			if dates = kept; len(dates) == 0 {
				continue
			}
		}
		headingUsed = true
		f := dates[0]
		t, ok := f.valid()
		if ok {
			r.Date, r.Status = t.Format("2006-01-02"), dateStatus(l.words, headingWords)
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
