package main

import (
	"strings"
	"testing"
)

// TestDumbTerminalNoEscapes: on a terminal that says TERM=dumb, what pret
// draws holds no escape sequence at all (colour, clear-line, cursor),
// in reports, help, errors and hints alike; the same commands on an
// xterm show that the reports are coloured there, so the check means
// something.
func TestDumbTerminalNoEscapes(t *testing.T) {
	t.Parallel()
	notShort(t)
	h := newHome(t)
	writeFile(t, h.path("acces.md"), []byte("rien de ce qu'il faut\n"), 0o600)
	base := without(h.env, "NO_COLOR", "TERM")
	coloured, _ := onTerminal(t, h, append(base, "TERM=xterm-256color"), 80, "valider", "acces.md")
	if !strings.Contains(coloured, "\x1b[") {
		t.Fatalf("no colour on an xterm, so the cases below prove nothing:\n%q", coloured)
	}
	for _, args := range [][]string{
		{"verifier"},
		{"valider", "acces.md"},
		{"--help"},
		{"valider", "--help"},
		{"valdier"},
		{"valider", "--fromat", "json"},
		{"ssh-config"},
		{"empreinte", "absent.pub"},
	} {
		out, _ := onTerminal(t, h, append(base, "TERM=dumb"), 60, args...)
		if out == "" || strings.Contains(out, "\x1b") {
			t.Errorf("pret %v with TERM=dumb:\n%q", args, out)
		}
	}
}
