package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPassphraseDashOnTerminal: "--passphrase-file -" with a terminal on
// stdin never reads what would be typed with echo on: on a full terminal
// it asks twice, echo off (the prompter); with stdin alone a terminal it
// refuses (exit 2) and makes no key.
func TestPassphraseDashOnTerminal(t *testing.T) {
	home := testEnv(t)
	p := &enterPrompter{}
	ios, out, errb := fakeStreams("texte tapé en clair\n", true, p)
	if code := run(context.Background(), []string{"cle", "--passphrase-file", "-"}, ios); code != 0 {
		t.Fatalf("code %d\n%s%s", code, out, errb)
	}
	if len(p.asked) != 2 {
		t.Fatalf("questions : %q, attendu deux saisies sans écho", p.asked)
	}
	if _, err := os.Stat(filepath.Join(home, ".ssh", "id_ed25519_romeo")); err != nil {
		t.Fatal(err)
	}

	testEnv(t)
	ios, out, errb = fakeStreams("texte tapé en clair\n", false, nil)
	ios.inTTY = true
	code := run(context.Background(), []string{"cle", "--passphrase-file", "-"}, ios)
	if code != 2 || !strings.Contains(errb.String(), "l'entrée standard est un terminal") {
		t.Fatalf("code %d\n%s%s", code, out, errb)
	}
	if entries, _ := os.ReadDir(filepath.Join(os.Getenv("HOME"), ".ssh")); len(entries) != 0 {
		t.Fatalf("clé créée : %v", entries)
	}
}

// TestBadSettingNeverWritesHere: every setting x every wrong value, from
// the config file, is exit 2 naming the setting, and `pret cle` writes
// nothing, in the current folder or anywhere in the home.
func TestBadSettingNeverWritesHere(t *testing.T) {
	values := map[string]string{"vide": `""`, "espaces": `"   "`, "liste": "[x]", "section": "{a: b}", "nombre": "12", "booleen": "false", "nul": "~"}
	for _, k := range configKeys {
		sec, name, _ := strings.Cut(k.key, ".")
		for vname, v := range values {
			if err := checkSetting(k.key, strings.Trim(v, `"`)); err == nil && (vname == "vide" || vname == "espaces") {
				continue // an empty value is allowed for this setting
			}
			t.Run(k.key+"/"+vname, func(t *testing.T) {
				home := testEnv(t)
				os.WriteFile(filepath.Join(home, "pass.txt"), []byte(testPass+"\n"), 0o600)
				cfg := filepath.Join(home, "config.yaml")
				os.WriteFile(cfg, []byte(fmt.Sprintf("%s:\n  %s: %s\n", sec, name, v)), 0o600)
				before, _ := os.ReadDir(home)
				r := pretIn(t, "", "--config", cfg, "cle", "--passphrase-file", filepath.Join(home, "pass.txt"))
				says(t, r, 2, k.key)
				after, _ := os.ReadDir(home)
				if len(after) != len(before) {
					t.Fatalf("écrit dans le dossier : %v -> %v", before, after)
				}
			})
		}
	}
}
