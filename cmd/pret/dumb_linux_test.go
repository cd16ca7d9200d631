package main

import (
	"os"
	"strings"
	"testing"
)

// TestDumbTerminalNoEscapes: on a terminal that says TERM=dumb, what pret
// draws holds no escape sequence at all (colour, clear-line, cursor),
// in reports, help, errors and hints alike; the same commands on an
// xterm show that the reports are coloured there, so the check means
// something.
func TestDumbTerminalNoEscapes(t *testing.T) {
	h := newHome(t)
	if err := os.WriteFile(h.path("acces.md"), []byte("rien de ce qu'il faut\n"), 0o600); err != nil {
		t.Fatal(err)
	}
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

// TestDumbTerminalWizard: the wizard on a TERM=dumb terminal asks with
// numbered choices and lines, draws no escape sequence at all (survey
// would clear and redraw lines), understands a number, a word and Enter
// (the default), asks again after an answer it does not understand, and
// writes acces.md like anywhere else.
func TestDumbTerminalWizard(t *testing.T) {
	home := t.TempDir()
	s := startPTYWith(t, home, ptyOptions{env: []string{"TERM=dumb"}})
	for _, step := range [][2]string{
		{"Choisissez une passphrase", testPass},
		{"seconde fois", testPass},
		{"Votre choix, de 1 à 3 (Entrée : 1)", "zzz"},
		{"Réponse non comprise (zzz) : tapez un numéro de 1 à 3.", "2"},
		{"Date de la demande du compte (Entrée : ", ""},
		{"Écrire acces.md à cet endroit ?", ""},
		{"Signer acces.md ?", "non"},
	} {
		s.expect(step[0])
		s.send(step[1] + "\r")
	}
	code := s.wait()
	if _, err := os.Stat(home + "/acces.md"); err != nil {
		t.Fatalf("exit %d, acces.md: %v\n%s", code, err, s.raw.String())
	}
	if raw := s.raw.String(); strings.Contains(raw, "\x1b") {
		t.Fatalf("escape sequences on a dumb terminal:\n%q", raw)
	}
}
