package surveyprompt

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/onboarding"
)

// plainPrompter is a Prompter in Plain mode reading typed from a
// pipe; done closes its output and returns what it wrote.
func plainPrompter(t *testing.T, typed string) (p *Prompter, done func() string) {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { io.WriteString(inW, typed); inW.Close() }()
	got := make(chan string)
	go func() { b, _ := io.ReadAll(outR); got <- string(b) }()
	t.Cleanup(func() { inR.Close() })
	return &Prompter{In: inR, Out: outW, Err: outW, NoColor: true, Plain: true, Width: 40}, func() string {
		outW.Close()
		return <-got
	}
}

// TestPlainPrompter: the questions of TERM=dumb are lines of text with
// no escape sequence: a choice is its number (Enter: the default; "?":
// the help; anything else refused and asked again), an input is a line
// (Enter: the default), and each answer takes its own line only, so the
// next question reads the next line.
func TestPlainPrompter(t *testing.T) {
	p, done := plainPrompter(t, "0\n4\noui\n?\n 3 \n\n\r\n?\n12/10/2026\r\n2\n")
	i, err := p.Select("Où en est votre compte d'accès ?", []string{"A", "B", "C"}, 1, "Un seul compte.")
	if err != nil || i != 2 {
		t.Fatalf("Select: %d %v", i, err)
	}
	if i, err := p.Select("Oui ou non ?", []string{"Oui", "Non"}, 1, ""); err != nil || i != 1 {
		t.Fatalf("Select, Enter: %d %v", i, err)
	}
	if s, err := p.Input("Date :", "2026-10-20", ""); err != nil || s != "2026-10-20" {
		t.Fatalf("Input, Enter: %q %v", s, err)
	}
	if s, err := p.Input("Date :", "2026-10-20", "Formes acceptées."); err != nil || s != "12/10/2026" {
		t.Fatalf("Input: %q %v", s, err)
	}
	if i, err := p.Select("Encore ?", []string{"Oui", "Non"}, 0, ""); err != nil || i != 1 {
		t.Fatalf("Select after an input: %d %v", i, err)
	}
	// The input ends: no answer, like Ctrl-D.
	if _, err := p.Input("Dossier :", "~", ""); err != onboarding.ErrInterrupted {
		t.Fatalf("end of input: %v", err)
	}
	screen := done()
	if strings.ContainsAny(screen, "\x1b\r") {
		t.Fatalf("escape or carriage return on a dumb terminal:\n%q", screen)
	}
	for _, want := range []string{"? Où en est votre compte d'accès ?\n  1) A\n  2) B\n  3) C\n",
		"Numéro, de 1 à 3 (2) [? pour l'aide] : ", "tapez un numéro de 1 à 3", "? Un seul compte.\n",
		"? Date : (2026-10-20) ", "? Formes acceptées.\n"} {
		if !strings.Contains(screen, want) {
			t.Errorf("%q not on screen:\n%s", want, screen)
		}
	}
	if n := strings.Count(screen, "tapez un numéro de 1 à 3"); n != 3 {
		t.Errorf("%d refusals for 0, 4 and oui:\n%s", n, screen)
	}
}

// TestPlainPrompterEndIsNoAnswer: text typed then Ctrl-D, twice (the
// terminal hands the text over, then the end of input), is no answer:
// Enter never came (outside tester: a date noted, acces.md replaced).
func TestPlainPrompterEndIsNoAnswer(t *testing.T) {
	for _, ask := range []func(*Prompter) error{
		func(p *Prompter) error { _, err := p.Input("Date :", "", ""); return err },
		func(p *Prompter) error {
			_, err := p.Select("Le remplacer ?", []string{"Oui", "Non"}, 1, "")
			return err
		},
	} {
		p, done := plainPrompter(t, "1")
		if err := ask(p); err != onboarding.ErrInterrupted {
			t.Errorf("a line with no end taken: %v", err)
		}
		done()
	}
}

// TestPlainPrompterEscapesItsDefault: a default that comes from a path
// is shown escaped, and Enter gives it whole.
func TestPlainPrompterEscapesItsDefault(t *testing.T) {
	def := "~/dossier\x1b[2J\u202e"
	p, done := plainPrompter(t, "\n")
	if s, err := p.Input("Dossier où écrire acces.md :", def, ""); err != nil || s != def {
		t.Fatalf("Input: %q %v", s, err)
	}
	if screen := done(); strings.ContainsAny(screen, "\x1b\u202e") || !strings.Contains(screen, `(~/dossier\033[2J\342\200\256)`) {
		t.Fatalf("screen:\n%q", screen)
	}
}

// TestPlainPrompterWords (issue 32): with TERM=dumb a choice is also its
// word, as the README says (« le numéro, le mot, ou Entrée »): the whole
// text or its first words, accents and case aside; a word two options
// start with, or none, is refused and asked again.
func TestPlainPrompterWords(t *testing.T) {
	p, done := plainPrompter(t, "non\nOUI\npas encore\ndemande\nle compte est ouvert\nouvert\nDemandé, pas encore ouvert\nnon\nnon, jamais\n")
	yesNo := []string{"Oui", "Non, choisir un autre dossier"}
	account := []string{"Pas encore demandé", "Demandé, pas encore ouvert", "Le compte est ouvert"}
	for _, c := range []struct {
		options []string
		want    int
	}{{yesNo, 1}, {yesNo, 0}, {account, 0}, {account, 1}, {account, 2}, {account, 1}, {[]string{"Non, plus tard", "Non, jamais"}, 1}} {
		if i, err := p.Select("Question ?", c.options, 0, ""); err != nil || i != c.want {
			t.Fatalf("Select %v: %d %v, want %d", c.options, i, err, c.want)
		}
	}
	screen := done()
	if strings.Count(screen, "✘ Réponse refusée ; tapez un numéro de 1 à 3, ou le mot du choix.") != 1 {
		t.Errorf("« ouvert » (no option) not refused once:\n%s", screen)
	}
	if strings.Count(screen, "✘ Réponse refusée ; tapez un numéro de 1 à 2, ou le mot du choix.") != 1 {
		t.Errorf("« non » (two options) not refused once:\n%s", screen)
	}
}

// TestRefusedChoiceNotShownAgain: what a choice refuses is not written
// back: it may be a passphrase typed ahead of « Garder cette passphrase
// telle quelle ? » (outside tester).
func TestRefusedChoiceNotShownAgain(t *testing.T) {
	p, done := plainPrompter(t, "Tr0ub4dor&3 cheval\n2\n")
	if i, err := p.Select("Garder cette passphrase telle quelle ?", []string{"Oui", "Non"}, 1, ""); err != nil || i != 1 {
		t.Fatalf("Select: %d %v", i, err)
	}
	screen := done()
	if strings.Contains(screen, "Tr0ub4dor") || !strings.Contains(screen, "✘ Réponse refusée ;") || !strings.Contains(screen, "→ Non\n") {
		t.Fatalf("the refused answer was written back, or not refused:\n%s", screen)
	}
}

// TestChoiceFilterTakesANumber: at a choice list, a number typed keeps
// its option alone, as with TERM=dumb; letters keep the options holding
// that start with them, accents and case aside, as TERM=dumb takes a
// word; what matches nothing hides them all (Enter then chooses none).
func TestChoiceFilterTakesANumber(t *testing.T) {
	yesNo := []string{"Oui", "Non, choisir un autre dossier"}
	account := []string{"Pas encore demandé", "Demandé, pas encore ouvert", "Le compte est ouvert"}
	for _, c := range []struct {
		options []string
		filter  string
		want    []bool
	}{
		{yesNo, "2", []bool{false, true}}, {yesNo, "1", []bool{true, false}}, {yesNo, "NON", []bool{false, true}},
		{yesNo, "9", []bool{false, false}}, {yesNo, "zz", []bool{false, false}}, {yesNo, "choisir", []bool{false, false}},
		{account, "demandé", []bool{false, true, false}}, {account, "demande", []bool{false, true, false}},
		{account, "ouvert", []bool{false, false, false}}, {account, "le c", []bool{false, false, true}},
		{account, " 2", []bool{false, true, false}}, {account, "2 ", []bool{false, true, false}},
	} {
		for i, o := range c.options {
			if got := keepsOne(c.filter, o, i); got != c.want[i] {
				t.Errorf("filter %q, option %q: %v", c.filter, o, got)
			}
		}
		// TERM=dumb takes the same word for the same option.
		if i, ok := optionNamed(c.filter, c.options); ok && !c.want[i] {
			t.Errorf("%q: TERM=dumb takes %q, which the filter hides", c.filter, c.options[i])
		}
	}
}
