package main

import (
	"path/filepath"
	"regexp"
	"testing"
)

// TestSessionDateErrorsFrench: a session date that is empty, not a day,
// out of 2000–2100 or of the wrong type, from the environment or the
// config file, is a usage error (exit 2) in French: no "<nil>", none of
// the time or YAML parser's English.
func TestSessionDateErrorsFrench(t *testing.T) {
	english := regexp.MustCompile(`<nil>|parsing time|cannot parse|out of range|yaml:|month|day`)
	for _, c := range []struct{ env, config string }{
		{env: "9999-12-31"}, {env: "1999-12-31"}, {env: "2026-02-30"}, {env: "demain"}, {env: "2026-13-01"},
		{config: "seance:\n  date: [1, 2]\n"}, {config: "seance:\n  date: 2026-02-30\n"},
		{config: "seance:\n  date: 20260101\n"}, {config: "seance:\n  date: 2101-01-01\n"},
	} {
		home := testEnv(t)
		args := []string{"verifier"}
		if c.env != "" {
			t.Setenv("PRET_SEANCE_DATE", c.env)
		}
		if c.config != "" {
			writeFile(t, filepath.Join(home, "c.yaml"), []byte(c.config), 0o600)
			args = append(args, "--config", "c.yaml")
		}
		r := pretIn(t, "", args...)
		must(t, r, 2, args...)
		if english.MatchString(r.stderr) || !regexp.MustCompile(`^pret: erreur : .*seance\.date`).MatchString(r.stderr) {
			t.Errorf("%+v: %q", c, r.stderr)
		}
	}
}
