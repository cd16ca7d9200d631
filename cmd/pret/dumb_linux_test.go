package main

import (
	"slices"
	"strings"
	"testing"
)

// TestDumbTerminalNoEscapes: on a terminal that says TERM=dumb, what pret
// draws holds no escape sequence at all (colour, clear-line, cursor),
// in reports, help, errors and hints alike, nor on an xterm with
// NO_COLOR set, even empty; the same commands on an xterm show that the
// reports are coloured there, so the check means something.
func TestDumbTerminalNoEscapes(t *testing.T) {
	t.Parallel()
	notShort(t)
	h := newHome(t)
	writeFile(t, h.path("acces.md"), []byte("rien de ce qu'il faut\n"), 0o600)
	base := slices.Clip(without(h.env, "NO_COLOR", "TERM")) // each append a copy
	for _, args := range [][]string{{"valider", "acces.md"}, {"verifier"}} {
		if coloured, _ := onTerminal(t, h, append(base, "TERM=xterm-256color"), 80, args...); !strings.Contains(coloured, "\x1b[") {
			t.Fatalf("pret %v: no colour on an xterm, so the cases below prove nothing:\n%q", args, coloured)
		}
	}
	dumb := append(base, "TERM=dumb")
	for _, run := range []struct {
		env  []string
		args []string
	}{
		{dumb, []string{"verifier"}},
		{append(base, "TERM=xterm-256color", "NO_COLOR="), []string{"verifier"}},
		{append(base, "TERM=xterm-256color", "NO_COLOR=1"), []string{"verifier"}},
		{dumb, []string{"valider", "acces.md"}},
		{dumb, []string{"--help"}},
		{dumb, []string{"valider", "--help"}},
		{dumb, []string{"valdier"}},
		{dumb, []string{"valider", "--fromat", "json"}},
		{dumb, []string{"ssh-config"}},
		{dumb, []string{"empreinte", "absent.pub"}},
	} {
		out, _ := onTerminal(t, h, run.env, 60, run.args...)
		if out == "" || strings.Contains(out, "\x1b") {
			t.Errorf("pret %v with %s:\n%q", run.args, run.env[len(run.env)-1], out)
		}
	}
}
