package main

import (
	"archive/zip"
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

const (
	fpOne = "SHA256:bdWv8ASnIXvq7nulAWpJBvplTofkQJ55TUUjbQO+nA0"
	fpTwo = "SHA256:tc1+NYFSoUoasBV8ZJu5X3dK6V3ESg7kOqqgMRKY8gI"
)

func accesPage(fp string) string {
	return "- Date de la demande : 2026-10-16\n- Clé : ~/.ssh/id_ed25519_romeo.pub\n- 256 " + fp + " seance-novembre (ED25519)\n\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n"
}

func writeZip(t *testing.T, path string, files map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(content))
	}
	zw.Close()
	writeFile(t, path, buf.Bytes(), 0o644)
}

// TestValiderExitCodesAndOutputEveryFormat runs the binary on a Moodle
// archive in every format: the exit code does not depend on the format,
// --sortie writes exactly what standard output would have held, --sortie
// on the key is refused, and nothing found is exit 1 with a French
// sentence on stderr.
func TestValiderExitCodesAndOutputEveryFormat(t *testing.T) {
	t.Parallel()
	notShort(t)
	h := newHome(t)
	writeZip(t, h.path("moodle.zip"), map[string]string{
		"Dupont Alice_1_assignsubmission_file_acces.md":     accesPage(fpOne),
		"Martin Bob_2_assignsubmission_file_acces (1).md":   accesPage(fpOne), // Alice's key
		"Durand Chloé_3_assignsubmission_file_/Accès.md":    accesPage(fpTwo),
		"Durand Chloé_3_assignsubmission_file_/notes.txt":   "rien",
		"Petit Denis_4_assignsubmission_onlinetext_x.html":  "<p>acces</p>",
		"Leroy Emma_5_assignsubmission_file_acces-2.md.bak": "pas lu",
	})
	writeZip(t, h.path("bon.zip"), map[string]string{"kim/acces.md": accesPage(fpTwo)})
	put(t, h.dir, "vide/sous-dossier/notes.md", "acces.md")

	for _, format := range checklist.FileFormats {
		r := h.pret("", "valider", "--format", format, "moodle.zip")
		if r.code != 1 {
			t.Errorf("%s: exit %d on invalid files\n%s", format, r.code, r.stderr)
		}
		for _, learner := range []string{"Dupont Alice", "Martin Bob"} {
			if !strings.Contains(r.stdout, learner) {
				t.Errorf("%s does not name %s", format, learner)
			}
		}
		if format == "texte" && strings.Contains(r.stdout, "Durand") {
			t.Errorf("texte lists a valid file without --tous:\n%s", r.stdout)
		}
		out := h.path("rapport." + format)
		w := h.pret("", "valider", "--format", format, "--sortie", out, "moodle.zip")
		got, err := os.ReadFile(out)
		if w.code != 1 || err != nil || w.stdout != "" {
			t.Errorf("%s --sortie: exit %d, %v, stdout %q", format, w.code, err, w.stdout)
		}
		if generated.ReplaceAllString(string(got), "") != generated.ReplaceAllString(r.stdout, "") {
			t.Errorf("%s --sortie wrote other bytes than standard output", format)
		}
		h.must(0, "", "valider", "--format", format, "bon.zip")
		none := h.pret("", "valider", "--format", format, "vide")
		if none.code != 1 || !strings.HasPrefix(none.stderr, "pret: erreur : aucun acces.md trouvé dans vide") {
			t.Errorf("%s, nothing found: exit %d\n%s", format, none.code, none.stderr)
		}
		for _, name := range []string{"nulle-part", "moodle.zip/acces.md", "nulle\x1b[31m-part"} {
			miss := h.pret("", "valider", "--format", format, name, "bon.zip")
			if miss.code != 2 || miss.stdout != "" || strings.Contains(miss.stderr, "\x1b") {
				t.Errorf("%s, a mistyped name %q: exit %d, stdout %q, stderr %q", format, name, miss.code, miss.stdout, miss.stderr)
			}
		}
	}
	// Never onto the key or into its folder, even through a link.
	os.MkdirAll(h.path(".ssh"), 0o700)
	os.WriteFile(h.path(".ssh/id_ed25519_romeo"), []byte("clé"), 0o600)
	os.Symlink(h.path(".ssh/id_ed25519_romeo"), h.path("lien"))
	for _, target := range []string{".ssh/id_ed25519_romeo", ".ssh/id_ed25519_romeo.pub", ".ssh/rapport.csv", "lien", ".ssh/../.ssh/id_ed25519_romeo"} {
		r := h.pret("", "valider", "--format", "csv", "--sortie", h.path(target), "moodle.zip")
		if r.code != 2 {
			t.Errorf("--sortie %s: exit %d\n%s", target, r.code, r.stderr)
		}
	}
	if data, _ := os.ReadFile(h.path(".ssh/id_ed25519_romeo")); string(data) != "clé" {
		t.Error("the key was written to")
	}
	if _, err := os.Stat(h.path(".ssh/rapport.csv")); err == nil {
		t.Error("a report was written into the key folder")
	}
	entries, _ := os.ReadDir(h.path(".ssh"))
	if len(entries) != 1 {
		t.Errorf("the key folder holds %d files", len(entries))
	}
}

// TestValiderOutputNeverAnInput: --sortie onto an input (archive, file,
// link to one, submission name inside an input folder) or onto a folder
// is refused with exit 2 and leaves every input byte-identical, in every
// format; a folder that does not exist is exit 2 too. --paralleles 0 is
// refused as its message says.
func TestValiderOutputNeverAnInput(t *testing.T) {
	t.Parallel()
	notShort(t)
	h := newHome(t)
	writeZip(t, h.path("victim.zip"), map[string]string{"kim/acces.md": accesPage(fpTwo)})
	put(t, h.dir, "vic/etu/acces.md", accesPage(fpOne))
	os.Symlink(h.path("victim.zip"), h.path("lien.zip"))
	before := map[string][]byte{}
	for _, f := range []string{"victim.zip", "vic/etu/acces.md"} {
		before[f], _ = os.ReadFile(h.path(f))
	}
	cases := []struct{ out, in string }{
		{"victim.zip", "victim.zip"},
		{"lien.zip", "victim.zip"},
		{"./victim.zip", "victim.zip"},
		{"vic/etu/acces.md", "vic"},
		{"vic/etu/acces.md", "vic/etu/acces.md"},
		{"vic/etu/nouveau-acces.md", "vic"},
		{"vic/rendus.zip", "vic"},
		{"vic", "victim.zip"},
		{"vic/etu", "vic"},
		{"nulle-part/x.txt", "victim.zip"},
	}
	for _, format := range checklist.FileFormats {
		for _, c := range cases {
			r := h.pret("", "valider", "--format", format, "--sortie", c.out, c.in)
			if r.code != 2 || !strings.HasPrefix(r.stderr, "pret: erreur : --sortie") || strings.Contains(r.stderr, "existe déjà") {
				t.Errorf("%s --sortie %s %s: exit %d\n%s", format, c.out, c.in, r.code, r.stderr)
			}
		}
		// A report beside the inputs, under another name, is fine.
		h.must(0, "", "valider", "--format", format, "--sortie", "vic/rapport."+format, "vic")
		os.Remove(h.path("vic/rapport." + format))
	}
	for f, data := range before {
		if got, _ := os.ReadFile(h.path(f)); !bytes.Equal(got, data) {
			t.Errorf("%s was changed", f)
		}
	}
	for _, n := range []string{"0", "-1", "100000"} {
		says(t, h.pret("", "valider", "--paralleles", n, "victim.zip"), 2, "entre 1 et")
	}
	h.must(0, "", "valider", "--paralleles", "1", "victim.zip")
}

// TestValiderDashNames: a learner's folder named like an option of pret
// valider (« pret valider * » over "-Louise", "--tous", "-h",
// "--sortie=x"…) is a usage error naming it, with the hint to write "--"
// or "./*", never that option with the learner left unchecked (outside
// tester, F1). Written after "--" or as "./…" it is read; an option
// that names no path stays an option, its error with the same hint.
func TestValiderDashNames(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	names := []string{"-Louise", "--tous", "--strict", "--format=json", "-h", "--sortie=x", "--paralleles=2"}
	for _, n := range append(names, "Louise") {
		put(t, h.dir, n+"/acces.md", accesPage(fpOne))
	}
	says(t, h.pret("", "valider", "-Louise"), 2, "pret: erreur : -Louise est lu comme une option", "pret: conseil : ", "« pret valider -- * »", "./*")
	h.must(0, "", "valider", "--", "-Louise")
	h.must(0, "", "valider", "./-Louise")
	for _, n := range names {
		r := h.pret("", "valider", "Louise", n)
		says(t, r, 2, "pret: erreur : "+n+" est lu comme une option", "« pret valider -- * »", "./"+n)
		if r.stdout != "" {
			t.Errorf("%s: a report on refusal:\n%s", n, r.stdout)
		}
		for _, args := range [][]string{{"valider", "--", "Louise", n}, {"valider", "Louise", "./" + n}} {
			if r := h.pret("", args...); r.code != 1 || !strings.Contains(r.stdout, "duplicate-fingerprint") {
				t.Errorf("%q: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
			}
		}
	}
	// A mistyped option that names no file keeps its error, with the same hint.
	says(t, h.pret("", "valider", "-x"), 2, "option courte inconnue : -x", "« pret valider -- * »")
	says(t, h.pret("", "valider", "--Louise"), 2, "option inconnue : --Louise", "./--Louise")
	os.RemoveAll(h.path("--tous"))
	if r := h.pret("", "valider", "--tous", "Louise"); r.code != 0 || !strings.Contains(r.stdout, "Louise") {
		t.Errorf("--tous naming no path: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
