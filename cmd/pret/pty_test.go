//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	expect "github.com/Netflix/go-expect"
	"github.com/creack/pty"
	"github.com/hinshun/vt10x"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/onboarding"
	"golang.org/x/sys/unix"
)

// session is pret running on a pseudo-terminal that a vt10x screen reads,
// answering survey's cursor position queries the way a real terminal does.
type session struct {
	t      *testing.T
	c      *expect.Console
	cmd    *exec.Cmd
	raw    *bytes.Buffer
	screen vt10x.Terminal
	done   chan error
}

type lockedBuffer struct {
	mu sync.Mutex
	bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.Buffer.Write(p)
}

func startPTY(t *testing.T, home string, args ...string) *session {
	t.Helper()
	return startPTYWith(t, home, ptyOptions{}, args...)
}

// ptyOptions vary the terminal: its width, and environment entries added
// to (or overriding) the defaults.
type ptyOptions struct {
	cols       int
	env        []string
	typedAhead string // in the terminal before pret starts
}

func startPTYWith(t *testing.T, home string, o ptyOptions, args ...string) *session {
	t.Helper()
	if o.cols == 0 {
		o.cols = 120
	}
	// The second pty carries the virtual screen's answers back to pret's
	// input, as survey's own tests do.
	answersM, answersS, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	screen := vt10x.New(vt10x.WithWriter(answersS), vt10x.WithSize(o.cols, 40))
	raw := &lockedBuffer{}
	c, err := expect.NewConsole(
		expect.WithStdin(answersM),
		expect.WithStdout(screen, raw),
		expect.WithCloser(answersM, answersS),
		expect.WithDefaultTimeout(30*time.Second),
	)
	if err != nil {
		t.Fatal(err)
	}
	pty.Setsize(c.Tty(), &pty.Winsize{Rows: 40, Cols: uint16(o.cols)})
	cmd := exec.Command(binary(t), args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Tty(), c.Tty(), c.Tty()
	cmd.Env = append(environ(home),
		"PATH=/usr/bin:/bin",
		"TERM=xterm-256color",
	)
	// Later entries win: exec keeps the last value of a repeated name.
	cmd.Env = append(cmd.Env, o.env...)
	cmd.Dir = home
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if _, err := c.Send(o.typedAhead); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, c: c, cmd: cmd, raw: &raw.Buffer, screen: screen, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		c.Close()
	})
	_ = raw
	return s
}

func (s *session) expect(text string) {
	s.t.Helper()
	if out, err := s.c.ExpectString(text); err != nil {
		s.t.Fatalf("waiting for %q: %v\nscreen so far:\n%s", text, err, out)
	}
}

func (s *session) send(text string) {
	s.t.Helper()
	if _, err := s.c.Send(text); err != nil {
		s.t.Fatal(err)
	}
}

// answer waits for each question and types its answer: the arguments
// are pairs of a question and what is typed.
func (s *session) answer(dialog ...string) {
	s.t.Helper()
	for i := 0; i+1 < len(dialog); i += 2 {
		s.expect(dialog[i])
		s.send(dialog[i+1])
	}
}

// exit waits for pret to end with the exit code want.
func (s *session) exit(want int) {
	s.t.Helper()
	if code := s.wait(); code != want {
		s.t.Fatalf("exit %d, want %d\n%s", code, want, s.raw.String())
	}
}

// wait returns the exit code once pret has ended.
func (s *session) wait() int {
	s.t.Helper()
	go s.c.ExpectEOF() // keep draining the output
	select {
	case err := <-s.done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			s.t.Fatal(err)
		}
		return 0
	case <-time.After(60 * time.Second):
		s.t.Fatal("pret did not end")
	}
	return -1
}

// echoOn reads the terminal settings pret leaves behind.
func (s *session) echoOn() bool {
	tio, err := unix.IoctlGetTermios(int(s.c.Tty().Fd()), ioctlGetTermios)
	if err != nil {
		s.t.Fatal(err)
	}
	return tio.Lflag&unix.ECHO != 0 && tio.Lflag&unix.ICANON != 0
}

const ptyPass = "passphrase du terminal"

// TestWizardInRealTerminal is a learner's first run, then a second one.
func TestWizardInRealTerminal(t *testing.T) {
	t.Parallel()
	notShort(t)
	keygen := testenv.NeedTool(t, "ssh-keygen")
	home := t.TempDir()

	s := startPTY(t, home)
	s.expect("Il reste 16 jours")
	s.answer("Choisissez une passphrase pour la clé", "\r")
	s.expect("Passphrase refusée : la passphrase est vide")
	s.newKey() // asked again
	s.expect("Clé créée")
	s.expect("Où en est votre compte d'accès ?")
	s.answer("flèches pour choisir", "\x1b[B\r") // down: "Demandé, pas encore ouvert"
	s.expect("Date de la demande du compte")
	s.answer("(2026-10-20)", "\r")
	s.expect("Date comprise : mardi 20 octobre 2026")
	s.expect("acces.md sera écrit ici : " + filepath.Join(home, "acces.md"))
	s.answer("Écrire acces.md à cet endroit ?", "\r")
	s.expect("acces.md écrit")
	s.answer("Signer acces.md ? Cela prouve aux organisateurs", "\r") // the default: "Oui"
	s.answer("Passphrase de la clé", ptyPass+"\r")
	s.expect("signé avec la clé")
	s.expect("Résumé")
	s.expect("Et maintenant")
	s.expect("ssh-add ~/.ssh/id_ed25519_romeo")
	s.expect("HostName NOEUD-DE-LOGIN")
	s.exit(0)
	screen := s.raw.String()
	if strings.Contains(screen, ptyPass) {
		t.Fatal("the passphrase appeared on the screen")
	}
	for _, english := range []string{"Sorry", "for help", "Use arrows", "invalid"} {
		if strings.Contains(screen, english) {
			t.Errorf("English on screen: %q", english)
		}
	}

	key := filepath.Join(home, ".ssh", "id_ed25519_romeo")
	if out, err := exec.Command(keygen, "-y", "-P", ptyPass, "-f", key).CombinedOutput(); err != nil || !bytes.HasPrefix(out, []byte("ssh-ed25519 ")) {
		t.Fatalf("ssh-keygen -y: %v %s", err, out)
	}
	written := readFile(t, filepath.Join(home, "acces.md"))
	day := testenv.Day(testenv.Today)
	res := acces.Validate(written, acces.Rules{KeyName: "id_ed25519_romeo.pub", SessionDay: day.AddDate(0, 0, 16), Today: day})
	if len(res.Problems) > 0 {
		t.Fatalf("acces.md: %+v\n%s", res.Problems, written)
	}
	fpLine, _ := exec.Command(keygen, "-lf", key+".pub").Output()
	if !bytes.Contains(written, bytes.TrimSpace(fpLine)) || !bytes.Contains(written, []byte(key+".pub")) {
		t.Fatalf("acces.md does not hold this key's line and path:\n%s", written)
	}
	keyBefore, _ := os.ReadFile(key)

	statePath := stateFile(home)
	stateBefore, _ := os.ReadFile(statePath)

	// Second run, a week later: the recorded request is shown and is the
	// default, with its date, not today's; Enter, Enter, Enter keeps it all.
	later := ptyOptions{env: []string{"PRET_AUJOURDHUI=2026-10-27"}}
	s = startPTYWith(t, home, later)
	s.expect("Clé existante conservée")
	s.expect("Demande du compte notée le 20 octobre 2026.")
	s.expect("Où en est votre compte d'accès ?")
	s.answer("Demandé, pas encore ouvert", "\r")
	s.expect("Date de la demande du compte")
	s.answer("(2026-10-20)", "\r")
	s.expect("Date comprise : mardi 20 octobre 2026")
	s.answer("Écrire acces.md à cet endroit ?", "\r")
	s.expect("est déjà à jour")
	s.expect("est signé par votre clé") // Enter kept the signed file
	s.expect("Il reste 9 jours")
	s.exit(0)
	if strings.Contains(s.raw.String(), "passphrase pour la clé") {
		t.Fatal("the passphrase was asked for a kept key")
	}
	if strings.Contains(s.raw.String(), "Pas encore demandé") {
		t.Fatal(`"not yet" offered with a request on record`)
	}
	if after, _ := os.ReadFile(filepath.Join(home, "acces.md")); !bytes.Equal(after, written) {
		t.Fatal("acces.md changed on Enter")
	}
	if after, _ := os.ReadFile(statePath); !bytes.Equal(after, stateBefore) {
		t.Fatalf("the state changed on Enter:\n%s", after)
	}
	if after, _ := os.ReadFile(key); !bytes.Equal(after, keyBefore) {
		t.Fatal("the key changed")
	}

	// Third run: "Le compte est ouvert" adds a verifie record beside the
	// request, after a diff and a yes; acces.md states the check date.
	s = startPTYWith(t, home, later)
	s.answer("Où en est votre compte d'accès ?", "\x1b[B\r") // down: "Le compte est ouvert"
	s.expect("Date de la vérification du compte")
	s.answer("(2026-10-27)", "\r")
	s.answer("Écrire acces.md à cet endroit ?", "\r")
	s.expect("Les changements :")
	s.expect("-- Date de la demande du compte d'accès : 2026-10-20")
	s.expect("+- Date de la vérification du compte d'accès : 2026-10-27")
	s.expect("-----BEGIN SSH SIGNATURE-----")
	s.expect("ce fichier est signé ; le remplacer lui retire sa signature")
	s.answer("remplacer", "\x1b[A\r") // up: "Oui"
	s.expect("acces.md écrit")
	s.answer("Signer acces.md ?", "\x1b[B\r") // down: "Non"
	s.exit(0)
	now, _ := os.ReadFile(filepath.Join(home, "acces.md"))
	if !bytes.Contains(now, []byte("Date de la vérification du compte d'accès : 2026-10-27")) {
		t.Fatalf("acces.md does not state the check:\n%s", now)
	}
	state, _ := os.ReadFile(statePath)
	if !keepsRecords(t, stateBefore, state) || !bytes.Contains(state, []byte("statut: demande")) ||
		!bytes.Contains(state, []byte("statut: verifie")) || !bytes.Contains(state, []byte(`date: "2026-10-27"`)) {
		t.Fatalf("the state does not hold both records:\n%s", state)
	}

	// Fourth run, acces.md edited by hand: the change is shown as a diff,
	// and "Non" (the default) keeps the file byte for byte.
	edited := append(append([]byte(nil), now...), []byte("Note ajoutée à la main\r\n")...)
	os.WriteFile(filepath.Join(home, "acces.md"), edited, 0o644)
	stateBefore = state
	s = startPTYWith(t, home, later)
	s.expect("Compte vérifié ouvert le 27 octobre 2026")
	s.answer("Où en est votre compte d'accès ?", "\r")
	s.answer("(2026-10-27)", "\r")
	s.answer("Écrire acces.md à cet endroit ?", "\r")
	s.expect(`-Note ajoutée à la main\r`)
	s.answer("remplacer", "\r") // the default: "Non"
	s.expect("conservé tel quel")
	s.answer("Signer acces.md ?", "\x1b[B\r") // down: "Non"
	s.wait()
	if after, _ := os.ReadFile(filepath.Join(home, "acces.md")); !bytes.Equal(after, edited) {
		t.Fatal("acces.md changed after a no")
	}
	if after, _ := os.ReadFile(statePath); !bytes.Equal(after, stateBefore) {
		t.Fatal("the state changed after a no")
	}
}

// TestWizardInterrupted: Ctrl-C, then SIGTERM, at each question: exit 130
// or 143, the terminal echoes again, and no file is left half-written.
func TestWizardInterrupted(t *testing.T) {
	t.Parallel()
	notShort(t)
	// Each step answers the questions before its own, then is interrupted.
	steps := []struct{ name, question, answer string }{
		{"passphrase", "Choisissez une passphrase", ptyPass + "\r"},
		{"second passphrase", "Saisissez-la une seconde fois", ptyPass + "\r"},
		{"account", "Où en est votre compte d'accès ?", "\x1b[B\r"},
		{"date", "Date de la demande du compte", ""},
	}
	for i, step := range steps {
		for _, how := range []string{"ctrl-c", "ctrl-d", "sigterm"} {
			t.Run(step.name+"/"+how, func(t *testing.T) {
				home := t.TempDir()
				s := startPTY(t, home)
				for _, before := range steps[:i] {
					s.answer(before.question, before.answer)
				}
				s.expect(step.question)
				want := 130
				switch how {
				case "ctrl-c":
					s.send("\x03")
				case "ctrl-d": // survey took it for Enter: today's date noted (outside tester)
					s.send("\x04")
				default:
					time.Sleep(100 * time.Millisecond)
					s.cmd.Process.Signal(syscall.SIGTERM)
					want = 143
				}
				s.exit(want)
				if !s.echoOn() {
					t.Fatal("terminal left without echo")
				}
				// A choice list hides the cursor: shown again, on a signal too.
				// What pret wrote last may reach the screen's copy after it exits.
				hidden := func() bool {
					raw := s.raw.String()
					return strings.LastIndex(raw, "\x1b[?25l") > strings.LastIndex(raw, "\x1b[?25h")
				}
				for wait := 0; hidden() && wait < 50; wait++ {
					time.Sleep(20 * time.Millisecond)
				}
				if hidden() {
					t.Fatal("cursor left hidden")
				}
				if _, err := os.Stat(filepath.Join(home, "acces.md")); err == nil {
					t.Fatal("acces.md written")
				}
				if state, _ := os.ReadFile(stateFile(home)); strings.Contains(string(state), "date") {
					t.Fatalf("a date noted:\n%s", state)
				}
				noTempFiles(t, filepath.Join(home, ".ssh"))
				// Whatever exists is whole: a key that ssh-keygen opens.
				key := filepath.Join(home, ".ssh", "id_ed25519_romeo")
				if _, err := os.Stat(key); err == nil {
					if out, err := exec.Command("ssh-keygen", "-y", "-P", ptyPass, "-f", key).CombinedOutput(); err != nil {
						t.Fatalf("partial key: %v %s", err, out)
					}
				}
				if strings.Contains(s.raw.String(), ptyPass) {
					t.Fatal("the passphrase appeared on the screen")
				}
			})
		}
	}
}

// TestCleInRealTerminal: pret cle asks twice without echo, explains a
// refusal, and Ctrl-C leaves no file and a working terminal.
func TestCleInRealTerminal(t *testing.T) {
	t.Parallel()
	notShort(t)
	keygen := testenv.NeedTool(t, "ssh-keygen")
	home := t.TempDir()
	s := startPTY(t, home, "cle")
	s.answer("Choisissez une passphrase", "court\r")
	s.expect("trop courte")
	s.answer("Choisissez une passphrase", ptyPass+"\r")
	s.answer("Saisissez-la une seconde fois", ptyPass+"\r")
	s.expect("seance-novembre (ED25519)")
	s.exit(0)
	if strings.Contains(s.raw.String(), ptyPass) {
		t.Fatal("the passphrase appeared on the screen")
	}
	key := filepath.Join(home, ".ssh", "id_ed25519_romeo")
	if out, err := exec.Command(keygen, "-y", "-P", ptyPass, "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}

	home = t.TempDir()
	s = startPTY(t, home, "cle")
	s.answer("Choisissez une passphrase", "\x03")
	s.exit(130)
	if !s.echoOn() {
		t.Fatal("terminal left without echo")
	}
	if entries, _ := os.ReadDir(filepath.Join(home, ".ssh")); len(entries) != 0 {
		t.Fatalf("files left: %v", entries)
	}
}

// cursorMove matches the escapes that move the cursor to another line or
// column (CSI A, B, E, F, G, H, f, and ESC 7 / ESC 8) or erase a line.
var cursorMove = regexp.MustCompile(`\x1b\[[0-9;?]*[ABEFGHfK]|\x1b[78]`)

// TestWizardNarrowTerminal: on a 40-column terminal, the wizard's
// questions and their key hints, its own lines, its checklist and its
// last screen wrap between words: no line the program draws is wider
// than the terminal, so the terminal never cuts a word in two.
func TestWizardNarrowTerminal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	homeAt(t, home).must(0, ptyPass+"\n", "cle", "--passphrase-file", "-")
	s := startPTYWith(t, home, ptyOptions{cols: 40})
	s.requested("") // Enter: today
	s.answer("Écrire acces.md à cet endroit ?", "\r")
	s.answer("Signer acces.md ?", "\x1b[B\r") // down: "Non"
	s.expect("Résumé")
	s.expect("Il reste 16 jours avant la séance")
	s.exit(0)
	raw := strings.ReplaceAll(s.raw.String(), "\r", "")
	start := strings.Index(raw, "4. La liste de contrôle")
	if start < 0 {
		t.Fatalf("no checklist:\n%s", raw)
	}
	// Every line drawn, the questions and survey's hints included (each
	// redraw of a question is its lines again), fits in 40 columns, but a
	// line holding one word wider than that (a path, a fingerprint),
	// whole.
	// survey redraws with cursor moves: each move starts a line anew.
	drawn := cursorMove.ReplaceAllString(raw, "\n")
	checked := checkFits(t, "", drawn, 40)
	// The words are all there: the checklist's ids and the last screen.
	for _, w := range []string{"key-present", "acces-valid", "acces-matches-key", "ssh-add", "NOEUD-DE-LOGIN", "IdentitiesOnly"} {
		if !strings.Contains(raw[start:], w) {
			t.Errorf("%q missing on 40 columns", w)
		}
	}
	if checked < 20 {
		t.Fatalf("only %d lines checked", checked)
	}
}

// TestAccesInRealTerminal: `pret acces` without --statut asks the wizard's
// own question from the state: a recorded request is shown and is the
// default with its date; Enter keeps everything; "Le compte est ouvert"
// then shows the diff before replacing.
func TestAccesInRealTerminal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	requestedHome(t, home)
	before, _ := os.ReadFile(filepath.Join(home, "acces.md"))
	statePath := stateFile(home)
	stateBefore, _ := os.ReadFile(statePath)

	s := startPTY(t, home, "acces")
	s.expect("Demande du compte notée le 12 octobre 2026.")
	s.answer("Où en est votre compte d'accès ?", "\r")
	s.answer("(2026-10-12)", "\r")
	s.expect("déjà à jour")
	s.exit(0)
	after, _ := os.ReadFile(filepath.Join(home, "acces.md"))
	stateAfter, _ := os.ReadFile(statePath)
	if !bytes.Equal(after, before) || !bytes.Equal(stateAfter, stateBefore) {
		t.Fatal("Enter changed acces.md or the state")
	}

	s = startPTY(t, home, "acces")
	s.answer("Où en est votre compte d'accès ?", "\x1b[B\r") // down: "Le compte est ouvert"
	s.answer("(2026-10-20)", "19 octobre 2026\r")
	s.expect("Date comprise : lundi 19 octobre 2026")
	s.expect("+- Date de la vérification du compte d'accès : 2026-10-19")
	s.answer("remplacer", "\x1b[A\r") // up: "Oui"
	s.expect("Vérification du compte d'accès notée : 2026-10-19")
	s.exit(0)
	state, _ := os.ReadFile(statePath)
	if !keepsRecords(t, stateBefore, state) || !bytes.Contains(state, []byte("statut: verifie")) {
		t.Fatalf("state:\n%s", state)
	}
}

// TestAccesDiffNarrowTerminal: on 40 columns, pret acces shows its diff
// wrapped: no line drawn is wider than the terminal but a line of one
// word (the path, whole), and a diff line too
// long for it continues with its marker and "↪ ", so a removed or added
// line still reads as one.
func TestAccesDiffNarrowTerminal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	requestedHome(t, home)
	s := startPTYWith(t, home, ptyOptions{cols: 40}, "acces")
	s.answer("Où en est votre compte d'accès ?", "\x1b[B\r") // down: "Le compte est ouvert"
	s.answer("(2026-10-20)", "19 octobre 2026\r")
	// Only "remplacer": the terminal may wrap the line anywhere around it.
	s.answer("remplacer", "\x1b[A\r") // up: "Oui"
	s.exit(0)
	drawn := cursorMove.ReplaceAllString(strings.ReplaceAll(s.raw.String(), "\r", ""), "\n")
	checkFits(t, "", drawn, 40)
	// The question starts on survey's "? " line, its path cut there.
	if !strings.Contains(drawn, "? \x1b[0m\x1b[1;99m/tmp/") {
		t.Errorf("the question does not start after survey's \"? \":\n%s", drawn)
	}
	// The added line, longer than 40 columns, in two marked parts.
	if !strings.Contains(drawn, "+- Date de la vérification du compte\n+↪ d'accès : 2026-10-19") {
		t.Errorf("the wrapped added line lost its marker:\n%s", drawn)
	}
}

// keepsRecords reports whether the state after holds every record of the
// state before, first and unchanged.
func keepsRecords(t *testing.T, before, after []byte) bool {
	t.Helper()
	dir := t.TempDir()
	read := func(name string, data []byte) *onboarding.State {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o600)
		st, err := onboarding.LoadState(p)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	b, a := read("avant", before), read("apres", after)
	if len(a.Access) < len(b.Access) {
		return false
	}
	for i, r := range b.Access {
		if a.Access[i].Status != r.Status || a.Access[i].Date != r.Date || a.Access[i].Recorded != r.Recorded {
			return false
		}
	}
	return true
}

// TestWizardLosesNoAnswerInRealTerminal: the built binary on a terminal,
// a first run then later ones. The folder question refuses ~/.ssh, a
// folder below it, a file, a folder that does not exist, a link to
// ~/.ssh, a folder where acces.md is a folder, and (Linux) /proc where
// the write fails, and asks again each time; the date typed before is
// the one written. Later, "Non" to replacing a hand-edited acces.md
// records the new date all the same and offers its date line alone:
// "Non" keeps the file byte for byte (pret verifier then warns), and the
// next run shows the recorded declaration, offers it by default, and
// "Oui" to the date line changes that line only.
func TestWizardLosesNoAnswerInRealTerminal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh", "sous"), 0o700)
	os.MkdirAll(filepath.Join(home, "envoi"), 0o755)
	os.WriteFile(filepath.Join(home, "notes.txt"), []byte("mes notes\n"), 0o644)
	os.MkdirAll(filepath.Join(home, "pris", "acces.md"), 0o755)
	os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(home, "lien"))
	statePath := stateFile(home)
	file := filepath.Join(home, "envoi", "acces.md")

	s := startPTY(t, home)
	s.newKey()
	s.requested("12/10/2026")
	s.expect("Date comprise : lundi 12 octobre 2026")
	s.answer("Écrire acces.md à cet endroit ?", "\x1b[B\r") // down: "Non, choisir un autre dossier"
	for _, refused := range []struct{ typed, said string }{
		{"~/.ssh", filepath.Join(home, ".ssh") + " : c'est le dossier de la clé SSH"},
		{"~/.ssh/sous", filepath.Join(home, ".ssh", "sous") + " : c'est le dossier de la clé SSH"},
		{"~/notes.txt", "c'est un fichier, pas un dossier"},
		{"~/absent", "ce dossier n'existe pas"},
		{"~/lien", "c'est le dossier de la clé SSH"},
		{"~/pris", "acces.md y existe déjà et n'est pas un fichier"},
	} {
		s.answer("Dossier où écrire acces.md", refused.typed+"\r")
		s.expect(refused.said)
	}
	if runtime.GOOS == "linux" {
		// A folder that passes every check, where the write fails.
		s.answer("Dossier où écrire acces.md", "/proc\r")
		s.answer("acces.md sera écrit ici : /proc/acces.md", "\r")
		s.expect("non écrit")
		s.expect("pret n'a pas pu y écrire acces.md")
	}
	s.answer("Dossier où écrire acces.md", "~/envoi\r")
	s.expect("acces.md sera écrit ici : " + file)
	s.answer("Écrire acces.md à cet endroit ?", "\r")
	s.expect("acces.md écrit")
	s.answer("Signer acces.md ?", "\x1b[B\r") // down: "Non"
	s.exit(0)
	written, _ := os.ReadFile(file)
	if !bytes.Contains(written, []byte("Date de la demande du compte d'accès : 2026-10-12")) {
		t.Fatalf("the date typed is lost:\n%s", written)
	}
	if entries, _ := os.ReadDir(filepath.Join(home, ".ssh")); len(entries) != 3 {
		t.Fatalf("the key folder holds %v", entries)
	}

	// The learner edits acces.md by hand: their own date line, a note.
	hand := editByHand(t, file)
	later := ptyOptions{env: []string{"PRET_AUJOURDHUI=2026-10-27"}}
	s = startPTYWith(t, home, later)
	s.expect("Demande du compte notée le 12 octobre 2026.")
	s.answer("Où en est votre compte d'accès ?", "\x1b[B\r") // down: "Le compte est ouvert"
	s.answer("Date de la vérification du compte", "26/10/2026\r")
	s.expect("La dernière fois, acces.md a été écrit ailleurs") // the path may wrap
	s.answer("Écrire acces.md à cet endroit ?", "\r")
	// Only "remplacer": the terminal may wrap the line anywhere around it.
	s.answer("remplacer", "\r") // the default: "Non"
	s.expect("-- Demandé le 12/10/2026.")
	s.expect("+- Date de la vérification du compte d'accès : 2026-10-26")
	s.answer("Changer seulement la ligne de la date ?", "\x1b[B\r") // down: "Non"
	s.expect("conservé tel quel, octet pour octet")
	s.expect("Déclaration notée dans")
	// A file stating another date is not offered to the signature (issue 32).
	s.expect("il n'est pas proposé à la signature")
	s.expect("acces-matches-date")
	s.expect("pret acces --statut verifie --date 2026-10-26 --force")
	s.exit(0)
	if now, _ := os.ReadFile(file); !bytes.Equal(now, hand) {
		t.Fatal("acces.md changed after two noes")
	}
	if state, _ := os.ReadFile(statePath); !bytes.Contains(state, []byte("statut: verifie")) || !bytes.Contains(state, []byte(`date: "2026-10-26"`)) {
		t.Fatalf("the declaration is not recorded:\n%s", state)
	}

	// The next run starts from it, and changes the date line alone.
	s = startPTYWith(t, home, later)
	s.expect("Compte vérifié ouvert le 26 octobre 2026 (demandé le 12 octobre 2026).")
	s.answer("Où en est votre compte d'accès ?", "\r") // the default: "Le compte est ouvert"
	s.answer("(2026-10-26)", "\r")
	s.answer("Écrire acces.md à cet endroit ?", "\r")
	s.answer("remplacer", "\r")                               // wrapped anywhere around it, as above
	s.answer("Changer seulement la ligne de la date ?", "\r") // the default: "Oui"
	s.expect("seule la ligne de la date a changé")
	s.answer("Signer acces.md ?", "\x1b[B\r")
	s.exit(0)
	dateLineChanged(t, file, hand)
}

// newKey answers a first run's two passphrase questions.
func (s *session) newKey() {
	s.t.Helper()
	s.answer("Choisissez une passphrase pour la clé", ptyPass+"\r")
	s.answer("Saisissez-la une seconde fois", ptyPass+"\r")
}

// requested answers the account question of a first run: requested, on
// the date typed.
func (s *session) requested(date string) {
	s.t.Helper()
	s.answer("Où en est votre compte d'accès ?", "\x1b[B\r") // down: "Demandé, pas encore ouvert"
	s.answer("Date de la demande du compte", date+"\r")
}

// requestedHome is a home where pret cle and pret acces ran, off a
// terminal: the key, a request on 2026-10-12, acces.md.
func requestedHome(t *testing.T, home string) {
	t.Helper()
	h := homeAt(t, home)
	h.must(0, ptyPass+"\n", "cle", "--passphrase-file", "-")
	h.must(0, "", "acces", "--statut", "demande", "--date", "12/10/2026")
}

// handEditedHome is a requestedHome whose acces.md the learner then
// edited (editByHand); it returns that file.
func handEditedHome(t *testing.T, home string) []byte {
	t.Helper()
	requestedHome(t, home)
	return editByHand(t, filepath.Join(home, "acces.md"))
}

// editByHand edits the acces.md at file as a learner would: their own
// date line for the request of 2026-10-12, and a note; it returns the
// file.
func editByHand(t *testing.T, file string) []byte {
	t.Helper()
	written, _ := os.ReadFile(file)
	hand := append(bytes.Replace(written, []byte("- Date de la demande du compte d'accès : 2026-10-12"), []byte("- Demandé le 12/10/2026."), 1), "Ma note.\n"...)
	writeFile(t, file, hand, 0o644)
	return hand
}

// dateLineChanged fails the test unless file is hand, the file of
// editByHand, with its date line alone changed to the check of
// 2026-10-26.
func dateLineChanged(t *testing.T, file string, hand []byte) {
	t.Helper()
	want := bytes.Replace(hand, []byte("- Demandé le 12/10/2026."), []byte("- Date de la vérification du compte d'accès : 2026-10-26"), 1)
	if now, _ := os.ReadFile(file); !bytes.Equal(now, want) {
		t.Fatalf("acces.md:\n%s\nwant\n%s", now, want)
	}
}

// TestWizardDumbTerminal: with TERM=dumb the wizard draws nothing: no
// escape sequence at all reaches the terminal (survey's redraws, cursor
// moves and position queries, colours), every question is lines of text
// answered by a number or a line, and no answer is lost: a refused
// passphrase, a refused folder, then the date typed before is the one
// written. A later run keeps a hand-edited acces.md ("Non") and changes
// its date line alone ("1").
func TestWizardDumbTerminal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, "envoi"), 0o755)
	file := filepath.Join(home, "envoi", "acces.md")
	dumb := ptyOptions{env: []string{"TERM=dumb"}}

	s := startPTYWith(t, home, dumb)
	s.answer("Choisissez une passphrase pour la clé", "court\r")
	s.expect("trop courte")
	s.newKey() // asked again
	s.expect("Où en est votre compte d'accès ?")
	s.expect("  2) Demandé, pas encore ouvert")
	s.answer("Numéro, de 1 à 3 (1)", "5\r")
	s.answer("tapez un numéro de 1 à 3", "?\r")
	s.answer("Un seul compte par personne", "demandé\r") // the word, as the README says: "Demandé, pas encore ouvert"
	s.expect("Date de la demande du compte")
	s.answer("(2026-10-20)", "30/10/2026\r")
	s.expect("est dans le futur")
	s.answer("Date de la demande du compte", "12/10/2026\r") // asked again
	s.expect("Date comprise : lundi 12 octobre 2026")
	s.answer("Écrire acces.md à cet endroit ?", "non\r") // "Non, choisir un autre dossier"
	s.answer("Dossier où écrire acces.md", "~/.ssh\r")
	s.expect("c'est le dossier de la clé SSH")
	s.answer("Dossier où écrire acces.md", "~/envoi\r")
	s.answer("acces.md sera écrit ici : "+file, "\r") // the default: "Oui"
	s.expect("acces.md écrit")
	s.answer("Signer acces.md ?", "Non\r")
	s.expect("Et maintenant")
	s.exit(0)
	if raw := s.raw.String(); strings.Contains(raw, "\x1b") || strings.Contains(raw, ptyPass) {
		t.Fatalf("an escape sequence or the passphrase reached a dumb terminal:\n%q", raw)
	}
	written, _ := os.ReadFile(file)
	if !bytes.Contains(written, []byte("Date de la demande du compte d'accès : 2026-10-12")) {
		t.Fatalf("the date typed is lost:\n%s", written)
	}

	hand := editByHand(t, file)
	s = startPTYWith(t, home, ptyOptions{env: []string{"TERM=dumb", "PRET_AUJOURDHUI=2026-10-27"}})
	s.expect("Demande du compte notée le 12 octobre 2026.")
	s.answer("Numéro, de 1 à 2 (1)", "2\r") // "Le compte est ouvert"
	s.answer("Date de la vérification du compte", "26/10/2026\r")
	s.answer("Écrire acces.md à cet endroit ?", "1\r")
	s.expect("Le remplacer ?")
	s.answer("(2)", "\r") // the default: "Non"
	s.expect("Changer seulement la ligne de la date ?")
	s.answer("(1)", "\r") // the default: "Oui"
	s.expect("seule la ligne de la date a changé")
	s.answer("Signer acces.md ?", "2\r")
	s.exit(0)
	if raw := s.raw.String(); strings.Contains(raw, "\x1b") {
		t.Fatalf("an escape sequence reached a dumb terminal:\n%q", raw)
	}
	dateLineChanged(t, file, hand)
}

// TestWizardFinishedWithStepsLeft: a first run whose account is not
// requested yet ends on its last screen with steps left, the checklist
// failing: the wizard exits 0 (finishedWizard), so that "go run
// ./cmd/pret" prints no "exit status 1" under a wizard that did its job;
// pret verifier still exits 1 there.
func TestWizardFinishedWithStepsLeft(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	s := startPTY(t, home)
	s.newKey()
	s.answer("Où en est votre compte d'accès ?", "\r") // "Pas encore demandé"
	s.answer("La demande est-elle faite ?", "\r")      // "Non"
	s.expect("ÉCHEC")
	s.expect("Et maintenant")
	s.expect("1. Demandez le compte d'accès")
	s.exit(0)
	homeAt(t, home).must(exitFailed, "", "verifier")
}

// TestWizardInterruptedLater: Ctrl-C at the questions that come after
// the date (the folder and its confirmation, replacing a hand-edited
// acces.md, its date line, the signature) exits 130 with nothing
// half-written: acces.md is the learner's file byte for byte (but where
// "Oui" replaced it), no temporary file is left, and the date just typed
// is recorded after every earlier record (issue 32): an answer confirmed
// is never lost.
func TestWizardInterruptedLater(t *testing.T) {
	t.Parallel()
	notShort(t)
	const here, replace = "Écrire acces.md à cet endroit ?", "remplacer"
	for _, step := range []struct {
		name     string
		dialog   []string // a question, its answer, …, the question interrupted
		env      []string
		replaced bool
	}{
		{"folder confirmation", []string{here}, nil, false},
		{"folder confirmation, TERM=dumb", []string{here}, []string{"TERM=dumb"}, false},
		{"signature", []string{here, "\r", replace, "\x1b[A\r", "Signer acces.md ?"}, nil, true}, // up: "Oui"
		{"folder", []string{here, "\x1b[B\r", "Dossier où écrire acces.md"}, nil, false},
		// The plain questions leave Ctrl-C to the terminal: a signal.
		{"folder, TERM=dumb", []string{here, "2\r", "Dossier où écrire acces.md"}, []string{"TERM=dumb"}, false},
		{"replace", []string{here, "\r", replace}, nil, false},
		{"date line", []string{here, "\r", replace, "\r", "Changer seulement la ligne de la date ?"}, nil, false},
	} {
		t.Run(step.name, func(t *testing.T) {
			home := t.TempDir()
			file := filepath.Join(home, "acces.md")
			hand := handEditedHome(t, home)
			statePath := stateFile(home)
			stateBefore, _ := os.ReadFile(statePath)

			s := startPTYWith(t, home, ptyOptions{env: step.env})
			s.answer("Où en est votre compte d'accès ?", "\r")
			s.answer("Date de la demande du compte", "11/10/2026\r")
			for i := 0; i < len(step.dialog); i += 2 {
				s.expect(step.dialog[i])
				if i+1 < len(step.dialog) {
					s.send(step.dialog[i+1])
				}
			}
			s.send("\x03")
			s.exit(130)
			if !s.echoOn() {
				t.Fatal("terminal left without echo")
			}
			if now, _ := os.ReadFile(file); !step.replaced && !bytes.Equal(now, hand) {
				t.Fatalf("acces.md changed:\n%s", now)
			}
			now, _ := os.ReadFile(statePath)
			st, _ := onboarding.LoadState(statePath)
			if r, _, ok := st.Latest(""); !keepsRecords(t, stateBefore, now) || !ok || r.Date != "2026-10-11" {
				t.Fatalf("the date typed is not recorded after the earlier ones:\n%s", now)
			}
			noTempFiles(t, home, filepath.Dir(statePath), filepath.Join(home, ".ssh"))
		})
	}
}

// TestWizardUnreadableStateInRealTerminal: a state file pret cannot read
// (here, not YAML) is said with its path, never written over, and the
// wizard goes on: the date typed is written in acces.md, and the last
// lines say it is not noted and how to fix that. The configured folder
// of acces.md does not exist: said after the date, and the folder asked
// at once.
func TestWizardUnreadableStateInRealTerminal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	missing := ptyOptions{env: []string{"PRET_ACCES_FICHIER=" + filepath.Join(home, "absent", "acces.md")}}
	statePath := stateFile(home)
	os.MkdirAll(filepath.Dir(statePath), 0o700)
	broken := []byte("acces: [ceci n'est pas du YAML\n")
	os.WriteFile(statePath, broken, 0o600)

	s := startPTYWith(t, home, missing)
	s.newKey()
	s.expect("Il ne sera pas modifié ; pret continue sans lui.")
	s.requested("12/10/2026")
	s.expect("ce dossier n'existe pas")
	s.answer("Dossier où écrire acces.md", "~\r")
	s.answer("Écrire acces.md à cet endroit ?", "\r")
	s.expect("acces.md écrit")
	s.expect("la déclaration n'est pas notée")
	s.answer("Signer acces.md ?", "\x1b[B\r")
	s.wait()
	if now, _ := os.ReadFile(statePath); !bytes.Equal(now, broken) {
		t.Fatalf("the unreadable state was written over:\n%s", now)
	}
	if written, _ := os.ReadFile(filepath.Join(home, "acces.md")); !bytes.Contains(written, []byte("Date de la demande du compte d'accès : 2026-10-12")) {
		t.Fatalf("the date typed is lost:\n%s", written)
	}
}

// TestAccesKeepsFileInRealTerminal: pret acces on a terminal, a
// hand-edited acces.md that states another date: "Non" to replacing it
// records the declaration all the same and offers its date line alone;
// "Non" again keeps the file byte for byte (exit 1: a kept file, its
// rewrite command given), "Oui" changes that line only (exit 0). Ctrl-C
// at either question (exit 130) keeps the file and the declaration
// (issue 32).
func TestAccesKeepsFileInRealTerminal(t *testing.T) {
	t.Parallel()
	notShort(t)
	for _, dateLine := range []string{"Non", "Oui", "Ctrl-C at « Le remplacer ? »", "Ctrl-C at the date line"} {
		t.Run(dateLine, func(t *testing.T) {
			home := t.TempDir()
			file := filepath.Join(home, "acces.md")
			hand := handEditedHome(t, home)

			s := startPTYWith(t, home, ptyOptions{env: []string{"PRET_AUJOURDHUI=2026-10-27"}}, "acces")
			s.answer("Où en est votre compte d'accès ?", "\x1b[B\r") // down: "Le compte est ouvert"
			s.answer("Date de la vérification du compte", "26/10/2026\r")
			s.expect("remplacer")
			want, code := hand, 1
			if dateLine == "Ctrl-C at « Le remplacer ? »" {
				s.send("\x03")
				code = 130
			} else {
				s.send("\r") // the default: "Non"
				s.expect("Changer seulement la ligne de la date ?")
			}
			switch dateLine {
			case "Ctrl-C at the date line":
				s.send("\x03")
				code = 130
			case "Non":
				s.send("\x1b[B\r")
				s.expect("--force")
			case "Oui":
				s.send("\r")
				s.expect("seule la ligne de la date a changé")
				want, code = bytes.Replace(hand, []byte("- Demandé le 12/10/2026."), []byte("- Date de la vérification du compte d'accès : 2026-10-26"), 1), 0
			}
			s.exit(code)
			if now, _ := os.ReadFile(file); !bytes.Equal(now, want) {
				t.Fatalf("acces.md:\n%s\nwant\n%s", now, want)
			}
			state, _ := os.ReadFile(stateFile(home))
			if !bytes.Contains(state, []byte("statut: verifie")) || !bytes.Contains(state, []byte(`date: "2026-10-26"`)) {
				t.Fatalf("the declaration is not recorded:\n%s", state)
			}
		})
	}
}

// TestWizardEscapesPathsInRealTerminal: acces.md configured in a folder
// whose name holds a bidi control: the built binary never sends it raw,
// not in its lines, the folder question's default (survey prints a
// default as it is) or the last screen; Enter on that default still
// means the folder itself, and acces.md is written there.
func TestWizardEscapesPathsInRealTerminal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	dir := filepath.Join(home, "envoi\u202etxt.exe")
	os.Mkdir(dir, 0o755)
	s := startPTYWith(t, home, ptyOptions{env: []string{"PRET_ACCES_FICHIER=" + filepath.Join(dir, "acces.md")}})
	s.newKey()
	s.requested("12/10/2026")
	s.answer("Écrire acces.md à cet endroit ?", "\x1b[B\r") // down: "Non, choisir un autre dossier"
	s.answer(`(~/envoi\342\200\256txt.exe)`, "\r")
	s.expect(`acces.md sera écrit ici : ` + home + `/envoi\342\200\256txt.exe/acces.md`)
	s.answer("Écrire acces.md à cet endroit ?", "\r")
	s.expect("écrit")
	s.answer("Signer acces.md ?", "\x1b[B\r")
	s.expect("Et maintenant")
	s.exit(0)
	if strings.ContainsRune(s.raw.String(), '\u202e') {
		t.Fatalf("a bidi control reached the terminal raw:\n%q", s.raw.String())
	}
	if written, _ := os.ReadFile(filepath.Join(dir, "acces.md")); !bytes.Contains(written, []byte("2026-10-12")) {
		t.Fatalf("acces.md not written in the folder:\n%s", written)
	}
}

// TestPassphraseTypedAheadIsDropped: what was typed before the first
// passphrase question, echoed by the terminal then, is dropped, as
// ssh-add's prompt drops it, not taken unseen as the passphrase (outside
// tester), in both kinds of terminal.
func TestPassphraseTypedAheadIsDropped(t *testing.T) {
	t.Parallel()
	for _, env := range [][]string{nil, {"TERM=dumb"}} {
		home := t.TempDir()
		s := startPTYWith(t, home, ptyOptions{env: env, typedAhead: "EarlyPass123\r"})
		s.newKey()
		s.expect("Clé créée")
		s.send("\x03")
		s.exit(130)
		if strings.Contains(s.raw.String(), "diffèrent") {
			t.Fatalf("%v: the passphrase typed ahead was taken:\n%q", env, s.raw.String())
		}
	}
}

// TestPassphrasePastedWithCRLF: the LF that ends a passphrase pasted
// with CRLF answers nothing: survey took it for Enter at the next
// question, « Pas encore demandé » (outside tester).
func TestPassphrasePastedWithCRLF(t *testing.T) {
	t.Parallel()
	s := startPTY(t, t.TempDir())
	s.answer("Choisissez une passphrase pour la clé", ptyPass+"\r\n")
	s.answer("Saisissez-la une seconde fois", ptyPass+"\r\n")
	s.answer("Où en est votre compte d'accès ?", "\x1b[B\r") // down: "Demandé, pas encore ouvert"
	s.expect("Date de la demande du compte")
	s.send("\x03")
	s.exit(130)
	if strings.Contains(s.raw.String(), "La demande est-elle faite ?") {
		t.Fatalf("the paste's LF answered the account question:\n%q", s.raw.String())
	}
}

// TestNoBreakSpaceTypedIsNamed: a no-break space typed in the passphrase
// reaches the wizard, which names it and asks before keeping it (issue
// 32); the terminal reader once dropped it, making a key whose passphrase
// was not the one typed.
func TestNoBreakSpaceTypedIsNamed(t *testing.T) {
	t.Parallel()
	notShort(t)
	s := startPTY(t, t.TempDir())
	s.answer("Choisissez une passphrase pour la clé", "pass\u00a0word12\r")
	s.expect("U+00A0")
	// Typed ahead, as if for « une seconde fois » : the choice list
	// filters on it but writes none of it back (outside tester), and
	// Enter chooses nothing.
	s.answer("Garder cette passphrase telle quelle ?", "pass\u00a0word12\r")
	s.expect("[filtre tapé : Retour arrière l'efface]")
	s.send("\x03")
	s.exit(130)
	if strings.Contains(s.raw.String(), "word12") || strings.Contains(s.raw.String(), "Saisissez-la une seconde fois") {
		t.Fatalf("the passphrase typed at a choice reached the terminal, or was an answer:\n%q", s.raw.String())
	}
	// With TERM=dumb the answer is read unseen, then refused.
	s = startPTYWith(t, t.TempDir(), ptyOptions{env: []string{"TERM=dumb"}})
	s.answer("Choisissez une passphrase pour la clé", "pass\u00a0word12\r")
	s.answer("Numéro, de 1 à 2 (2)", "pass\u00a0word12\r")
	s.expect("✘ Réponse refusée")
	s.answer("Numéro, de 1 à 2 (2)", "\x03")
	s.exit(130)
	if strings.Contains(s.raw.String(), "word12") {
		t.Fatalf("the passphrase typed at a choice reached a dumb terminal:\n%q", s.raw.String())
	}
}

// TestWizardColour: survey's questions are coloured on a terminal, and
// not at all with TERM=dumb or an empty NO_COLOR (survey alone honours
// neither).
func TestWizardColour(t *testing.T) {
	t.Parallel()
	sgr := regexp.MustCompile("\x1b\\[[0-9;]*m")
	for _, tc := range []struct {
		env    []string
		colour bool
	}{
		{nil, true},
		{[]string{"TERM=dumb"}, false},
		{[]string{"NO_COLOR="}, false},
	} {
		s := startPTYWith(t, t.TempDir(), ptyOptions{env: tc.env})
		s.expect("Choisissez une passphrase")
		if got := sgr.MatchString(s.raw.String()); got != tc.colour {
			t.Errorf("%v: colour %v, want %v:\n%q", tc.env, got, tc.colour, s.raw.String())
		}
	}
}

// TestSelectFilterMatchingNothing: letters typed at a choice list filter
// it; a filter no option matches hides them all, says there is a filter,
// and Enter then chooses nothing (outside tester: stray text took the
// default), never a Go panic in survey (outside tester, stop 36);
// Backspace gives the options back.
func TestSelectFilterMatchingNothing(t *testing.T) {
	t.Parallel()
	notShort(t)
	s := startPTY(t, t.TempDir())
	s.newKey()
	s.expect("Où en est votre compte d'accès ?")
	s.send("9")
	s.expect("[filtre tapé : Retour arrière l'efface]")
	s.send("\r") // nothing to choose
	s.send("\x7f")
	s.send("\r") // the default: "Pas encore demandé"
	s.expect("La demande est-elle faite ?")
	if strings.Contains(s.raw.String(), "Demandez le compte d'accès") != true {
		t.Fatalf("the default was not taken after Backspace:\n%q", s.raw.String())
	}
	s.send("\x03")
	if code := s.wait(); code != 130 || strings.Contains(s.raw.String(), "panic") {
		t.Fatalf("exit %d\n%s", code, s.raw.String())
	}
}

// TestStrayKeysInRealTerminal: a tab or a control typed in a passphrase
// is refused with its code, never dropped (the key would take another
// passphrase than the one typed); Escape then a letter (Alt+letter on
// many terminals) is refused there too, and at a choice the question is
// asked again, in French, where survey's reader failed in English
// (outside tester).
func TestStrayKeysInRealTerminal(t *testing.T) {
	t.Parallel()
	notShort(t)
	home := t.TempDir()
	s := startPTY(t, home)
	s.answer("Choisissez une passphrase pour la clé", "abcd\tefghij\r")
	s.expect("une tabulation (U+0009)")
	s.answer("Choisissez une passphrase pour la clé", "abcd\x16efghij\r")
	s.expect("U+0016")
	s.answer("Choisissez une passphrase pour la clé", "abcd\x1befghij\r")
	s.expect("la touche Échap")
	// survey's reader took F1 and Ctrl+Left for other keys (eating the
	// next letter, adding "5D") and Ctrl-A, NUL for keys it drops.
	for _, typed := range []string{"abcd\x1bOPefghij\r", "abcd\x1b[1;5Defghij\r", "abcd\x1b[Defghij\r"} {
		s.answer("Choisissez une passphrase pour la clé", typed)
		s.expect("(U+001B)")
	}
	for _, c := range []string{"\x01", "\x00", "\x18"} {
		s.answer("Choisissez une passphrase pour la clé", "abcd"+c+"efghij\r")
		s.expect(fmt.Sprintf("(U+%04X)", c[0]))
	}
	// Pasted with CRLF: its LF is no empty second answer.
	s.answer("Choisissez une passphrase pour la clé", ptyPass+"\r\n")
	s.answer("Saisissez-la une seconde fois", ptyPass+"\r")
	s.answer("Où en est votre compte d'accès ?", "\x1bx")
	s.expect("Touche non reconnue (Échap, ou Alt et une lettre) : la question est reposée.")
	s.answer("Où en est votre compte d'accès ?", "\x03")
	s.exit(130)
	if strings.Contains(s.raw.String(), "unexpected") {
		t.Errorf("English from survey reached the learner:\n%s", s.raw.String())
	}
	if out, err := exec.Command("ssh-keygen", "-y", "-P", ptyPass, "-f", filepath.Join(home, ".ssh", "id_ed25519_romeo")).CombinedOutput(); err != nil {
		t.Errorf("the key does not open with the passphrase typed: %v %s", err, out)
	}
}
