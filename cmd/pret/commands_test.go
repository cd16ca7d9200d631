package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/adrg/xdg"
	"github.com/spf13/pflag"

	"github.com/romeo-pret/pret/onboarding"
)

// This file runs the commands inside the test process: the cobra root
// with arguments, fake streams, and a fake terminal when a test says so.

const testPass = "une passphrase solide"

// enterPrompter answers every question the way a person pressing Enter
// would (the offered default), and gives testPass to passphrase questions.
type enterPrompter struct {
	asked []string
	// picks overrides Enter for the choices named (message -> option).
	picks map[string]int
}

func (p *enterPrompter) Password(message, help string) (string, error) {
	p.asked = append(p.asked, message)
	return testPass, nil
}

func (p *enterPrompter) Select(message string, options []string, def int, help string) (int, error) {
	p.asked = append(p.asked, message)
	if i, ok := p.picks[message]; ok {
		return i, nil
	}
	return def, nil
}

func (p *enterPrompter) Input(message, def, help string) (string, error) {
	p.asked = append(p.asked, message)
	return def, nil
}

// testEnv gives the in-process commands a home of their own: HOME, XDG
// folders and the day, as the testscripts have them. The current folder
// is the home.
func testEnv(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	setenv(t.Setenv, home)
	t.Setenv("NO_COLOR", "1")
	for _, k := range configKeys {
		os.Unsetenv(envOf(k.key))
	}
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	t.Chdir(home)
	return home
}

type result struct {
	stdout, stderr string
	code           int
}

// fakeStreams is stdin, stdout and stderr in memory; tty makes pret
// believe both ends are a terminal, with p asking the questions.
func fakeStreams(stdin string, tty bool, p onboarding.Prompter) (*iostreams, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	ios := &iostreams{In: strings.NewReader(stdin), Out: &out, Err: &errb, inTTY: tty, outTTY: tty, noColor: true}
	if p != nil {
		ios.prompter = func() onboarding.Prompter { return p }
	}
	return ios, &out, &errb
}

// pretIn runs one command line in process, without a terminal.
func pretIn(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	ios, out, errb := fakeStreams(stdin, false, nil)
	code := run(context.Background(), args, ios)
	return result{out.String(), errb.String(), code}
}

// pretTTY runs one command line in process on a fake terminal.
func pretTTY(t *testing.T, p onboarding.Prompter, args ...string) result {
	t.Helper()
	ios, out, errb := fakeStreams("", true, p)
	code := run(context.Background(), args, ios)
	return result{out.String(), errb.String(), code}
}

func must(t *testing.T, r result, code int, args ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("pret %v: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", args, r.code, code, r.stdout, r.stderr)
	}
}

// says fails the test unless pret exited with code and its standard
// error holds each of msgs.
func says(t *testing.T, r result, code int, msgs ...string) {
	t.Helper()
	ok := r.code == code
	for _, m := range msgs {
		ok = ok && strings.Contains(r.stderr, m)
	}
	if !ok {
		t.Errorf("exit %d, want %d and %q\nstdout:\n%s\nstderr:\n%s", r.code, code, msgs, r.stdout, r.stderr)
	}
}

// inProcessLines are command lines run in process, each in a fresh home
// (with the shared key where key is set): the exit code, and what
// standard output holds on success, standard error otherwise.
var inProcessLines = []struct {
	key  bool
	args []string
	code int
	says string
}{
	{false, nil, exitUsage, "l'assistant a besoin d'un terminal"},
	{false, []string{"assistant"}, exitUsage, "pret: erreur : "},
	{false, []string{"cle"}, exitUsage, "pret: conseil : "},
	{false, []string{"empreinte"}, exitFailed, "pret: conseil : créez-la avec « pret cle »"},
	{true, []string{"empreinte"}, exitOK, "seance-novembre (ED25519)\n"},
	{false, []string{"empreinte", "a", "b"}, exitUsage, "pret: erreur : "},
	{false, []string{"acces", "--statut", "demande"}, exitFailed, "pret cle"},
	{true, []string{"acces"}, exitUsage, "--statut"},
	{true, []string{"acces", "--statut", "demande", "--date", "2026-10-19"}, exitOK, "Demande du compte d'accès notée : 2026-10-19"},
	{false, []string{"verifier", "--format", "json"}, exitFailed, ""},
	{false, []string{"valider", "absent"}, exitUsage, "introuvable : absent"},
	{false, []string{"livrables", "--format", "json"}, exitFailed, ""},
	{false, []string{"livrables", "absent"}, exitUsage, "absent"},
	{false, []string{"modele"}, exitUsage, "pret: erreur : "},
	{false, []string{"sunk"}, exitUsage, "--valeurs et --politique sont obligatoires"},
	{false, []string{"version"}, exitOK, "pret "},
	{false, []string{"ssh-config"}, exitOK, "    HostName " + onboarding.HostPlaceholder + "\n"},
	{false, []string{"completion"}, exitUsage, "pret: erreur : "},
	{false, []string{"completion", "tcsh"}, exitUsage, "pret: erreur : "},
	{false, []string{"completion", "bash"}, exitOK, "__start_pret"},
	{false, []string{"completion", "zsh"}, exitOK, "#compdef pret"},
	{false, []string{"completion", "fish"}, exitOK, "complete -c pret"},
	{false, []string{"completion", "powershell"}, exitOK, "Register-ArgumentCompleter"},
	{false, []string{"__complete", "val"}, exitOK, "valider\tOrganisateurs : valider des fichiers acces.md"},
	{false, []string{"help"}, exitOK, "Codes de sortie"},
	{false, []string{"help", "cle"}, exitOK, "pret cle [--passphrase-file FICHIER]"},
	{false, []string{"help", "inconnue"}, exitUsage, "pret: erreur : "},
	{false, []string{"man"}, exitUsage, "pret: erreur : "},
}

// TestCommandLinesInProcess runs inProcessLines.
func TestCommandLinesInProcess(t *testing.T) {
	for _, l := range inProcessLines {
		home := testEnv(t)
		if l.key {
			putKey(t, home)
		}
		r := pretIn(t, "", l.args...)
		must(t, r, l.code, l.args...)
		if out := map[bool]string{true: r.stdout, false: r.stderr}[l.code == exitOK]; !strings.Contains(out, l.says) {
			t.Errorf("pret %q: no %q in\n%s", l.args, l.says, out)
		}
	}
}

// inProcessCases are the runs of more than one line, each a test of its
// own; TestEveryCommandInProcess checks that a new command gets one here
// or a line in inProcessLines.
var inProcessCases = map[string]func(t *testing.T){
	"assistant": func(t *testing.T) {
		home := testEnv(t)
		// Enter everywhere, but "yes" to "is the request made?": its
		// honest default is no, which writes no acces.md.
		p := &enterPrompter{picks: map[string]int{"La demande est-elle faite ?": 0}}
		r := pretTTY(t, p, "assistant")
		must(t, r, exitOK, "assistant")
		if len(p.asked) == 0 {
			t.Fatal("the wizard asked nothing on a terminal")
		}
		if !regexp.MustCompile(`256 SHA256:[A-Za-z0-9+/]{43} seance-novembre \(ED25519\)`).MatchString(r.stdout) {
			t.Fatalf("no fingerprint line:\n%s", r.stdout)
		}
		for _, f := range []string{".ssh/id_ed25519_romeo", ".ssh/id_ed25519_romeo.pub", "acces.md"} {
			if _, err := os.Stat(filepath.Join(home, f)); err != nil {
				t.Errorf("after the wizard: %v", err)
			}
		}
		must(t, pretIn(t, "", "valider", "acces.md", "--strict"), exitOK, "valider")
	},
	"cle": func(t *testing.T) {
		putKey(t, testEnv(t))
		// On a terminal, an existing key is kept and nothing is asked.
		p := &enterPrompter{}
		r := pretTTY(t, p, "cle")
		must(t, r, exitOK, "cle")
		if len(p.asked) != 0 || !strings.Contains(r.stdout, "Clé existante conservée") {
			t.Fatalf("asked %v\n%s", p.asked, r.stdout)
		}
	},
	"cle on a terminal": func(t *testing.T) {
		home := testEnv(t)
		p := &enterPrompter{}
		must(t, pretTTY(t, p, "cle"), exitOK, "cle")
		if len(p.asked) != 2 {
			t.Fatalf("passphrase questions: %v", p.asked)
		}
		if _, err := os.Stat(filepath.Join(home, ".ssh", "id_ed25519_romeo")); err != nil {
			t.Fatal(err)
		}
	},
	"acces": func(t *testing.T) {
		home := testEnv(t)
		putKey(t, home)
		// On a terminal, the status is asked instead of required.
		p := &enterPrompter{}
		must(t, pretTTY(t, p, "acces", "--force"), exitOK, "acces")
		if len(p.asked) == 0 {
			t.Fatal("the status was not asked on a terminal")
		}
	},
	"valider": func(t *testing.T) {
		home := testEnv(t)
		os.WriteFile(filepath.Join(home, "acces.md"), []byte("rien\n"), 0o644)
		must(t, pretIn(t, "", "valider"), exitFailed, "valider")
	},
	"modele": func(t *testing.T) {
		home := testEnv(t)
		must(t, pretIn(t, "", "modele", "sommeil.sbatch"), exitOK, "modele")
		if _, err := os.Stat(filepath.Join(home, "sommeil.sbatch")); err != nil {
			t.Fatal(err)
		}
		must(t, pretIn(t, "", "modele", "sommeil.sbatch"), exitFailed, "modele again")
	},
	"completion": func(t *testing.T) {
		testEnv(t)
		// What the shells ask at Tab: the French description comes along.
		r := pretIn(t, "", "__complete", "val")
		if r.stderr != "" {
			t.Fatalf("completion of val:\n%s", r.stderr)
		}
		r = pretIn(t, "", "__complete", "verifier", "--for")
		if !strings.Contains(r.stdout, "--format\tFORMAT de sortie") || strings.Contains(r.stdout, "`") {
			t.Fatalf("completion of --for:\n%s", r.stdout)
		}
	},
	"help": func(t *testing.T) {
		testEnv(t)
		r := pretIn(t, "", "help")
		must(t, r, exitOK, "help")
		if !strings.Contains(r.stdout, "Commandes :") {
			t.Fatalf("help:\n%s", r.stdout)
		}
		r = pretIn(t, "", "--version")
		must(t, r, exitOK, "--version")
		if v := pretIn(t, "", "version"); r.stdout != v.stdout || !strings.HasPrefix(r.stdout, "pret ") {
			t.Fatalf("--version %q, version %q", r.stdout, v.stdout)
		}
	},
	"man": func(t *testing.T) {
		testEnv(t)
		dir := t.TempDir()
		t.Setenv("SOURCE_DATE_EPOCH", "1793836800") // 2026-11-05
		r := pretIn(t, "", "man", dir)
		must(t, r, exitOK, "man")
		for _, name := range []string{"pret.1", "pret-cle.1", "pret-valider.1", "pret-completion-bash.1"} {
			page := readFile(t, filepath.Join(dir, name))
			for _, want := range []string{".SH NOM\n", `"novembre 2026"`} {
				if !strings.Contains(string(page), want) {
					t.Errorf("%s: no %q", name, want)
				}
			}
			for _, english := range []string{".SH NAME", ".SH EXAMPLE", ".SH SEE ALSO", "INHERITED", "Auto generated"} {
				if strings.Contains(string(page), english) {
					t.Errorf("%s: English %q", name, english)
				}
			}
		}
	},
}

func TestCommandsInProcess(t *testing.T) {
	notShort(t)
	for name, f := range inProcessCases {
		t.Run(name, f)
	}
}

// TestEveryCommandInProcess: every command of the tree, hidden ones
// included, has its case in inProcessCases or a line in inProcessLines.
func TestEveryCommandInProcess(t *testing.T) {
	root, all := pretCommands(t)
	tested := map[string]bool{}
	for name := range inProcessCases {
		tested["pret "+name] = true
	}
	for _, l := range inProcessLines {
		if c, _, err := root.Find(l.args); err == nil {
			tested[c.CommandPath()] = true
		}
	}
	for _, c := range all {
		if !tested[c.CommandPath()] && c.Runnable() {
			t.Errorf("command %q has no in-process test", c.CommandPath())
		}
	}
}

// englishWords must never reach a person (issue 12).
var englishWords = regexp.MustCompile(`(?i)\b(invalid|flags?|unknown|parsing|syntax|argument|requires)\b`)

// refusedValue is a value the flag refuses while the command line is
// read: one pret's own flag types refuse; pflag's built-in ones are listed.
func refusedValue(t *testing.T, f *pflag.Flag) string {
	switch v := f.Value.(type) {
	case *choiceValue:
		return "zzz"
	case *checkedValue:
		for _, s := range []string{"31/11/2026", "", "rouge\x1b[31m"} {
			if v.check(s) != nil {
				return s
			}
		}
	}
	switch f.Value.Type() {
	case "bool":
		return "peut-être"
	case "int", "int64", "uint":
		return "douze"
	case "duration":
		return "longtemps"
	}
	t.Fatalf("--%s: type %s has no refused value; give it a typed value (flags.go)", f.Name, f.Value.Type())
	return ""
}

// TestEveryCommandLineErrorIsFrench walks every command, found through
// cobra: its help is French (exit 0); five stray values, an unknown flag,
// every flag with a refused value and with its value missing are each a
// usage error: exit 2, a French error (and hint, for a flag), no English
// word.
func TestEveryCommandLineErrorIsFrench(t *testing.T) {
	testEnv(t)
	_, all := pretCommands(t)
	runs := 0
	check := func(code int, hint string, args ...string) {
		t.Helper()
		runs++
		r := pretIn(t, "", args...)
		out := r.stdout + r.stderr
		if code == exitOK && (r.code != exitOK || !strings.Contains(r.stdout, "Utilisation :") || r.stderr != "") {
			t.Errorf("pret %q: exit %d, want 0 and the help\n%s", args, r.code, out)
		}
		if code == exitUsage && (r.code != exitUsage || !strings.HasPrefix(r.stderr, "pret: erreur : ") || !strings.Contains(r.stderr, hint)) {
			t.Errorf("pret %q: exit %d, want 2 with erreur and %q\n%s", args, r.code, hint, out)
		}
		if w := englishWords.FindString(out); w != "" {
			t.Errorf("pret %q: English word %q:\n%s", args, w, out)
		}
	}
	for _, cmd := range all {
		path := strings.Fields(cmd.CommandPath())[1:]
		with := func(args ...string) []string { return append(slices.Clone(path), args...) }
		check(exitOK, "", with("--help")...)
		check(exitUsage, "", with("zz1", "zz2", "zz3", "zz4", "zz5")...)
		const hint = "\npret: conseil : "
		check(exitUsage, hint, with("--inexistante")...)
		check(exitUsage, hint, with("-Z")...)
		cmd.InheritedFlags() // merges the persistent flags of the parents into Flags()
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			bad := refusedValue(t, f)
			if f.NoOptDefVal != "" {
				// A bool flag alone is complete; its value comes after "=".
				check(exitUsage, hint, with("--"+f.Name+"="+bad)...)
				return
			}
			check(exitUsage, hint, with("--"+f.Name, bad)...)
			check(exitUsage, hint, with("--"+f.Name)...)
		})
	}
	if runs < 100 {
		t.Fatalf("only %d command lines tried: the walk found too few flags", runs)
	}
}
