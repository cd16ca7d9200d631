package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// ProtectedSpellings returns, for a key folder holding the key "id" and
// "id.pub", every way of naming a path that lands on them or in the
// folder: direct, links, "..", a link to the folder, a dangling link, a
// hard link. Shared by the tests of every command that writes.
func protectedSpellings(t *testing.T, root string) (dir, key string, spell map[string]string) {
	dir = filepath.Join(root, "ssh")
	os.MkdirAll(filepath.Join(dir, "sous"), 0o700)
	key = filepath.Join(dir, "id")
	os.WriteFile(key, []byte("CLE PRIVEE"), 0o600)
	os.WriteFile(key+".pub", []byte("ssh-ed25519 AAAA"), 0o644)
	other := filepath.Join(root, "ailleurs")
	os.MkdirAll(other, 0o755)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(key, filepath.Join(other, "lien-cle")))
	must(os.Symlink(dir, filepath.Join(other, "lien-dossier")))
	must(os.Symlink(filepath.Join(dir, "sous"), filepath.Join(other, "lien-sous")))
	must(os.Symlink(filepath.Join(dir, "nouveau"), filepath.Join(other, "lien-pendant")))
	must(os.Link(key, filepath.Join(other, "dur")))
	spell = map[string]string{
		"cle":                key,
		"pub":                key + ".pub",
		"dans-le-dossier":    filepath.Join(dir, "acces.md"),
		"le-dossier":         dir,
		"point-point":        dir + "/sous/../id",
		"point-point-dehors": dir + "/../ssh/id.pub",
		"point":              dir + "/./id",
		"lien-vers-cle":      filepath.Join(other, "lien-cle"),
		"par-lien-dossier":   filepath.Join(other, "lien-dossier", "id"),
		"lien-puis-pp":       filepath.Join(other, "lien-sous") + "/../id",
		"lien-pendant":       filepath.Join(other, "lien-pendant"),
		"lien-dossier-neuf":  filepath.Join(other, "lien-dossier", "neuf.md"),
		"lien-hard":          filepath.Join(other, "dur"),
		"barres":             dir + "//id",
		"sous-la-cle":        key + "/pret.1",
		"profond":            filepath.Join(dir, "a", "b", "c", "etat.yaml"),
		"lien-puis-profond":  filepath.Join(other, "lien-dossier", "sous", "pret", "etat.yaml"),
		"absent-puis-pp":     root + "/x/../ssh/pret/etat.yaml",
	}
	return dir, key, spell
}

func TestProtectedRefusesEverySpelling(t *testing.T) {
	root := t.TempDir()
	dir, key, spell := protectedSpellings(t, root)
	p := Protect([]string{dir}, key, key+".pub")
	for name, target := range spell {
		err := p.CheckTree(target)
		if !errors.Is(err, ErrProtected) {
			t.Errorf("%s (%s) : %v, attendu un refus", name, target, err)
			continue
		}
		checkFrench(t, err)
	}
	// The folder given through a link is the same folder.
	viaLink := Protect([]string{filepath.Join(root, "ailleurs", "lien-dossier")}, filepath.Join(root, "ailleurs", "lien-dossier", "id"))
	if err := viaLink.CheckTree(key); !errors.Is(err, ErrProtected) {
		t.Errorf("dossier de clé donné par un lien : %v", err)
	}
	for _, ok := range []string{
		filepath.Join(root, "acces.md"),
		filepath.Join(root, "ailleurs", "acces.md"),
		filepath.Join(root, "ssh2", "id"),
		filepath.Join(root, "sshx", "etat.yaml"),
		filepath.Join(root, "etat", "pret", "etat.yaml"),
		filepath.Join(root, "nouveau", "dossier", "acces.md"),
	} {
		if err := p.CheckTree(ok); err != nil {
			t.Errorf("%s refusé à tort : %v", ok, err)
		}
	}
}

// TestProtectedRelative: a relative path is resolved from the current
// folder, as the write would be.
func TestProtectedRelative(t *testing.T) {
	root := t.TempDir()
	dir, key, _ := protectedSpellings(t, root)
	t.Chdir(filepath.Join(dir, "sous"))
	p := Protect([]string{dir}, key, key+".pub")
	for _, rel := range []string{"../id", "../id.pub", "../acces.md", "..", "../../ssh/id"} {
		if err := p.CheckTree(rel); !errors.Is(err, ErrProtected) {
			t.Errorf("%s : %v", rel, err)
		}
	}
	if err := p.CheckTree("acces.md"); !errors.Is(err, ErrProtected) {
		t.Errorf("sous-dossier : %v", err)
	}
}

// TestHardLinkToAnyFileOfAKeyFolder: a name elsewhere that is a hard link
// to another key or to known_hosts in a key folder is refused; a file of
// its own is not (second outside tester, stop 28).
func TestHardLinkToAnyFileOfAKeyFolder(t *testing.T) {
	home := t.TempDir()
	ssh, keys, out := filepath.Join(home, ".ssh"), filepath.Join(home, "cles"), filepath.Join(home, "sorties")
	for _, d := range []string{ssh, keys, out} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	p := Protect([]string{keys, ssh}, filepath.Join(keys, "id"))
	for _, name := range []string{"id_ed25519", "known_hosts"} {
		if err := os.WriteFile(filepath.Join(ssh, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(out, "lien-"+name)
		if err := os.Link(filepath.Join(ssh, name), link); err != nil {
			t.Skipf("no hard links here: %v", err)
		}
		if err := p.CheckTree(link); !errors.Is(err, ErrProtected) {
			t.Errorf("%s: %v", link, err)
		}
	}
	own := filepath.Join(out, "rapport.json")
	if err := os.WriteFile(own, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := p.CheckTree(own); err != nil {
		t.Errorf("%s refused: %v", own, err)
	}
}
