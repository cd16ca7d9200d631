//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
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
	// The second pty carries the virtual screen's answers back to pret's
	// input, as survey's own tests do.
	answersM, answersS, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	screen := vt10x.New(vt10x.WithWriter(answersS), vt10x.WithSize(120, 40))
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
	pty.Setsize(c.Tty(), &pty.Winsize{Rows: 40, Cols: 120})
	cmd := exec.Command(binary(t), args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Tty(), c.Tty(), c.Tty()
	cmd.Env = append(testenv.Environ(home),
		"PATH=/usr/bin:/bin",
		"TERM=xterm-256color",
	)
	cmd.Dir = home
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
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
	keygen := needTool(t, "ssh-keygen")
	home := t.TempDir()

	s := startPTY(t, home)
	s.expect("Il reste 16 jours")
	s.expect("Choisissez une passphrase pour la clé")
	s.send("\r")
	s.expect("Passphrase refusée : la passphrase est vide")
	s.expect("Choisissez une passphrase pour la clé")
	s.send(ptyPass + "\r")
	s.expect("Saisissez-la une seconde fois")
	s.send(ptyPass + "\r")
	s.expect("Clé créée")
	s.expect("Avez-vous déjà un compte d'accès ouvert ?")
	s.expect("flèches pour choisir")
	s.send("\r") // the default: "Non, pas encore"
	s.expect("par le canal indiqué par les organisateurs")
	s.expect("Date de la demande du compte")
	s.expect("(2026-10-20)")
	s.send("\r")
	s.expect("acces.md écrit")
	s.expect("Signer acces.md ? Cela prouve aux organisateurs")
	s.send("\r") // the default: "Oui"
	s.expect("Passphrase de la clé")
	s.send(ptyPass + "\r")
	s.expect("signé avec la clé")
	s.expect("Résumé")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d\n%s", code, s.raw.String())
	}
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
	written, err := os.ReadFile(filepath.Join(home, "acces.md"))
	if err != nil {
		t.Fatal(err)
	}
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

	// Second run: the key is kept without a question; acces.md is not
	// touched without a yes.
	s = startPTY(t, home)
	s.expect("Clé existante conservée")
	s.expect("Avez-vous déjà un compte d'accès ouvert ?")
	s.send("\x1b[A\r") // up: "Oui, il est ouvert"
	s.expect("Date de la vérification du compte")
	s.send("\r")
	s.expect("existe déjà avec un autre contenu. Le remplacer ?")
	s.send("\r") // the default: "Non"
	s.expect("conservé tel quel")
	s.expect("est signé par votre clé")
	s.wait()
	if strings.Contains(s.raw.String(), "passphrase pour la clé") {
		t.Fatal("the passphrase was asked for a kept key")
	}
	if after, _ := os.ReadFile(filepath.Join(home, "acces.md")); !bytes.Equal(after, written) {
		t.Fatal("acces.md changed after a no")
	}
	if after, _ := os.ReadFile(key); !bytes.Equal(after, keyBefore) {
		t.Fatal("the key changed")
	}
}

// TestWizardInterrupted: Ctrl-C, then SIGTERM, at each question: exit 130
// or 143, the terminal echoes again, and no file is left half-written.
func TestWizardInterrupted(t *testing.T) {
	steps := []struct {
		name  string
		reach func(s *session)
	}{
		{"passphrase", func(s *session) { s.expect("Choisissez une passphrase") }},
		{"second passphrase", func(s *session) {
			s.expect("Choisissez une passphrase")
			s.send(ptyPass + "\r")
			s.expect("Saisissez-la une seconde fois")
		}},
		{"account", func(s *session) {
			s.expect("Choisissez une passphrase")
			s.send(ptyPass + "\r")
			s.expect("Saisissez-la une seconde fois")
			s.send(ptyPass + "\r")
			s.expect("Avez-vous déjà un compte")
		}},
		{"date", func(s *session) {
			s.expect("Choisissez une passphrase")
			s.send(ptyPass + "\r")
			s.expect("Saisissez-la une seconde fois")
			s.send(ptyPass + "\r")
			s.expect("Avez-vous déjà un compte")
			s.send("\r")
			s.expect("Date de la demande du compte")
		}},
	}
	for _, step := range steps {
		for _, how := range []string{"ctrl-c", "sigterm"} {
			t.Run(step.name+"/"+how, func(t *testing.T) {
				home := t.TempDir()
				s := startPTY(t, home)
				step.reach(s)
				want := 130
				if how == "ctrl-c" {
					s.send("\x03")
				} else {
					time.Sleep(100 * time.Millisecond)
					s.cmd.Process.Signal(syscall.SIGTERM)
					want = 143
				}
				if code := s.wait(); code != want {
					t.Fatalf("exit %d, want %d\n%s", code, want, s.raw.String())
				}
				if !s.echoOn() {
					t.Fatal("terminal left without echo")
				}
				if _, err := os.Stat(filepath.Join(home, "acces.md")); err == nil {
					t.Fatal("acces.md written")
				}
				entries, _ := os.ReadDir(filepath.Join(home, ".ssh"))
				for _, e := range entries {
					if strings.Contains(e.Name(), ".tmp-") {
						t.Fatalf("temporary file left: %s", e.Name())
					}
				}
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
	keygen := needTool(t, "ssh-keygen")
	home := t.TempDir()
	s := startPTY(t, home, "cle")
	s.expect("Choisissez une passphrase")
	s.send("court\r")
	s.expect("trop courte")
	s.expect("Choisissez une passphrase")
	s.send(ptyPass + "\r")
	s.expect("Saisissez-la une seconde fois")
	s.send(ptyPass + "\r")
	s.expect("seance-novembre (ED25519)")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d\n%s", code, s.raw.String())
	}
	if strings.Contains(s.raw.String(), ptyPass) {
		t.Fatal("the passphrase appeared on the screen")
	}
	key := filepath.Join(home, ".ssh", "id_ed25519_romeo")
	if out, err := exec.Command(keygen, "-y", "-P", ptyPass, "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}

	home = t.TempDir()
	s = startPTY(t, home, "cle")
	s.expect("Choisissez une passphrase")
	s.send("\x03")
	if code := s.wait(); code != 130 {
		t.Fatalf("exit %d", code)
	}
	if !s.echoOn() {
		t.Fatal("terminal left without echo")
	}
	if entries, _ := os.ReadDir(filepath.Join(home, ".ssh")); len(entries) != 0 {
		t.Fatalf("files left: %v", entries)
	}
}
