package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/testenv"
)

// typingPrompter answers the wizard as a learner who types a date: the
// account "requested", the date as given, Enter elsewhere (and no
// signature).
type typingPrompter struct {
	enterPrompter
	date string
}

func (p *typingPrompter) Select(message string, options []string, def int, help string) (int, error) {
	for i, o := range options {
		if message == "Où en est votre compte d'accès ?" && o == "Demandé, pas encore ouvert" || strings.HasPrefix(message, "Signer acces.md") && o == "Non" {
			return i, nil
		}
	}
	return def, nil
}

func (p *typingPrompter) Input(message, def, help string) (string, error) {
	if strings.HasPrefix(message, "Date de la demande") {
		return p.date, nil
	}
	return def, nil
}

// TestDateFormsEverywhere: every form of acces-md.md, given to `pret acces
// --date` and typed in the wizard, ends in acces.md as the same
// AAAA-MM-JJ, which the validator reads with no problem at all.
func TestDateFormsEverywhere(t *testing.T) {
	notShort(t)
	forms := map[string]string{
		"2026-10-12": "2026-10-12", "2026-1-5": "2026-01-05", "12/10/2026": "2026-10-12", "2/9/2026": "2026-09-02",
		"12 octobre 2026": "2026-10-12", "1er octobre 2026": "2026-10-01", "lundi 12 octobre 2026": "2026-10-12",
		"3 février 2026": "2026-02-03", "3 fevrier 2026": "2026-02-03", "14 AOÛT 2026": "2026-08-14", "14 aout 2026": "2026-08-14",
		"aujourd'hui": testenv.Today, "hier": "2026-10-19", "le 12 octobre 2026": "2026-10-12",
		// issue 23: as people write them, the year from the session.
		"12 oct.": "2026-10-12", "12 oct. 2026": "2026-10-12", "12/10": "2026-10-12", "12.10.2026": "2026-10-12",
		"12 octobre": "2026-10-12", "lundi 12 octobre": "2026-10-12", "avant-hier": "2026-10-18",
		"il y a 3 jours": "2026-10-17", "mardi dernier": "2026-10-13",
	}
	for form, want := range forms {
		for _, via := range []string{"--date", "assistant"} {
			t.Run(via+"/"+form, func(t *testing.T) {
				home := testEnv(t)
				putKey(t, home)
				if via == "--date" {
					must(t, pretIn(t, "", "acces", "--statut", "demande", "--date", form), exitOK, "acces", "--date", form)
				} else {
					must(t, pretTTY(t, &typingPrompter{date: form}, "assistant"), exitOK, "assistant")
				}
				data := readFile(t, filepath.Join(home, "acces.md"))
				if !strings.Contains(string(data), "Date de la demande du compte d'accès : "+want+"\n") {
					t.Fatalf("acces.md does not state %s:\n%s", want, data)
				}
				res := acces.Validate(data, acces.Rules{KeyName: "id_ed25519_romeo.pub", SessionDay: testenv.Day(testenv.SessionDay), Today: testenv.Day(testenv.Today)})
				if len(res.Problems) != 0 {
					t.Fatalf("validator: %+v", res.Problems)
				}
				state, _ := os.ReadFile(stateFile(home))
				if !strings.Contains(string(state), `date: "`+want+`"`) {
					t.Fatalf("state:\n%s", state)
				}
			})
		}
	}
}

// TestDateRefusalsOneCode (issue 32): every refusal of --date, be it a form
// not understood, a day the calendar lacks, a wrong weekday, a day in the
// future or after the session, quotes what was typed with its own reason,
// and exits with the one usage code, before anything is written.
func TestDateRefusalsOneCode(t *testing.T) {
	home := testEnv(t)
	putKey(t, home)
	for in, reason := range map[string]string{
		"20-10-26":              "l'année s'écrit en quatre chiffres",
		"2026-13-01":            "il n'y a pas de mois 13 (le mois va de 1 à 12)",
		"31/11/2026":            "ce jour n'existe pas (novembre 2026 n'a que 30 jours)",
		"10/20/2026":            "il n'y a pas de mois 20 : le jour s'écrit d'abord",
		"lundi 20 octobre 2026": "le jour de la semaine ne correspond pas (le 20 octobre 2026 est un mardi, pas un lundi)",
		"demain":                "ce jour est dans le futur",
		"6 novembre 2026":       "le vendredi 6 novembre 2026 est dans le futur (aujourd'hui : mardi 20 octobre 2026)",
		"lundi 26 octobre":      "le lundi 26 octobre 2026 est dans le futur",
		"20 brumaire 2026":      "« brumaire » n'est pas un mois",
	} {
		for _, args := range [][]string{{"acces", "--statut", "demande", "--date", in}, {"acces", "--date", in, "--statut", "verifie"}} {
			r := pretIn(t, "", args...)
			must(t, r, exitUsage, args...)
			if want := "pret: erreur : valeur refusée pour --date : « " + in + " » ; "; !strings.HasPrefix(r.stderr, want) || !strings.Contains(r.stderr, reason) {
				t.Errorf("pret %q:\n%s\nwant %s…%s", args, r.stderr, want, reason)
			}
			if strings.Contains(r.stderr, "le jour d'abord") && in != "10/20/2026" {
				t.Errorf("pret %q: the day-first hint is beside the point:\n%s", args, r.stderr)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(home, "acces.md")); err == nil {
		t.Error("acces.md written after a refused date")
	}
	// The hint's examples are today, whatever today is.
	t.Setenv("PRET_AUJOURDHUI", "2026-10-01")
	r := pretIn(t, "", "acces", "--statut", "demande", "--date", "3 oct.")
	if want := "pret: conseil : --date 2026-10-01, --date 01/10/2026 ou --date \"1er octobre 2026\" (aujourd'hui), ou un jour d'avant\n"; !strings.HasSuffix(r.stderr, want) {
		t.Errorf("a day in the future, today 1 October:\n%s\nwant …%s", r.stderr, want)
	}
	t.Setenv("PRET_AUJOURDHUI", testenv.Today)
	for _, in := range []string{"20-10-2026", "20-10"} {
		must(t, pretIn(t, "", "acces", "--statut", "demande", "--date", in, "--force"), exitOK, "acces", "--date", in)
		data, _ := os.ReadFile(filepath.Join(home, "acces.md"))
		if !strings.Contains(string(data), ": 2026-10-20\n") {
			t.Errorf("--date %s: acces.md\n%s", in, data)
		}
	}
}
