package main

import (
	"strings"
	"testing"
)

// TestEmptyHomeSaidInFrench: with HOME empty, every command that needs
// the key folder (~/.ssh by default) stops with a usage error that names
// the variable in French; Go's English reason ("$HOME is not defined")
// never reaches the person.
func TestEmptyHomeSaidInFrench(t *testing.T) {
	testEnv(t)
	t.Setenv("HOME", "")
	for _, args := range [][]string{
		{"verifier"}, {"cle", "--passphrase-file", "pass"}, {"acces", "--statut", "demande", "--date", "2026-10-12"},
		{"empreinte"}, {"ssh-config"}, {"signer", "--passphrase-file", "pass"},
	} {
		r := pretIn(t, "", args...)
		says(t, r, exitUsage, "dossier personnel inconnu : la variable HOME est vide ou absente")
		if strings.Contains(r.stderr, "not defined") || strings.Contains(r.stderr, "$HOME") {
			t.Errorf("pret %v: English reason:\n%s", args, r.stderr)
		}
	}
}
