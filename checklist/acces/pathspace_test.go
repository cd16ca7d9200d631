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

// TestLabelInSentenceUnreadIsBadDate: a label in a sentence, with no
// colon, dates what follows it: a value there that is no date is
// bad-date quoting it (tester finding), and the advice names calendar
// days only, never a relative form the rule refuses.
func TestLabelInSentenceUnreadIsBadDate(t *testing.T) {
	for _, c := range []struct{ line, quoted string }{
		{"Demande faite le 20/10/26", "20/10/26"},
		{"Demandé le 20 brumaire", "20 brumaire"},
		{"Compte vérifié le 20 brumaire", "20 brumaire"},
		{"Date de la demande : bientôt", "bientôt"},
	} {
		r := Validate([]byte(c.line+"\n"), Rules{})
		var msg string
		for _, p := range r.Problems {
			if p.Code == "missing-date" {
				t.Errorf("%q: missing-date", c.line)
			}
			if p.Code == "bad-date" {
				msg = p.Message
			}
		}
		if !strings.Contains(msg, "« "+c.quoted+" »") {
			t.Errorf("%q: bad-date %q, want it quoting %q", c.line, msg, c.quoted)
		}
		if strings.Contains(msg, "hier") || strings.Contains(msg, "il y a") {
			t.Errorf("%q: advice %q names a relative form", c.line, msg)
		}
	}
	// A label in a sentence with a readable date is that date.
	if r := Validate([]byte("Demande faite le 20/10/2026\n"), Rules{}); r.Date != "2026-10-20" {
		t.Errorf("date %q", r.Date)
	}
}
