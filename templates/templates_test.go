package templates

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func sample(verified bool) Access {
	return Access{
		SessionTitle: "Utiliser ROMEO2025 et ses GPU pour le HPC et l'IA",
		SessionDay:   testenv.Day(testenv.SessionDay), Start: "09:30", End: "12:00",
		Verified:    verified,
		Date:        testenv.Day(testenv.Today),
		PublicKey:   "/home/kim/.ssh/id_ed25519_romeo.pub",
		Fingerprint: "256 SHA256:e5eV2dbJuZWp9bD1dJ4//42i4oaQUxlDKI+67P1iEBQ seance-novembre (ED25519)",
	}
}

func TestRenderGolden(t *testing.T) {
	for name, verified := range map[string]bool{"demande": false, "verifie": true} {
		got, err := Render("", sample(verified))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "acces-"+name+".golden.md")
		if *update {
			os.WriteFile(golden, got, 0o644)
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// TestRenderHasTheFourElements: whatever -update wrote in the golden
// files, the default template says the date, the key, its fingerprint,
// the sentence and when the session is (SessionWhen).
func TestRenderHasTheFourElements(t *testing.T) {
	got, _ := Render("", sample(false))
	for _, want := range []string{
		"Date de la demande du compte d'accès : 2026-10-20",
		"`/home/kim/.ssh/id_ed25519_romeo.pub`",
		"256 SHA256:e5eV2dbJuZWp9bD1dJ4//42i4oaQUxlDKI+67P1iEBQ seance-novembre (ED25519)",
		"Connexion uniquement vers le nœud de login indiqué par les organisateurs.",
		"jeudi 5 novembre 2026, 9h30–12h",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	got, _ = Render("", sample(true))
	if !strings.Contains(string(got), "Date de la vérification du compte d'accès : 2026-10-20") {
		t.Errorf("verified label missing:\n%s", got)
	}
}

func TestCustomTemplate(t *testing.T) {
	got, err := Render("{{.Date}} {{.Statut}} {{.ClePublique}}\n{{.Phrase}}\n", sample(true))
	if err != nil || string(got) != "2026-10-20 verifie /home/kim/.ssh/id_ed25519_romeo.pub\n"+Sentence+"\n" {
		t.Fatalf("%q %v", got, err)
	}
}
