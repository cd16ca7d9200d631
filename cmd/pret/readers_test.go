//go:build unix

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/adrg/xdg"
)

// hostileFiles make, at path, something no reader may hang on, allocate
// for, or explain in English. They need only the file system.
var hostileFiles = map[string]func(t *testing.T, path string){
	"fifo": func(t *testing.T, p string) {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	},
	"lien-devzero": func(t *testing.T, p string) {
		if err := os.Symlink("/dev/zero", p); err != nil {
			t.Fatal(err)
		}
	},
	"lien-sortant": func(t *testing.T, p string) {
		// A link out to a file of the system: never quoted, never written.
		if err := os.Symlink("/etc/passwd", p); err != nil {
			t.Fatal(err)
		}
	},
	"creux-3Go": func(t *testing.T, p string) {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(3 << 30); err != nil {
			t.Skipf("pas de fichier creux ici : %v", err)
		}
	},
	"dossier": func(t *testing.T, p string) {
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
	},
	"lien-boucle": func(t *testing.T, p string) {
		if err := os.Symlink(p, p); err != nil {
			t.Fatal(err)
		}
	},
}

// reader is one place pret reads a file it did not write, and the exit
// codes of the contract for a hostile file there: 2 when the person
// named it (a setting, a flag), 1 when a check fails or an action is
// refused because of what is on disk.
type reader struct {
	codes []int
	// run places the hostile file (make) and runs pret.
	run func(t *testing.T, home string, make func(string)) result
}

var readers = map[string]reader{
	"config": {[]int{2}, func(t *testing.T, home string, make func(string)) result {
		p := filepath.Join(home, "config.yaml")
		make(p)
		return pretIn(t, "", "--config", p, "verifier")
	}},
	"config-xdg": {[]int{2}, func(t *testing.T, home string, make func(string)) result {
		os.MkdirAll(filepath.Join(xdg.ConfigHome, "pret"), 0o755)
		make(filepath.Join(xdg.ConfigHome, "pret", "config.yaml"))
		return pretIn(t, "", "verifier")
	}},
	"modele": {[]int{2}, func(t *testing.T, home string, make func(string)) result {
		p := filepath.Join(home, "modele.md")
		make(p)
		t.Setenv("PRET_ACCES_MODELE", p)
		return pretIn(t, "", "acces", "--statut", "demande", "--force")
	}},
	"passphrase-file": {[]int{1}, func(t *testing.T, home string, make func(string)) result {
		p := filepath.Join(home, "pass.txt")
		make(p)
		t.Setenv("PRET_CLE_DOSSIER", filepath.Join(home, "neuve"))
		return pretIn(t, "", "cle", "--passphrase-file", p)
	}},
	"verifier-acces.md": {[]int{1}, func(t *testing.T, home string, make func(string)) result {
		make(filepath.Join(home, "acces.md"))
		return pretIn(t, "", "verifier")
	}},
	"verifier-etat": {[]int{1, 2}, func(t *testing.T, home string, make func(string)) result {
		os.MkdirAll(filepath.Join(xdg.StateHome, "pret"), 0o700)
		make(filepath.Join(xdg.StateHome, "pret", "etat.yaml"))
		return pretIn(t, "", "verifier")
	}},
	"acces-acces.md": {[]int{1, 2}, func(t *testing.T, home string, make func(string)) result {
		make(filepath.Join(home, "acces.md"))
		return pretIn(t, "", "acces", "--statut", "demande")
	}},
	"acces-etat": {[]int{1, 2}, func(t *testing.T, home string, make func(string)) result {
		os.MkdirAll(filepath.Join(xdg.StateHome, "pret"), 0o700)
		make(filepath.Join(xdg.StateHome, "pret", "etat.yaml"))
		return pretIn(t, "", "acces", "--statut", "demande")
	}},
	"cle-cle": {[]int{1}, func(t *testing.T, home string, make func(string)) result {
		os.Remove(filepath.Join(home, ".ssh", "id_ed25519_romeo"))
		make(filepath.Join(home, ".ssh", "id_ed25519_romeo"))
		return pretIn(t, "", "cle")
	}},
	"cle-pub": {[]int{0, 1}, func(t *testing.T, home string, make func(string)) result {
		os.Remove(filepath.Join(home, ".ssh", "id_ed25519_romeo.pub"))
		make(filepath.Join(home, ".ssh", "id_ed25519_romeo.pub"))
		return pretIn(t, "", "cle")
	}},
	"verifier-cle": {[]int{1}, func(t *testing.T, home string, make func(string)) result {
		os.Remove(filepath.Join(home, ".ssh", "id_ed25519_romeo"))
		make(filepath.Join(home, ".ssh", "id_ed25519_romeo"))
		return pretIn(t, "", "verifier")
	}},
	"empreinte": {[]int{1, 2}, func(t *testing.T, home string, make func(string)) result {
		p := filepath.Join(home, "cle.pub")
		make(p)
		return pretIn(t, "", "empreinte", p)
	}},
}

var systemEnglish = regexp.MustCompile(`(?i)no such file|permission denied|too many levels|resource temporarily|is a directory|not a directory|file name too long|too large|<nil>|yaml:|errno|invalid argument|operation not permitted`)

// TestEveryReaderHostile: every reader x every hostile file ends within a
// deadline with an exit code of the contract and a French reason; the
// content of what sits behind a link is never printed.
func TestEveryReaderHostile(t *testing.T) {
	notShort(t)
	kp := sharedKey(t, testPass)
	for rname, rd := range readers {
		for hname, hostile := range hostileFiles {
			t.Run(rname+"/"+hname, func(t *testing.T) {
				home, _ := keyHome(t, kp)
				done := make(chan result, 1)
				go func() {
					done <- rd.run(t, home, func(p string) { hostile(t, p) })
				}()
				var r result
				select {
				case r = <-done:
				case <-time.After(20 * time.Second):
					t.Fatal("pret bloqué plus de 20 s")
				}
				codes := rd.codes
				if rname == "passphrase-file" && hname == "lien-sortant" {
					// A file the person names may be a link: theirs to give.
					// Here its first line is a passphrase like any other.
					codes = []int{0}
				}
				ok := false
				for _, c := range codes {
					ok = ok || r.code == c
				}
				if !ok {
					t.Errorf("code %d, attendu %v\nstdout:\n%s\nstderr:\n%s", r.code, codes, r.stdout, r.stderr)
				}
				if m := systemEnglish.FindString(r.stdout + r.stderr); m != "" {
					t.Errorf("anglais du système (%q) :\n%s%s", m, r.stdout, r.stderr)
				}
				if strings.Contains(r.stdout+r.stderr, "root:x:0:0") {
					t.Errorf("contenu lu à travers le lien :\n%s%s", r.stdout, r.stderr)
				}
				if r.code != 0 && !strings.Contains(r.stderr+r.stdout, "pret: erreur : ") && !strings.Contains(r.stdout, "ÉCHEC") {
					t.Errorf("pas de raison :\n%s%s", r.stdout, r.stderr)
				}
			})
		}
	}
}

// TestSunkUnreadableFile: a path given to pret sunk that is there but
// is no file it can read (a folder, a FIFO, a device, too large, a link
// loop) exits 1, as the same path given to pret empreinte; an absent one
// exits 2 (cli.md: « chemin donné absent »).
func TestSunkUnreadableFile(t *testing.T) {
	for _, name := range []string{"absent", "dossier", "fifo", "lien-devzero", "creux-3Go", "lien-boucle"} {
		t.Run(name, func(t *testing.T) {
			home := testEnv(t)
			os.WriteFile(filepath.Join(home, "policy.yaml"), []byte("base: {}\n"), 0o644)
			p := filepath.Join(home, "values.yaml")
			want := exitUsage
			if make := hostileFiles[name]; make != nil {
				make(t, p)
				want = exitFailed
			}
			r := pretIn(t, "", "sunk", "--valeurs", p, "--politique", "policy.yaml")
			says(t, r, want, "pret: erreur : ", "pret: conseil : ")
			if m := systemEnglish.FindString(r.stderr); m != "" {
				t.Errorf("anglais du système (%q) :\n%s", m, r.stderr)
			}
			if e := pretIn(t, "", "empreinte", p); e.code != r.code {
				t.Errorf("pret empreinte : code %d, pret sunk : %d\n%s%s", e.code, r.code, e.stderr, r.stderr)
			}
		})
	}
}

// TestNamedPathTooLong: a path too long for the system, given where the
// person names a file, is exit 2 with the French reason.
func TestNamedPathTooLong(t *testing.T) {
	long := "/tmp/" + strings.Repeat("tres-long/", 500) + "f"
	for name, args := range map[string][]string{
		"config":     {"--config", long, "verifier"},
		"passphrase": {"cle", "--passphrase-file", long},
		"empreinte":  {"empreinte", long},
		"modele":     {"acces", "--statut", "demande", "--acces-modele", long},
	} {
		testEnv(t)
		t.Setenv("PRET_CLE_DOSSIER", filepath.Join(t.TempDir(), "ssh"))
		r := pretIn(t, "", args...)
		// empreinte, passphrase: a file that cannot be read is a refusal
		// (1), as for any file that is not a key.
		if r.code != 2 && !((name == "modele" || name == "empreinte" || name == "passphrase") && r.code == 1) {
			t.Errorf("%s : code %d\n%s", name, r.code, r.stderr)
		}
		if m := systemEnglish.FindString(r.stderr); m != "" || !strings.Contains(r.stderr, "pret: erreur : ") {
			t.Errorf("%s : %q", name, r.stderr)
		}
	}
}
