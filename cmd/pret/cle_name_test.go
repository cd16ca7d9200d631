package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestCleNameRefusesSSHFiles: a cle.nom that is a file OpenSSH reads for
// something else (config, known_hosts, authorized_keys, in any case) or
// that ends in .pub is refused before anything is touched, whether it
// comes from the flag, the environment or the config file: exit 2, the
// name quoted « » and an example at most once, and the existing ~/.ssh/config (or no file at all) left
// as it was.
func TestCleNameRefusesSSHFiles(t *testing.T) {
	t.Parallel()
	notShort(t)
	for _, name := range []string{"config", "known_hosts", "authorized_keys", "Config", "AUTHORIZED_KEYS", "id_ed25519_romeo.pub", "cle.PUB"} {
		h := newHome(t)
		os.Mkdir(h.path(".ssh"), 0o700)
		os.WriteFile(h.path(".ssh/config"), []byte("Host *\n"), 0o600)
		cfg := h.path("config.yaml")
		os.WriteFile(cfg, []byte(fmt.Sprintf("cle:\n  nom: %q\n", name)), 0o600)
		for how, r := range map[string]result{
			"flag":   h.pret(secretPass+"\n", "--cle-nom", name, "cle", "--passphrase-file", "-"),
			"config": h.pret(secretPass+"\n", "--config", cfg, "cle", "--passphrase-file", "-"),
			"env": func() result {
				h.env = append(h.env, "PRET_CLE_NOM="+name)
				defer func() { h.env = h.env[:len(h.env)-1] }()
				return h.pret(secretPass+"\n", "cle", "--passphrase-file", "-")
			}(),
		} {
			// Quoted « » (issue 32), the example given at most once.
			if r.code != exitUsage || !strings.Contains(r.stderr, "pret: erreur : ") || !strings.Contains(r.stderr, "« "+name+" »") ||
				strings.Contains(r.stderr, `"`) || strings.Count(r.stderr, "par exemple id_ed25519_romeo") > 1 {
				t.Errorf("%s %s: exit %d\n%s", how, name, r.code, r.stderr)
			}
		}
		entries, _ := os.ReadDir(h.path(".ssh"))
		if len(entries) != 1 {
			t.Errorf("%s: the key folder holds %v", name, entries)
		}
		if b, _ := os.ReadFile(h.path(".ssh/config")); string(b) != "Host *\n" {
			t.Errorf("%s: ~/.ssh/config changed: %q", name, b)
		}
	}
	// Names that merely look alike are keys like any other: one is made,
	// the others kept (bcrypt makes each new key cost).
	h := newHome(t)
	kp := putKey(t, h.dir)
	for i, name := range []string{"config_romeo", "id_known_hosts", "publique"} {
		if i > 0 {
			os.WriteFile(h.path(".ssh/"+name), kp.priv, 0o600)
			os.WriteFile(h.path(".ssh/"+name+".pub"), kp.pub, 0o644)
		}
		h.must(0, secretPass+"\n", "--cle-nom", name, "cle", "--passphrase-file", "-")
	}
}
