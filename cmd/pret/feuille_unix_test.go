//go:build unix

package main

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestValiderFeuilleAfterReport: the filled worksheet is written after
// the report. A report that cannot be written leaves the worksheet
// unwritten ("rien n'a été écrit" holds); a worksheet that cannot be
// written says that the report was.
func TestValiderFeuilleAfterReport(t *testing.T) {
	t.Parallel()
	h := feuilleHome(t)
	if err := syscall.Mkfifo(h.path("tube"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := h.pret("", "valider", "--feuille", "feuille.csv", "--feuille-sortie", "remplie.csv", "--sortie", "tube", "rendus.zip")
	says(t, r, 1, "pret: erreur : --sortie tube : aucun programme ne lit ce tube nommé ; rien n'a été écrit")
	if _, err := os.Lstat(h.path("remplie.csv")); err == nil {
		t.Error("the worksheet was written, the report was not")
	}
	r = h.pret("", "valider", "--feuille", "feuille.csv", "--feuille-sortie", "tube", "--sortie", "rapport.txt", "rendus.zip")
	says(t, r, 1, "pret: erreur : --feuille-sortie tube : aucun programme ne lit ce tube nommé ; cette feuille n'a pas été écrite ; le rapport a été écrit dans rapport.txt")
	if data, err := os.ReadFile(h.path("rapport.txt")); err != nil || !strings.Contains(string(data), "Martin Bob") {
		t.Errorf("the report: %v %q", err, data)
	}
	r = h.pret("", "valider", "--feuille", "feuille.csv", "--feuille-sortie", "tube", "rendus.zip")
	if r.code != 1 || !strings.Contains(r.stdout, "Martin Bob") || !strings.Contains(r.stderr, "cette feuille n'a pas été écrite ; le rapport a été écrit sur la sortie standard") {
		t.Errorf("worksheet unwritable, report on stdout: exit %d\n%s", r.code, r.stderr)
	}
}

// TestValiderFeuilleNoLinkOutput: neither --sortie nor --feuille-sortie
// writes through a symbolic link to a file or to nothing: exit 2 in
// French, nothing read or written, the link and what it names as they
// were. A link to a character device is still written into.
func TestValiderFeuilleNoLinkOutput(t *testing.T) {
	t.Parallel()
	h := feuilleHome(t)
	os.WriteFile(h.path("vrai.csv"), []byte("ancien\n"), 0o644)
	os.Symlink(h.path("absent.csv"), h.path("pendant.csv"))
	os.Symlink(h.path("vrai.csv"), h.path("lien.csv"))
	os.Symlink("/dev/null", h.path("nul"))
	for _, flag := range []string{"--sortie", "--feuille-sortie"} {
		for _, link := range []string{"pendant.csv", "lien.csv"} {
			args := []string{"valider", "--feuille", "feuille.csv", flag, link, "rendus.zip"}
			if flag == "--sortie" {
				args = append(args, "--feuille-sortie", "remplie.csv")
			}
			r := h.pret("", args...)
			if r.code != 2 || !strings.Contains(r.stderr, "pret: erreur : "+flag+" "+link+" est un lien symbolique : pret n'écrit pas à travers un lien") || r.stdout != "" {
				t.Errorf("%s %s: exit %d\n%s", flag, link, r.code, r.stderr)
			}
			if st, err := os.Lstat(h.path(link)); err != nil || st.Mode()&os.ModeSymlink == 0 {
				t.Errorf("%s %s: the link was replaced", flag, link)
			}
			for _, name := range []string{"absent.csv", "remplie.csv"} {
				if _, err := os.Lstat(h.path(name)); err == nil {
					t.Errorf("%s %s: %s written", flag, link, name)
					os.Remove(h.path(name))
				}
			}
			if data, _ := os.ReadFile(h.path("vrai.csv")); string(data) != "ancien\n" {
				t.Errorf("%s %s: the linked file was changed", flag, link)
			}
		}
	}
	says(t, h.pret("", "valider", "--feuille", "feuille.csv", "--sortie", "nul", "--feuille-sortie", "nul", "rendus.zip"), 2, "est aussi --sortie")
	if r := h.pret("", "valider", "--feuille", "feuille.csv", "--feuille-sortie", "nul", "rendus.zip"); r.code != 1 || !strings.HasPrefix(r.stderr, "pret: --feuille-sortie nul écrite ; notes écrites") {
		t.Errorf("a link to /dev/null: exit %d\n%s", r.code, r.stderr)
	}
}
