package acces

import (
	"github.com/romeo-pret/pret/internal/testenv"

	"fmt"
	"strings"
	"testing"
)

// lineOf finds the line of the first problem with code.
func lineOf(r *Result, code string) (int, bool) {
	for _, p := range r.Problems {
		if p.Code == code {
			return p.Line, true
		}
	}
	return 0, false
}

// TestAlteredSentencePointsAtTheOffendingLine wraps the sentence over one
// to four lines, below zero to two lines of prose in the same paragraph,
// changes, adds or drops one word or adds a host name on a chosen line,
// and checks that altered-sentence names that line, not the paragraph's
// first.
func TestAlteredSentencePointsAtTheOffendingLine(t *testing.T) {
	words := strings.Fields("Connexion uniquement vers le nœud de login indiqué par les organisateurs.")
	head := "- Date de la demande : 2026-10-16\n- Clé : ~/.ssh/id_ed25519_romeo.pub\n- 256 " + fpA + " seance-novembre (ED25519)\n\n"
	const headLines = 4
	type mutation struct {
		name string
		at   int // word index
		do   func(ws []string, i int) []string
	}
	muts := []mutation{
		{"changed", 0, func(ws []string, i int) []string { ws[i] = "autre"; return ws }},
		{"added", 0, func(ws []string, i int) []string { return append(ws[:i:i], append([]string{"toujours"}, ws[i:]...)...) }},
		{"dropped", 0, func(ws []string, i int) []string { return append(ws[:i:i], ws[i+1:]...) }},
	}
	n := 0
	for prose := 0; prose <= 2; prose++ {
		for wrap := 1; wrap <= 4; wrap++ {
			for _, m := range muts {
				for at := 1; at < len(words)-1; at++ {
					ws := m.do(append([]string(nil), words...), at)
					// Split ws into wrap lines; find the line of word at.
					per := (len(ws) + wrap - 1) / wrap
					var lines []string
					want := 0
					for i := 0; i < len(ws); i += per {
						j := min(i+per, len(ws))
						lines = append(lines, strings.Join(ws[i:j], " "))
						if at >= i && at < j {
							want = headLines + prose + len(lines)
						}
					}
					if m.name == "dropped" && at >= len(ws) {
						want = headLines + prose + len(lines)
					}
					para := strings.Repeat("Je m'engage à respecter la règle.\n", prose) + strings.Join(lines, "\n") + "\n"
					r := Validate([]byte(head+para), rules)
					got, ok := lineOf(r, "altered-sentence")
					if !ok || got != want {
						t.Errorf("%s word %d, %d prose lines, %d lines: altered-sentence at %d (found %v), want %d\n%s", m.name, at, prose, wrap, got, ok, want, para)
					}
					n++
				}
			}
			// A host name after the sentence, on the paragraph's last line.
			para := strings.Repeat("Je m'engage.\n", prose) + strings.Join(words, " ") + "\nsoit romeo.univ-reims.fr\n"
			r := Validate([]byte(head+para), rules)
			if got, _ := lineOf(r, "altered-sentence"); got != headLines+prose+2 {
				t.Errorf("host: line %d, want %d\n%s", got, headLines+prose+2, para)
			}
		}
	}
	if n < 300 {
		t.Fatalf("only %d variants", n)
	}
}

// TestTypeProblemsPointAtTheirLine: missing-type names the fingerprint's
// line, wrong-type the line of the other type, below prose.
func TestTypeProblemsPointAtTheirLine(t *testing.T) {
	for prose := 0; prose < 4; prose++ {
		pre := strings.Repeat("Voici ma clé, comme demandé.\n", prose)
		noType := "- Date de la demande : 2026-10-16\n- Clé : ~/.ssh/id_ed25519_romeo.pub\n" + pre + "- empreinte " + fpA + "\n\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n"
		if got, _ := lineOf(Validate([]byte(noType), rules), "missing-type"); got != 3+prose {
			t.Errorf("missing-type at %d, want %d", got, 3+prose)
		}
		rsa := testenv.Edit(noType, "- empreinte "+fpA+"\n", "- empreinte "+fpA+"\n"+pre+"type RSA\n")
		if got, _ := lineOf(Validate([]byte(rsa), rules), "wrong-type"); got != 4+2*prose {
			t.Errorf("wrong-type at %d, want %d:\n%s", got, 4+2*prose, rsa)
		}
	}
}

// TestEveryProblemWithTextHasALine: each problem that is about words of
// the file names a line, and that line holds the words it is about.
func TestEveryProblemWithTextHasALine(t *testing.T) {
	cases := map[string]string{
		"bad-date":              "Date de la demande : 2026-02-30",
		"future-date":           "Date de la demande : 2027-01-01",
		"late-request":          "Date de la demande : 2026-11-06",
		"private-key-path":      "Clé : ~/.ssh/id_ed25519_romeo",
		"unexpected-key-name":   "Clé : ~/.ssh/autre.pub",
		"bad-fingerprint":       "SHA256:abc (ED25519)",
		"not-text":              "caf\xe9",
		"multiple-fingerprints": fpA + " " + fpB,
	}
	for code, text := range cases {
		for prose := 0; prose < 3; prose++ {
			doc := strings.Repeat("bonjour\n\n", prose) + text + "\n"
			late := rules
			late.Today = testenv.Day("2026-11-10") // after the session: late-request can happen
			r := Validate([]byte(doc), late)
			got, ok := lineOf(r, code)
			if !ok || got != 1+2*prose {
				t.Errorf("%s: line %d (found %v), want %d: %s", code, got, ok, 1+2*prose, fmt.Sprint(r.Problems))
			}
		}
	}
}

// TestWordsAddedAfterAWrappedSentence: a paragraph may wrap, and a word
// added is altered, also when the added words open the next line of the
// paragraph (a small letter: the sentence goes on) or follow the last
// word with no full stop between. altered-sentence names the line of
// the added words. A wrapped sentence alone, or followed by a new
// sentence (capital letter) in the same paragraph, stays valid.
func TestWordsAddedAfterAWrappedSentence(t *testing.T) {
	words := strings.Fields("Connexion uniquement vers le nœud de login indiqué par les organisateurs")
	head := "- Date de la demande : 2026-10-16\n- Clé : ~/.ssh/id_ed25519_romeo.pub\n- 256 " + fpA + " seance-novembre (ED25519)\n\n"
	const headLines = 4
	tails := []string{"et aussi vers romeo2.", "sur romeo.", "sauf le week-end", "et romeo", "*sauf* en cas d'urgence"}
	n := 0
	for wrap := 1; wrap <= 4; wrap++ {
		per := (len(words) + wrap - 1) / wrap
		var lines []string
		for i := 0; i < len(words); i += per {
			lines = append(lines, strings.Join(words[i:min(i+per, len(words))], " "))
		}
		for _, stop := range []string{"", "."} {
			body := strings.Join(lines, "\n") + stop
			if r := Validate([]byte(head+body+"\n"), rules); !r.Valid() {
				t.Errorf("wrapped over %d lines: %v\n%s", wrap, r.Problems, body)
			}
			if r := Validate([]byte(head+body+"\nMerci de votre aide.\n"), rules); !r.Valid() {
				t.Errorf("a new sentence after it: %v\n%s", r.Problems, body)
			}
			for _, tail := range tails {
				// On the next line of the paragraph.
				doc := head + body + "\n" + tail + "\n"
				want := headLines + len(lines) + 1
				if got, ok := lineOf(Validate([]byte(doc), rules), "altered-sentence"); !ok || got != want {
					t.Errorf("next line: altered-sentence at %d (found %v), want %d\n%s", got, ok, want, doc)
				}
				n++
				// On the sentence's last line, no full stop between.
				if stop == "" {
					doc = head + body + " " + tail + "\n"
					want = headLines + len(lines)
					if got, ok := lineOf(Validate([]byte(doc), rules), "altered-sentence"); !ok || got != want {
						t.Errorf("same line: altered-sentence at %d (found %v), want %d\n%s", got, ok, want, doc)
					}
					n++
				}
			}
		}
	}
	// The tester's case: the added word on the line after "indiqué".
	doc := head + "Connexion uniquement vers le nœud de login indiqué\npar les organisateurs et romeo.\n"
	if got, _ := lineOf(Validate([]byte(doc), rules), "altered-sentence"); got != headLines+2 {
		t.Errorf("altered-sentence at %d, want %d", got, headLines+2)
	}
	if n < 50 {
		t.Fatalf("only %d variants", n)
	}
}
