package textwrap_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/internal/textwrap"
)

// TestWrapText: at every width, no line is wider than the width but a
// line holding a single word, nothing is lost or reordered, and no word
// is cut: a fingerprint or a path wider than the terminal is left to its
// soft wrap, which copying rejoins.
func TestWrapText(t *testing.T) {
	texts := []string{
		"OK         key-present            clé présente : /home/kim/.ssh/id_ed25519_romeo",
		"ÉCHEC      acces-valid            acces.md n'a pas la phrase « Connexion uniquement vers le nœud de login indiqué par les organisateurs. »",
		"    \x1b[31mmissing-date\x1b[0m (erreur) : la date de la demande du compte d'accès manque ; écrivez-la sous la forme AAAA-MM-JJ",
		"      --seance-date DATE                    DATE de la séance, AAAA-MM-JJ (heure de Paris) ; PRET_SEANCE_DATE (défaut : \"2026-11-05\")",
		"Résumé : 11 réussis, 0 avertissement, 0 échec, 0 sauté",
		"",
		"un-mot-très-long-qui-ne-tient-sur-aucune-ligne-étroite-du-tout et la suite",
	}
	text := strings.Join(texts, "\n")
	for width := 10; width <= 130; width++ {
		got := textwrap.Text(text, width)
		if testenv.NonSpace(got) != testenv.NonSpace(text) {
			t.Fatalf("width %d: text changed:\n%s", width, got)
		}
		for _, line := range strings.Split(got, "\n") {
			checkWidth(t, line, width)
		}
	}
	if textwrap.Text(text, 0) != text || textwrap.Text(text, 500) != text {
		t.Fatal("a wide or unknown terminal must leave the text alone")
	}
	// The message column is kept when it leaves room.
	got := textwrap.Text(texts[0], 70)
	lines := strings.Split(got, "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], strings.Repeat(" ", 34)+"/home") {
		t.Fatalf("hanging indent:\n%s", got)
	}
	if strings.Join(strings.Fields(textwrap.Text(text, 20)), " ") != strings.Join(strings.Fields(text), " ") {
		t.Fatal("a word was cut")
	}
	if utf8.RuneCountInString("é") != textwrap.Columns("\x1b[1mé\x1b[0m") {
		t.Fatal("escapes counted as columns")
	}
}
