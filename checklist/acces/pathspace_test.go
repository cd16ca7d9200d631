package acces

import (
	"os"
	"strings"
	"testing"
)

// TestPathWithSpacesInCodeSpan: a home folder with a space in its name
// ("Jean Dupont") gives a path with a space; in a code span, as pret acces
// writes it, the path is read whole. Out of one, a space still ends a path.
func TestPathWithSpacesInCodeSpan(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"- Chemin de la clé publique : `/home/Jean Dupont/.ssh/id_ed25519_romeo.pub`", "/home/Jean Dupont/.ssh/id_ed25519_romeo.pub"},
		{"- Chemin de la clé publique : `C:\\Users\\Jean Dupont\\.ssh\\id_ed25519_romeo.pub`", `C:\Users\Jean Dupont\.ssh\id_ed25519_romeo.pub`},
		{"- Chemin : `~/.ssh/id_ed25519_romeo.pub`", "~/.ssh/id_ed25519_romeo.pub"},
		{"- Chemin : /home/jean/.ssh/id_ed25519_romeo.pub et rien d'autre", "/home/jean/.ssh/id_ed25519_romeo.pub"},
		{"- Chemin : `mon fichier` puis ~/.ssh/id_ed25519_romeo.pub", "~/.ssh/id_ed25519_romeo.pub"},
	} {
		r := Validate([]byte("# Accès\n\n"+c.line+"\n"), Rules{})
		if r.PubPath != c.want {
			t.Errorf("%q: path %q, want %q", c.line, r.PubPath, c.want)
		}
	}
	// The whole page pret acces writes, for a home with a space.
	b, err := os.ReadFile("../../docs/examples/acces/valide-modele.md")
	if err != nil {
		t.Fatal(err)
	}
	page := strings.Replace(string(b), "/home/kim/", "/home/Jean Dupont/", 1)
	r := Validate([]byte(page), Rules{KeyName: "id_ed25519_romeo.pub"})
	if r.PubPath != "/home/Jean Dupont/.ssh/id_ed25519_romeo.pub" || len(r.Problems) != 0 {
		t.Errorf("page: path %q, problems %v", r.PubPath, r.Problems)
	}
}
