package textwrap_test

import (
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/textwrap"
)

// TestFrenchSpacingNeverBreaks: at every width, no line starts with the
// punctuation French sets off with a space (':', ';', '?', '!', '»')
// and none ends with an opening guillemet, whether that space is an
// ordinary one, U+00A0 or U+202F; and the text is kept.
func TestFrenchSpacingNeverBreaks(t *testing.T) {
	for _, sp := range []string{" ", "\u00a0", "\u202f"} {
		text := strings.Join([]string{
			"pret: erreur" + sp + ": la date de la demande manque" + sp + "; écrivez-la",
			"vouliez-vous dire «" + sp + "valider" + sp + "»" + sp + "?",
			"    clé présente" + sp + ": /home/kim/.ssh/id_ed25519_romeo",
			"Attention" + sp + "! le compte n'est pas ouvert" + sp + "!",
		}, "\n")
		for width := 4; width <= 80; width++ {
			got := textwrap.Text(text, width)
			if strings.Join(strings.Fields(got), "") != strings.Join(strings.Fields(text), "") {
				t.Fatalf("%U, width %d: text changed:\n%s", []rune(sp)[0], width, got)
			}
			for _, line := range strings.Split(got, "\n") {
				l := strings.Trim(line, " \u00a0\u202f")
				if l == "" {
					continue
				}
				if strings.ContainsAny(l[:1], ":;?!") || strings.HasPrefix(l, "»") || strings.HasSuffix(l, "«") {
					t.Fatalf("%U, width %d: line broken at a French space: %q in\n%s", []rune(sp)[0], width, line, got)
				}
			}
		}
	}
	// The rule holds the word and its punctuation together, not more: a
	// line still breaks between other words.
	if got := textwrap.Text("un deux trois quatre :", 10); got != "un deux\ntrois\nquatre :" {
		t.Fatalf("%q", got)
	}
}
