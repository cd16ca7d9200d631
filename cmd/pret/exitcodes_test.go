//go:build linux

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/romeo-pret/pret/internal/safefile"
)

// TestExitCodes runs the built binary: 2 only for usage, 1 for a refusal
// or anything unforeseen (with the path and a French reason), 143 for
// SIGTERM and 130 for SIGINT.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	notShort(t)
	cases := []struct {
		name  string
		setup func(h *home)
		stdin string
		args  []string
		code  int
		say   string // in stderr
	}{
		{"unknown flag", nil, "", []string{"verifier", "--inexistante"}, exitUsage, "option inconnue : --inexistante"},
		{"unknown command", nil, "", []string{"inconnue"}, exitUsage, "commande inconnue"},
		{"value refused", nil, "", []string{"valider", "--paralleles", "douze"}, exitUsage, "attendu : un nombre entier"},
		{"path given that does not exist", nil, "", []string{"valider", "absent"}, exitUsage, "introuvable : absent"},
		{"no terminal for the wizard", nil, "", nil, exitUsage, "besoin d'un terminal"},
		{"refused: no key", nil, "", []string{"acces", "--statut", "demande"}, exitFailed, "pret cle"},
		// Written there, acces.md would wipe the history (outside tester, stop 38).
		{"refused: acces.md is the state file", func(h *home) { putKey(h.t, h.dir) }, "",
			[]string{"--acces-fichier", ".local/state/pret/etat.yaml", "acces", "--statut", "demande", "--force"}, exitUsage, "l'historique des déclarations"},
		// A report or worksheet written there would too (outside tester, stop 39).
		{"refused: --sortie is the state file", func(h *home) {
			os.MkdirAll(h.path("rendus"), 0o755)
			os.WriteFile(h.path("rendus/acces.md"), []byte(accesPage(fpOne)), 0o644)
		}, "", []string{"valider", "--sortie", ".local/state/pret/etat.yaml", "rendus"}, exitUsage, "l'historique des déclarations"},
		// pret verifier reports it as its access-date check (a row, with
		// the path); pret acces, which would write it, refuses.
		{"unforeseen: the state file is a folder", func(h *home) {
			putKey(h.t, h.dir)
			os.MkdirAll(h.path(".local/state/pret/etat.yaml"), 0o755)
		}, "", []string{"acces", "--statut", "demande"}, exitFailed, "etat.yaml"},
		{"unforeseen: the key folder is a file", func(h *home) {
			os.WriteFile(h.path(".ssh"), []byte("un fichier\n"), 0o644)
		}, "une passphrase solide\n", []string{"cle", "--passphrase-file", "-"}, exitFailed, ".ssh"},
		// A passphrase file that is there but unreadable is a failure, as
		// for pret empreinte; only a path that is not there is usage (outside tester).
		{"unforeseen: the passphrase file is a folder", func(h *home) {
			os.Mkdir(h.path("pass"), 0o755)
		}, "", []string{"cle", "--passphrase-file", "pass"}, exitFailed, "fichier de passphrase illisible"},
		{"refused: the passphrase file is too large", func(h *home) {
			os.WriteFile(h.path("pass"), bytes.Repeat([]byte("x"), 5000), 0o600)
		}, "", []string{"cle", "--passphrase-file", "pass"}, exitFailed, "fichier de passphrase trop grand"},
		{"refused: the passphrase line is too long", nil, strings.Repeat("x", 5000), []string{"cle", "--passphrase-file", "-"}, exitFailed, "trop longue"},
		{"unforeseen: acces.md is a folder", func(h *home) {
			putKey(h.t, h.dir)
			os.Mkdir(h.path("acces.md"), 0o755)
		}, "", []string{"acces", "--statut", "demande"}, exitFailed, "acces.md"},
		{"unforeseen: acces.md in a folder that does not exist", func(h *home) {
			putKey(h.t, h.dir)
		}, "", []string{"--acces-fichier", "nulle/part/acces.md", "acces", "--statut", "demande"}, exitFailed, "nulle/part"},
		{"unforeseen: a model into a folder that does not exist", nil, "", []string{"modele", "nulle/sommeil.sbatch"}, exitFailed, "nulle/sommeil.sbatch non écrit : fichier ou dossier introuvable"},
		{"unforeseen: manual pages under a file", func(h *home) {
			os.WriteFile(h.path("f"), nil, 0o644)
		}, "", []string{"man", "f/man"}, exitFailed, "n'est pas un dossier"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHome(t)
			if tc.setup != nil {
				tc.setup(h)
			}
			r := h.pret(tc.stdin, tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.say) || !strings.HasPrefix(r.stderr, "pret: erreur : ") {
				t.Fatalf("pret %q: exit %d, want %d and %q\n%s%s", tc.args, r.code, tc.code, tc.say, r.stdout, r.stderr)
			}
			if w := englishWords.FindString(r.stdout + r.stderr); w != "" {
				t.Fatalf("English %q:\n%s", w, r.stderr)
			}
			if tc.code == exitFailed && strings.Contains(r.stderr, "--help » liste") {
				t.Fatalf("a failure answered like a usage mistake:\n%s", r.stderr)
			}
		})
	}
	for _, sig := range signals {
		t.Run(sig.sig.String(), func(t *testing.T) {
			h := newHome(t)
			// pret waits for the passphrase on a pipe that stays open.
			cmd := h.command("", "cle", "--passphrase-file", "-")
			cmd.Stdin = nil
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitBlockedOnPipe(t, cmd.Process.Pid)
			cmd.Process.Signal(sig.sig)
			r := finish(t, cmd, &out, &errb, cmd.Wait())
			if r.code != sig.code || !strings.Contains(r.stderr, sig.says) || !strings.Contains(r.stderr, "\npret: conseil : relancez la commande") {
				t.Fatalf("exit %d, want %d\n%s", r.code, sig.code, r.stderr)
			}
			if entries, _ := os.ReadDir(h.path(".ssh")); len(entries) > 0 {
				t.Fatalf("files left: %v", entries)
			}
		})
	}
}

// signals are those pret stops on, with the exit code each gives.
var signals = []struct {
	sig  syscall.Signal
	code int
	says string // in the error line
}{{syscall.SIGTERM, exitTerminated, "arrêté (SIGTERM)"}, {syscall.SIGINT, exitInterrupted, "interrompu (Ctrl-C)"}, {syscall.SIGHUP, exitHangup, "le terminal s'est fermé (SIGHUP)"}}

// waitBlockedOnPipe waits until a thread of pid sleeps in a pipe read,
// so that the signal comes after pret's handler is in place.
func waitBlockedOnPipe(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		tasks, _ := filepath.Glob(filepath.Join("/proc", itoa(pid), "task", "*", "wchan"))
		for _, w := range tasks {
			if b, _ := os.ReadFile(w); bytes.Contains(b, []byte("pipe")) {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("pret never waited on its standard input")
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestInterruptAtTheStateLock: a signal while pret acces waits for the
// state's lock stops it once the date is noted: acces.md is not written,
// and the exit is the signal's.
func TestInterruptAtTheStateLock(t *testing.T) {
	for _, sig := range signals {
		t.Run(sig.sig.String(), func(t *testing.T) {
			h := newHome(t)
			h.must(0, secretPass+"\n", "cle", "--passphrase-file", "-")
			dir := filepath.Dir(stateFile(h.dir))
			os.MkdirAll(dir, 0o700)
			unlock, err := safefile.LockDir(dir, -1)
			if err != nil {
				t.Fatal(err)
			}
			cmd := h.command("", "acces", "--statut", "demande", "--date", "2026-10-01")
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitOpened(t, cmd.Process.Pid, dir)
			cmd.Process.Signal(sig.sig)
			time.Sleep(200 * time.Millisecond) // for the handler to see it
			unlock()
			r := finish(t, cmd, &out, &errb, cmd.Wait())
			if r.code != sig.code || strings.Contains(r.stdout, "écrit") {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, sig.code, r.stdout, r.stderr)
			}
			if _, err := os.Lstat(h.path("acces.md")); err == nil {
				t.Fatal("acces.md written after the signal")
			}
			if st, err := os.ReadFile(stateFile(h.dir)); !strings.Contains(string(st), "2026-10-01") {
				t.Fatalf("the date is not noted: %q %v", st, err)
			}
		})
	}
}

// waitOpened waits until pid has dir open: it waits for dir's lock.
func waitOpened(t *testing.T, pid int, dir string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		fds, _ := filepath.Glob(filepath.Join("/proc", itoa(pid), "fd", "*"))
		for _, fd := range fds {
			if l, _ := os.Readlink(fd); l == dir {
				return
			}
		}
	}
	t.Fatal("pret never opened the state's folder")
}
