package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"
	"golang.org/x/crypto/ssh"
)

// TestFastPathIsTheTree: for every command line the fast path takes
// (version, --version, -v, empreinte and its alias on every kind of file,
// standard input, under every kind of configuration), what it prints on
// both streams and its exit code are the cobra tree's, byte for byte. And
// the lines it must leave to the tree (a flag, a second file, help) are
// left.
func TestFastPathIsTheTree(t *testing.T) {
	home := testEnv(t)
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSuffix(string(ssh.MarshalAuthorizedKey(sp)), "\n")
	block, err := ssh.MarshalPrivateKey(priv, "kim@portable")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"k.pub":          line + " kim@portable\n",
		"esc.pub":        line + " kim\x1b[31m\u202eportable\n",
		"authorized":     line + " a\n\n# commentaire\n" + line + " b\n",
		"garbage.pub":    "ceci n'est pas une clé\n",
		"empty.pub":      "",
		"alone":          string(pem.EncodeToMemory(block)),
		"paired":         string(pem.EncodeToMemory(block)),
		"paired.pub":     line + " paired\n",
		"dossier/x.pub":  line + "\n",
		"accent é.pub":   line + " é\n",
		"cert-cert.pub":  "ssh-ed25519-cert-v01@openssh.com AAAA\n",
		"crlf.pub":       line + " crlf\r\n",
		"tab\tname.pub":  line + " t\n",
		"-tiret.pub":     line + "\n", // a flag to cobra: left to the tree
		"long.pub":       line + " " + strings.Repeat("x", 70000) + "\n",
		"private-in.pub": string(pem.EncodeToMemory(block)),
	}
	for name, content := range files {
		p := filepath.Join(home, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink("k.pub", filepath.Join(home, "lien.pub"))
	os.Symlink("absent", filepath.Join(home, "mort.pub"))

	var lines [][]string
	for _, v := range []string{"version", "--version", "-v"} {
		lines = append(lines, []string{v})
	}
	for _, cmd := range []string{"empreinte", "fingerprint"} {
		for name := range files {
			lines = append(lines, []string{cmd, name}, []string{cmd, filepath.Join(home, name)})
		}
		for _, p := range []string{"lien.pub", "mort.pub", "absent.pub", "dossier", "-", ".", "/dev/null"} {
			lines = append(lines, []string{cmd, p})
		}
	}
	// Left to the tree; compared all the same.
	lines = append(lines, []string{"empreinte", "k.pub", "--art"}, []string{"empreinte", "--art", "k.pub"},
		[]string{"empreinte"}, []string{"version", "x"}, []string{"empreinte", "-h"}, []string{"empreinte", "--", "k.pub"})

	configs := map[string]func(t *testing.T){
		"sans": func(t *testing.T) {},
		"fichier": func(t *testing.T) {
			writeConfig(t, "cle:\n  nom: autre\n")
		},
		"inconnue": func(t *testing.T) {
			writeConfig(t, "cle:\n  nom: autre\ninconnue: 1\n")
		},
		"cassée": func(t *testing.T) {
			writeConfig(t, "cle: [\n")
		},
		"variable-vide": func(t *testing.T) {
			t.Setenv("PRET_CLE_DOSSIER", "")
		},
		"variable-date": func(t *testing.T) {
			t.Setenv("PRET_SEANCE_DATE", "demain")
		},
	}
	stdins := []string{"", line + " stdin\n", "pas une clé\n"}
	taken := 0
	for cname, setup := range configs {
		t.Run(cname, func(t *testing.T) {
			setup(t)
			xdg.Reload()
			for _, args := range lines {
				for _, in := range stdins {
					ios, out, errb := fakeStreams(in, false, nil)
					code, ok := fastPath(context.Background(), args, ios)
					if !ok {
						if args[0] == "empreinte" && len(args) == 2 && !strings.HasPrefix(args[1], "-") {
							t.Errorf("pret %q: left to the tree", args)
						}
						continue
					}
					taken++
					tios, tout, terrb := fakeStreams(in, false, nil)
					tcode := runTree(context.Background(), args, tios)
					if code != tcode || out.String() != tout.String() || errb.String() != terrb.String() {
						t.Errorf("pret %q (stdin %q): fast path %d\n%s%s\ntree %d\n%s%s",
							args, in, code, out, errb, tcode, tout, terrb)
					}
				}
			}
		})
	}
	if taken < 100 {
		t.Fatalf("the fast path took %d command lines only", taken)
	}
}

func writeConfig(t *testing.T, body string) {
	t.Helper()
	p := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "pret", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(p) })
}
