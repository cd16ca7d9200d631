package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestSettingsRefusedInFrench: a session date that is empty, not a day,
// out of 2000–2100 or of the wrong type, from the environment or the
// config file; a session end at or before its start; an empty HOME,
// where the key folder (~/.ssh by default) is needed: each is a usage
// error (exit 2) in French naming the setting, whatever command loads
// it. No "<nil>", none of Go's, the time or YAML parser's English ("$HOME
// is not defined").
func TestSettingsRefusedInFrench(t *testing.T) {
	english := regexp.MustCompile(`<nil>|parsing time|cannot parse|out of range|yaml:|month|day|not defined|\$HOME`)
	type refusal struct {
		env    []string // NAME=value
		config string   // the file given to --config
		say    string   // a regular expression
		cmds   [][]string
	}
	const date = `^pret: erreur : .*seance\.date`
	verifier := [][]string{{"verifier"}}
	var cases []refusal
	for _, d := range []string{"9999-12-31", "1999-12-31", "2026-02-30", "demain", "2026-13-01"} {
		cases = append(cases, refusal{[]string{"PRET_SEANCE_DATE=" + d}, "", date, verifier})
	}
	for _, v := range []string{"[1, 2]", "2026-02-30", "20260101", "2101-01-01"} {
		cases = append(cases, refusal{nil, "seance:\n  date: " + v + "\n", date, verifier})
	}
	for _, c := range [][2]string{{"09:30", "09:30"}, {"09:30", "08:00"}, {"14:00", "12:00"}} {
		cases = append(cases, refusal{[]string{"PRET_SEANCE_DEBUT=" + c[0], "PRET_SEANCE_FIN=" + c[1]}, "", `seance\.fin`,
			[][]string{{"verifier"}, {"livrables", "."}}})
	}
	cases = append(cases, refusal{[]string{"HOME="}, "", "dossier personnel inconnu : la variable HOME est vide ou absente", [][]string{
		{"verifier"}, {"cle", "--passphrase-file", "pass"}, {"acces", "--statut", "demande", "--date", "2026-10-12"},
		{"empreinte"}, {"ssh-config"}, {"signer", "--passphrase-file", "pass"},
	}})
	for _, c := range cases {
		for _, args := range c.cmds {
			home := testEnv(t)
			for _, kv := range c.env {
				name, value, _ := strings.Cut(kv, "=")
				t.Setenv(name, value)
			}
			if c.config != "" {
				writeFile(t, filepath.Join(home, "c.yaml"), []byte(c.config), 0o600)
				args = append(slices.Clone(args), "--config", "c.yaml")
			}
			r := pretIn(t, "", args...)
			must(t, r, exitUsage, args...)
			if english.MatchString(r.stderr) || !regexp.MustCompile(c.say).MatchString(r.stderr) {
				t.Errorf("%v, pret %q: want %q in French:\n%s", c.env, args, c.say, r.stderr)
			}
		}
	}
}
