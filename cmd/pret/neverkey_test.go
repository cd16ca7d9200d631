package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"
)

// keyHome is a home with the key in ~/.ssh and the links and folders the
// output spellings below need.
func keyHome(t *testing.T, kp keyPair) (home, sshDir string) {
	home = testEnv(t)
	sshDir = filepath.Join(home, ".ssh")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(sshDir, "sous"), 0o700))
	must(os.WriteFile(filepath.Join(sshDir, "id_ed25519_romeo"), kp.priv, 0o600))
	must(os.WriteFile(filepath.Join(sshDir, "id_ed25519_romeo.pub"), kp.pub, 0o644))
	must(os.MkdirAll(filepath.Join(home, "docs"), 0o755))
	must(os.Symlink(filepath.Join(sshDir, "id_ed25519_romeo"), filepath.Join(home, "lien-cle")))
	must(os.Symlink(filepath.Join(sshDir, "id_ed25519_romeo.pub"), filepath.Join(home, "lien-pub")))
	must(os.Symlink(sshDir, filepath.Join(home, "lien-ssh")))
	must(os.Symlink(filepath.Join(sshDir, "sous"), filepath.Join(home, "lien-sous")))
	must(os.Symlink(filepath.Join(sshDir, "nouveau.md"), filepath.Join(home, "pendant")))
	must(os.Link(filepath.Join(sshDir, "id_ed25519_romeo"), filepath.Join(home, "dur")))
	return home, sshDir
}

// outputSpellings are the ways of naming a file that lands on the key,
// its .pub, in the key folder or below it; $HOME is replaced by the home.
var outputSpellings = map[string]string{
	"tilde-cle":         "~/.ssh/id_ed25519_romeo",
	"tilde-pub":         "~/.ssh/id_ed25519_romeo.pub",
	"tilde-dossier":     "~/.ssh/acces.md",
	"absolu-cle":        "$HOME/.ssh/id_ed25519_romeo",
	"variable-home":     "$HOME/.ssh/id_ed25519_romeo",
	"relatif-cle":       ".ssh/id_ed25519_romeo",
	"relatif-pub":       "./.ssh/id_ed25519_romeo.pub",
	"lien-cle":          "$HOME/lien-cle",
	"lien-pub":          "$HOME/lien-pub",
	"lien-dossier":      "$HOME/lien-ssh/id_ed25519_romeo",
	"lien-dossier-neuf": "$HOME/lien-ssh/rapport.txt",
	"point-point":       "$HOME/docs/../.ssh/id_ed25519_romeo",
	"point-point-tilde": "~/docs/../.ssh/id_ed25519_romeo.pub",
	"lien-puis-pp":      "$HOME/lien-sous/../id_ed25519_romeo",
	"lien-pendant":      "$HOME/pendant",
	"lien-dur":          "$HOME/dur",
	"double-barre":      "$HOME/.ssh//id_ed25519_romeo",
	"point":             "$HOME/.ssh/./id_ed25519_romeo",
	"sous-dossier":      "~/.ssh/sous/acces.md",
	"sous-dossier-neuf": "$HOME/.ssh/a/b/rapport.txt",
	"lien-sous-neuf":    "$HOME/lien-sous/rapport.txt",
}

// folderSpellings name the key folder itself or a folder below it, for
// commands that take a folder to write into.
var folderSpellings = map[string]string{
	"tilde":        "~/.ssh",
	"absolu":       "$HOME/.ssh",
	"lien":         "$HOME/lien-ssh",
	"point-point":  "$HOME/docs/../.ssh",
	"lien-puis-pp": "$HOME/lien-sous/..",
	"relatif":      ".ssh",
	"sous-neuf":    "~/.ssh/pages",
	"profond":      "$HOME/.ssh/a/b/c",
	"sous":         "$HOME/.ssh/sous",
	"lien-neuf":    "$HOME/lien-ssh/neuf",
}

// writers are the commands that write a file, each given the output
// path one way; the path is the spelling with $HOME expanded except
// where the shell would not ("~" stays for the settings, as a person
// writes it in a config file or PRET_ACCES_FICHIER='~/…').
var writers = map[string]func(t *testing.T, home, out string) result{
	"acces/variable": func(t *testing.T, home, out string) result {
		t.Setenv("PRET_ACCES_FICHIER", out)
		return pretIn(t, "", "acces", "--statut", "demande", "--date", "2026-10-01", "--force")
	},
	"acces/option": func(t *testing.T, home, out string) result {
		return pretIn(t, "", "acces", "--statut", "verifie", "--force", "--acces-fichier", out)
	},
	"acces/fichier-de-configuration": func(t *testing.T, home, out string) result {
		cfg := filepath.Join(home, "config.yaml")
		os.WriteFile(cfg, []byte("acces:\n  fichier: '"+out+"'\n"), 0o644)
		return pretIn(t, "", "--config", cfg, "acces", "--statut", "demande", "--force")
	},
	"assistant/terminal": func(t *testing.T, home, out string) result {
		t.Setenv("PRET_ACCES_FICHIER", out)
		return pretTTY(t, &enterPrompter{}, "assistant")
	},
	"valider/sortie": func(t *testing.T, home, out string) result {
		return pretIn(t, "", "valider", "docs", "--format", "json", "--sortie", out)
	},
	"signer": func(t *testing.T, home, out string) result {
		os.WriteFile(filepath.Join(home, "pass.txt"), []byte(testPass+"\n"), 0o600)
		return pretIn(t, "", "signer", out, "--passphrase-file", filepath.Join(home, "pass.txt"))
	},
	"signer/variable": func(t *testing.T, home, out string) result {
		t.Setenv("PRET_ACCES_FICHIER", out)
		os.WriteFile(filepath.Join(home, "pass.txt"), []byte(testPass+"\n"), 0o600)
		return pretIn(t, "", "signer", "--passphrase-file", filepath.Join(home, "pass.txt"))
	},
	"modele": func(t *testing.T, home, out string) result {
		return pretIn(t, "", "modele", out)
	},
}

// TestNoCommandWritesTheKey: every command that writes x every spelling
// of a path on the key, its .pub or in the key folder is refused with
// exit 2, and the key folder is byte for byte what it was.
func TestNoCommandWritesTheKey(t *testing.T) {
	notShort(t)
	kp := sharedKey(t, testPass)
	for wname, write := range writers {
		for sname, spelling := range outputSpellings {
			t.Run(wname+"/"+sname, func(t *testing.T) {
				home, sshDir := keyHome(t, kp)
				before := dirSnapshot(sshDir)
				out := strings.ReplaceAll(spelling, "$HOME", home)
				if strings.HasPrefix(wname, "valider") || wname == "modele" || wname == "signer" {
					out = expandTilde(home, out) // a shell expands ~ in an argument
				}
				r := write(t, home, out)
				checkRefused(t, r, sshDir, before)
			})
		}
	}
	for sname, spelling := range folderSpellings {
		t.Run("man/"+sname, func(t *testing.T) {
			home, sshDir := keyHome(t, kp)
			before := dirSnapshot(sshDir)
			r := pretIn(t, "", "man", expandTilde(home, strings.ReplaceAll(spelling, "$HOME", home)))
			checkRefused(t, r, sshDir, before)
		})
	}
	// The state file: XDG_STATE_HOME/pret is a link to the key folder, or
	// the key is named like the state file.
	for _, keyName := range []string{"id_ed25519_romeo", "etat.yaml"} {
		t.Run("etat/"+keyName, func(t *testing.T) {
			home, sshDir := keyHome(t, kp)
			if keyName != "id_ed25519_romeo" {
				os.Rename(filepath.Join(sshDir, "id_ed25519_romeo"), filepath.Join(sshDir, keyName))
				os.Rename(filepath.Join(sshDir, "id_ed25519_romeo.pub"), filepath.Join(sshDir, keyName+".pub"))
				t.Setenv("PRET_CLE_NOM", keyName)
			}
			state := filepath.Join(home, "etat")
			os.MkdirAll(state, 0o755)
			os.Symlink(sshDir, filepath.Join(state, "pret"))
			t.Setenv("XDG_STATE_HOME", state)
			xdg.Reload()
			before := dirSnapshot(sshDir)
			r := pretIn(t, "", "acces", "--statut", "demande", "--force", "--acces-fichier", filepath.Join(home, "acces.md"))
			checkRefused(t, r, sshDir, before)
		})
	}
	// XDG_STATE_HOME in the key folder or below it, an unreadable state
	// already there or not: refused, nothing in the folder touched.
	for _, sub := range []string{"", "sous", "a/b", "../.ssh/x"} {
		for _, existing := range []bool{false, true} {
			t.Run(fmt.Sprintf("etat-sous/%s/%v", sub, existing), func(t *testing.T) {
				home, sshDir := keyHome(t, kp)
				state := filepath.Join(sshDir, sub)
				if existing {
					os.MkdirAll(filepath.Join(state, "pret"), 0o700)
					os.WriteFile(filepath.Join(state, "pret", "etat.yaml"), []byte("acces: [\n"), 0o600)
				}
				t.Setenv("XDG_STATE_HOME", state)
				xdg.Reload()
				before := dirSnapshot(sshDir)
				r := pretIn(t, "", "acces", "--statut", "demande", "--force", "--acces-fichier", filepath.Join(home, "acces.md"))
				checkRefused(t, r, sshDir, before)
			})
		}
	}
}

// TestManNeverWritesThroughAPage: pret man writes a page per command; a
// link at ANY page's name (not only pret.1) that leads to the key, its
// .pub or into the key folder is refused before anything is written, and
// the key folder is unchanged. A folder standing at a page's name is
// refused before the first page too. Without HOME, with the key folder
// given as an absolute path, the folder below it is still refused.
func TestManNeverWritesThroughAPage(t *testing.T) {
	notShort(t)
	kp := sharedKey(t, testPass)
	home, _ := keyHome(t, kp)
	probe := filepath.Join(home, "pages")
	if r := pretIn(t, "", "man", probe); r.code != 0 {
		t.Fatalf("pret man: %d\n%s", r.code, r.stderr)
	}
	entries, _ := os.ReadDir(probe)
	if len(entries) < 10 {
		t.Fatalf("%d pages only", len(entries))
	}
	targets := map[string]string{"cle": ".ssh/id_ed25519_romeo", "pub": ".ssh/id_ed25519_romeo.pub", "neuf": ".ssh/page.1", "sous": ".ssh/sous/page.1"}
	for _, e := range entries {
		for tname, target := range targets {
			t.Run(e.Name()+"/"+tname, func(t *testing.T) {
				home, sshDir := keyHome(t, kp)
				dir := filepath.Join(home, "man")
				os.MkdirAll(dir, 0o755)
				if err := os.Symlink(filepath.Join(home, target), filepath.Join(dir, e.Name())); err != nil {
					t.Fatal(err)
				}
				before := dirSnapshot(sshDir)
				r := pretIn(t, "", "man", dir)
				checkRefused(t, r, sshDir, before)
				if got, _ := os.ReadDir(dir); len(got) != 1 {
					t.Errorf("%d names in the folder: pages were written before the refusal", len(got))
				}
			})
		}
	}
	t.Run("dossier-a-la-place", func(t *testing.T) {
		home, _ := keyHome(t, kp)
		dir := filepath.Join(home, "man")
		os.MkdirAll(filepath.Join(dir, entries[len(entries)-1].Name()), 0o755)
		r := pretIn(t, "", "man", dir)
		if got, _ := os.ReadDir(dir); r.code != 1 || len(got) != 1 || !strings.Contains(r.stderr, "rien n'a été écrit") {
			t.Errorf("exit %d, %d names\n%s", r.code, len(got), r.stderr)
		}
	})
	t.Run("sans-home", func(t *testing.T) {
		_, sshDir := keyHome(t, kp)
		t.Setenv("HOME", "")
		t.Setenv("PRET_CLE_DOSSIER", sshDir)
		before := dirSnapshot(sshDir)
		r := pretIn(t, "", "man", filepath.Join(sshDir, "pages"))
		if r.code != 2 {
			t.Errorf("exit %d\n%s", r.code, r.stderr)
		}
		if after := dirSnapshot(sshDir); after != before {
			t.Errorf("the key folder changed")
		}
	})
}

func checkRefused(t *testing.T, r result, sshDir, before string) {
	t.Helper()
	if r.code != 2 {
		t.Errorf("code %d, attendu 2\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "mène à la clé SSH") || !strings.Contains(r.stderr, "pret: conseil : ") {
		t.Errorf("raison absente :\n%s", r.stderr)
	}
	if after := dirSnapshot(sshDir); after != before {
		t.Errorf("le dossier de la clé a changé :\navant\n%s\naprès\n%s", before, after)
	}
}

func expandTilde(home, p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		return home + p[1:]
	}
	return p
}

// TestHomeSSHGuardedWhenTheKeyIsElsewhere: with cle.dossier another
// folder, ~/.ssh keeps its keys: no output lands there (outside tester,
// stop 27: --sortie ~/.ssh/id_ed25519 replaced a real key).
func TestHomeSSHGuardedWhenTheKeyIsElsewhere(t *testing.T) {
	notShort(t)
	kp := sharedKey(t, testPass)
	home, sshDir := keyHome(t, kp)
	other := filepath.Join(home, "cles-seance")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PRET_CLE_DOSSIER", other)
	writeFile(t, filepath.Join(home, "docs", "acces.md"), []byte("x\n"), 0o644)
	before := dirSnapshot(sshDir)
	for _, target := range []string{filepath.Join(sshDir, "id_ed25519_romeo"), filepath.Join(sshDir, "rapport.json"), filepath.Join(home, "lien-ssh", "sous", "r.json")} {
		r := pretIn(t, "", "valider", filepath.Join(home, "docs"), "--format", "json", "--sortie", target)
		checkRefused(t, r, sshDir, before)
		if !strings.Contains(r.stderr, sshDir) {
			t.Errorf("%s: the refusal does not name %s:\n%s", target, sshDir, r.stderr)
		}
	}
	// The folder of the session's key stays guarded too.
	r := pretIn(t, "", "valider", filepath.Join(home, "docs"), "--sortie", filepath.Join(other, "r.txt"))
	checkRefused(t, r, sshDir, before)
}
