package main

import (
	"strings"
	"testing"
)

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
