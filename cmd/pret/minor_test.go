package main

import (
	"strings"
	"testing"
)

// TestSessionEndAfterStart: every end at or before the start is a
// configuration error (exit 2), whatever command loads it.
func TestSessionEndAfterStart(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, c := range [][2]string{{"09:30", "09:30"}, {"09:30", "08:00"}, {"14:00", "12:00"}} {
		t.Setenv("PRET_SEANCE_DEBUT", c[0])
		t.Setenv("PRET_SEANCE_FIN", c[1])
		for _, cmd := range [][]string{{"verifier"}, {"livrables", t.TempDir()}} {
			r := pretIn(t, "", cmd...)
			says(t, r, 2, "seance.fin")
		}
	}
}

// TestAttenteMustBePositive: zero or negative waits are refused in French,
// before the run.
func TestAttenteMustBePositive(t *testing.T) {
	for _, d := range []string{"-5s", "0s", "-1m"} {
		ran := false
		err := parse(t, newLivrablesCmd(testApp(), func(*livrablesOptions) error { ran = true; return nil }), "--attente", d)
		if e, ok := err.(*cliError); !ok || e.Code != exitUsage || ran || !strings.Contains(e.Msg, "positive") {
			t.Errorf("%s: %v, ran %v", d, err, ran)
		}
	}
}
