package acces

import (
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/testenv"
)

// TestDateAsWritten: the date rule reads the forms people write by hand
// (issue 23), through the wizard's reader, and a labelled value it cannot
// read is bad-date quoting it, with the wizard's reason, never
// missing-date. rules: today 2026-10-20, session 2026-11-05.
func TestDateAsWritten(t *testing.T) {
	without := testenv.Edit(good, "- Date de la demande : 2026-10-16\n", "")
	with := func(line string) string { return testenv.Edit(good, "- Date de la demande : 2026-10-16", line) }
	for _, c := range []struct {
		name, text string
		date       string // the date read, or
		msg        string // the one problem's message
	}{
		{"abbreviated with a dot", with("Date de la demande : 20 oct. 2026"), "2026-10-20", ""},
		{"abbreviated, no year", with("Demandé le 14 oct."), "2026-10-14", ""},
		{"no year, from the session", with("Demandé le 10 novembre"), "2025-11-10", ""},
		{"dots", with("Date de la demande : 20.10.2026"), "2026-10-20", ""},
		{"day and month", with("Demandé le 20/10"), "2026-10-20", ""},
		{"weekday checked", with("Demande faite le lundi 19 octobre"), "2026-10-19", ""},
		{"setext heading, then the date", "Date de la demande\n---\n\n20 oct. 2026\n\n" + without, "2026-10-20", ""},
		{"relative, then the day", with("Demandé hier, le 19/10/2026"), "2026-10-19", ""},
		{"session day without year", with("Demande envoyée pour la séance du 5 novembre"), "",
			"aucune date de demande ou de vérification du compte : ajoutez par exemple « Date de la demande : 2026-10-20 »"},
		{"wrong weekday", with("Demande faite le lundi 20 octobre 2026"), "",
			"la date « lundi 20 octobre 2026 » est refusée : le jour de la semaine ne correspond pas (le 20 octobre 2026 est un mardi, pas un lundi)"},
		{"not a month", with("Date de la demande : 20 brumaire 2026"), "",
			"la date « 20 brumaire 2026 » n'est pas lisible : « brumaire » n'est pas un mois (janvier … décembre)"},
		{"no colon", with("Date de la demande 20 brumaire"), "",
			"la date « 20 brumaire » n'est pas lisible : « brumaire » n'est pas un mois (janvier … décembre)"},
		{"two-digit year", with("Date de vérification : 20/10/26"), "",
			"la date « 20/10/26 » n'est pas lisible : l'année s'écrit en quatre chiffres, par exemple 20/10/2026"},
		{"under a labelled heading", "## Date de la demande\n\nle mois dernier\n\n" + without, "",
			"la date « le mois dernier » n'est pas lisible : écrivez par exemple 2026-10-20, 20/10/2026, 20 octobre 2026 ou 20 oct. 2026"},
		{"after a label line", "Date de la vérification :\n\nla semaine dernière\n\n" + without, "",
			"la date « la semaine dernière » n'est pas lisible : écrivez par exemple 2026-10-20, 20/10/2026, 20 octobre 2026 ou 20 oct. 2026"},
		{"label over a comment, then another label", with("Date de la demande : <!-- 2026-10-16 -->"), "",
			"aucune date de demande ou de vérification du compte : ajoutez par exemple « Date de la demande : 2026-10-20 »"},
		{"relative", with("Demandé hier"), "",
			"la date « hier » dépend du jour où elle a été écrite : écrivez le jour lui-même, par exemple 2026-10-20"},
		{"relative count", with("Date de la demande : il y a 3 jours"), "",
			"la date « il y a 3 jours » dépend du jour où elle a été écrite : écrivez le jour lui-même, par exemple 2026-10-20"},
		{"relative weekday", with("Demandé mardi dernier"), "",
			"la date « mardi dernier » dépend du jour où elle a été écrite : écrivez le jour lui-même, par exemple 2026-10-20"},
		{"not a day", with("Demandé le 31/11"), "",
			"la date « 31/11 » est refusée : ce jour n'existe pas (novembre n'a que 30 jours)"},
		{"day first with dashes", with("Date de la demande : 20-10-2026"), "2026-10-20", ""},
		{"no month 13", with("Date de la demande : 2026-13-01"), "",
			"la date « 2026-13-01 » est refusée : il n'y a pas de mois 13 (le mois va de 1 à 12)"},
	} {
		r := Validate([]byte(c.text), rules)
		var msgs []string
		for _, p := range r.Problems {
			msgs = append(msgs, p.Message)
		}
		if r.Date != c.date || strings.Join(msgs, "\n") != c.msg {
			t.Errorf("%s: date %q, problems:\n%s\nwant date %q and:\n%s", c.name, r.Date, strings.Join(msgs, "\n"), c.date, c.msg)
		}
	}
}
