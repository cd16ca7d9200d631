//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"

	"github.com/romeo-pret/pret/internal/testenv"
)

// onTerminal runs the built pret with a pseudo-terminal of cols columns
// as its standard streams and returns what it drew, without \r.
func onTerminal(t *testing.T, h *home, env []string, cols uint16, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env, cmd.Dir = env, h.dir
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: cols})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	_, err = io.Copy(&out, f) // ends with EIO once pret has closed the terminal
	if err != nil && !errors.Is(err, syscall.EIO) {
		t.Fatal(err)
	}
	f.Close()
	code := 0
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	return strings.ReplaceAll(out.String(), "\r", ""), code
}

func without(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		keep := true
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}

// TestTerminalWidth: on 40 columns the checklist and the help wrap at
// spaces (colour on a terminal: TestDumbTerminalNoEscapes), with
// the same text in the same order as on a wide terminal and no line wider
// than 40 columns.
func TestTerminalWidth(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	putKey(t, h.dir)
	h.must(0, "", "acces", "--statut", "demande")
	base := without(h.env, "NO_COLOR", "TERM")

	for _, args := range [][]string{{"verifier"}, {"--help"}, {"valider", "--help"}} {
		env := append(base, "TERM=dumb")
		wide, _ := onTerminal(t, h, env, 250, args...)
		narrow, _ := onTerminal(t, h, env, 40, args...)
		// The same text in the same order; every word whole, even one
		// wider than the terminal (a temporary folder's path here): it
		// gets a line of its own and the terminal's soft wrap.
		// (A wrapped comment line continues as a comment: its "#" aside.)
		if a, b := strings.ReplaceAll(testenv.NonSpace(wide), "#", ""), strings.ReplaceAll(testenv.NonSpace(narrow), "#", ""); a != b {
			t.Errorf("pret %v: text differs on 40 columns:\n%s", args, narrow)
		}
		narrowWords := strings.Fields(narrow)
		for _, w := range strings.Fields(wide) {
			i := slices.Index(narrowWords, w)
			if i < 0 {
				t.Errorf("pret %v: %q is cut or out of order on 40 columns:\n%s", args, w, narrow)
				break
			}
			narrowWords = narrowWords[i+1:]
		}
		checkFits(t, fmt.Sprintf("pret %v: ", args), narrow, 40)
		if wide == narrow {
			t.Errorf("pret %v: nothing wrapped on 40 columns", args)
		}
	}
}
