package onboarding

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys"
)

// hostile is what a configuration, the environment or a folder name may
// hold that must never reach a terminal raw: an escape sequence, a bell,
// the C1 CSI, and the bidi controls that reorder a line.
const hostile = "\x1b[2J\a\u009b\u202e\u2066\u200f\u061c"

// rawControl reports the first character of hostile found in s.
func rawControl(s string) (rune, bool) {
	for _, r := range hostile {
		if (r < 0x20 || r > 0x7e) && strings.ContainsRune(s, r) {
			return r, true
		}
	}
	return 0, false
}

// TestWizardEscapesWhatItDidNotWrite: a session title, a channel, a key
// folder and an acces.md folder holding controls and bidi marks: the
// whole wizard, its last screen ("Et maintenant") included, and
// `pret ssh-config`'s block show them escaped, never raw, on a first run
// (key created, account not requested: the screen says where to ask) and
// on a run that writes acces.md.
func TestWizardEscapesWhatItDidNotWrite(t *testing.T) {
	for _, requested := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "dossier"+hostile)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Skipf("this file system refuses the name: %v", err)
		}
		answers := []answer{{kind: "password", text: goodPass}, {kind: "password", text: goodPass}}
		if requested {
			answers = append(answers, answer{kind: "select", text: AnswerRequested}, answer{kind: "input", text: "12/10/2026"},
				answer{kind: "select", enter: true})
		} else {
			answers = append(answers, answer{kind: "select", text: AnswerNotYet}, answer{kind: "select", text: "Non"})
		}
		w, out, p := newWizard(t, dir, answers)
		w.Session.Title += hostile
		w.Session.Start += hostile
		w.Channel = "sur Moodle" + hostile
		w.Store.Dir = filepath.Join(dir, ".ssh"+hostile)
		w.Store.Comment = "seance"
		w.Home = dir
		if err := w.Run(); err != nil || len(p.answers) != 0 {
			t.Fatalf("Run: %v, unanswered %v\n%s", err, p.answers, out)
		}
		screen := out.String()
		if r, ok := rawControl(screen); ok {
			t.Fatalf("requested %v: %U raw on screen:\n%q", requested, r, screen)
		}
		for _, want := range []string{`\033[2J`, `\342\200\256`, "Et maintenant"} {
			if !strings.Contains(screen, want) {
				t.Errorf("requested %v: %q not on screen:\n%s", requested, want, screen)
			}
		}
		if requested && !strings.Contains(screen, `dossier\033[2J\007`) {
			t.Errorf("acces.md's path is not on the last screen:\n%s", screen)
		}
	}
	store := keys.Store{Files: safefile.KeyFiles{}, Dir: filepath.Join("/tmp", "clés"+hostile), Name: "id_ed25519_romeo"}
	for goos, s := range map[string]string{
		"linux":   NextSteps(Next{AccessFile: "/tmp/a" + hostile + "/acces.md", Channel: hostile, Store: store, GOOS: "linux", Today: testenv.Day(testenv.Today)}),
		"windows": NextSteps(Next{Store: store, GOOS: "windows", Channel: hostile}),
		"darwin":  NextSteps(Next{Store: store, GOOS: "darwin"}),
		"block":   SSHConfig(store.PrivatePath(), ""),
	} {
		if r, ok := rawControl(s); ok {
			t.Errorf("%s: %U raw:\n%q", goos, r, s)
		}
	}
}

// TestBlankChannelIsTheDefault: an organisers' channel of spaces is no
// channel: the screens say "par le canal indiqué par les organisateurs"
// (or, after « aux organisateurs », "par le canal qu'ils ont indiqué":
// never the organisers twice), never empty parentheses.
func TestBlankChannelIsTheDefault(t *testing.T) {
	store := keys.Store{Files: safefile.KeyFiles{}, Dir: "/home/kim/.ssh", Name: "id_ed25519_romeo"}
	for _, file := range []string{"", "/home/kim/acces.md"} {
		s := NextSteps(Next{AccessFile: file, Channel: "  \t", Store: store, GOOS: "linux", Today: testenv.Day(testenv.Today)})
		twice := slices.ContainsFunc(strings.Split(s, "\n"), func(l string) bool { return strings.Count(l, "organisateurs") > 1 })
		if !strings.Contains(s, "par le canal") || twice || strings.Contains(s, "( ") || strings.Contains(s, "()") {
			t.Errorf("%q:\n%s", file, s)
		}
	}
	var out strings.Builder
	p := &fakePrompter{t: t, answers: []answer{{kind: "select", text: AnswerNotYet}, {kind: "select", text: "Non"}}}
	if _, err := (Account{P: p, Out: &out, State: &State{}, Channel: " ", Today: testenv.Day(testenv.Today)}).Ask(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Demandez le compte d'accès par le canal indiqué par les organisateurs") {
		t.Errorf("account question:\n%s", &out)
	}
}
