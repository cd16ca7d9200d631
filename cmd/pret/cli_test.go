package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/termtext"
)

// TestDidYouMean: a mistyped command, help topic, shell or long flag is
// asked back in French, naming what was close; something close to
// nothing gets the plain hint. Never cobra's English.
func TestDidYouMean(t *testing.T) {
	testEnv(t)
	for _, tc := range []struct {
		args []string
		hint string
	}{
		{[]string{"valdier"}, "pret: conseil : vouliez-vous dire « valider » ?\n"},
		{[]string{"verifer"}, "pret: conseil : vouliez-vous dire « verifier » ?\n"},
		{[]string{"vérifier"}, "pret: conseil : vouliez-vous dire « verifier » ?\n"},
		{[]string{"help", "valdier"}, "pret: conseil : vouliez-vous dire « valider » ?\n"},
		{[]string{"completion", "bsh"}, "pret: conseil : vouliez-vous dire « bash », « fish » ou « zsh » ?\n"},
		{[]string{"valider", "--fromat", "json"}, "pret: conseil : vouliez-vous dire « --format » ?\n"},
		{[]string{"valider", "--form=json"}, "pret: conseil : vouliez-vous dire « --format » ?\n"},
		{[]string{"verifier", "--strcit"}, "pret: conseil : vouliez-vous dire « --strict » ?\n"},
		{[]string{"zzzzzz"}, "pret: conseil : « pret --help » liste les commandes\n"},
		{[]string{"valider", "--zzzzzz"}, "pret: conseil : « pret valider --help » liste les options\n"},
	} {
		r := pretIn(t, "", tc.args...)
		must(t, r, exitUsage, tc.args...)
		// valider adds, after its own hint, how to write a path starting with "-".
		if !strings.HasPrefix(r.stderr, "pret: erreur : ") || !strings.Contains(r.stderr, strings.TrimSuffix(tc.hint, "\n")) {
			t.Errorf("pret %v:\n%s\nwant the hint %q", tc.args, r.stderr, tc.hint)
		}
		if strings.Contains(r.stderr, "Did you mean") || strings.Contains(r.stderr, "unknown") {
			t.Errorf("pret %v: English:\n%s", tc.args, r.stderr)
		}
	}
}

// TestCompleteChoices: the shells' completion request (cobra's
// __complete command, what the scripts of pret completion run) offers
// the words --format and --statut take, narrowed to what is typed, and
// no file names.
func TestCompleteChoices(t *testing.T) {
	testEnv(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"valider", "--format", ""}, checklist.FileFormats},
		{[]string{"valider", "--format=s"}, []string{"sarif"}},
		{[]string{"verifier", "--format", "j"}, []string{"json", "junit"}},
		{[]string{"verifier", "--format", ""}, checklist.Formats},
		{[]string{"acces", "--statut", ""}, []string{"demande", "verifie"}},
	} {
		r := pretIn(t, "", append([]string{cobra.ShellCompRequestCmd}, tc.args...)...)
		must(t, r, 0, tc.args...)
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		last := lines[len(lines)-1]
		if got := lines[:len(lines)-1]; !slices.Equal(got, tc.want) {
			t.Errorf("completion of %v: %q, want %q", tc.args, got, tc.want)
		}
		// ":4" is ShellCompDirectiveNoFileComp: the shell offers no files.
		if last != ":4" {
			t.Errorf("completion of %v: directive %q, want :4", tc.args, last)
		}
	}
}

// bidiValue carries what must never reach a terminal as it is: a right
// to left override, an isolate and a zero-width character.
const bidiValue = "cl\u202eé\u2066x\u200by"

// TestConfigStringsEscaped: strings from the config file, the
// environment and paths, bidi controls in them, come out escaped in the
// ssh-config block, the warnings and the errors.
func TestConfigStringsEscaped(t *testing.T) {
	home := testEnv(t)
	write := func(name, text string) string { return put(t, home, name, text) }
	dir := filepath.Join(home, bidiValue)
	good := write("bon.yaml", "cle:\n  dossier: "+dir+"\n  nom: "+bidiValue+"\n"+bidiValue+": 1\n")
	for _, tc := range []struct {
		what string
		args []string
		code int
	}{
		{"ssh-config", []string{"--config", good, "ssh-config"}, 0},
		{"empreinte", []string{"--config", good, "empreinte"}, exitFailed},
		{"a bad value", []string{"--config", write("debut.yaml", "seance:\n  debut: \"09\u202e:30\"\n"), "verifier"}, exitUsage},
		{"a bad config path", []string{"--config", filepath.Join(home, bidiValue+".yaml"), "verifier"}, exitUsage},
		{"a flag", []string{"--cle-dossier", dir, "ssh-config"}, 0},
	} {
		r := pretIn(t, "", tc.args...)
		must(t, r, tc.code, tc.args...)
		terminalClean(t, tc.what+" (stdout)", r.stdout)
		terminalClean(t, tc.what+" (stderr)", r.stderr)
		if strings.ContainsAny(r.stdout+r.stderr, "\u200b") {
			t.Errorf("%s: a zero-width space reaches the terminal:\n%s%s", tc.what, r.stdout, r.stderr)
		}
	}
	t.Setenv("HOME", dir)
	r := pretIn(t, "", "--config", good, "ssh-config")
	must(t, r, 0, "ssh-config")
	terminalClean(t, "HOME (stdout)", r.stdout)
	if !strings.Contains(r.stdout, "IdentityFile ~/"+termtext.Escape(bidiValue)+"\n") {
		t.Errorf("the key below HOME is not ~/…, escaped alike:\n%s", r.stdout)
	}
}
