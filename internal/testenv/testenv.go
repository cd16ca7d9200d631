// Package testenv is what the tests of several packages share: a fixed
// date, edits that fail loudly, the real tools they compare against.
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/romeo-pret/pret/internal/textwrap"
)

// Today is the date pret believes it is in tests (PRET_AUJOURDHUI), and
// SessionDay the session of the default configuration seen from it.
const (
	Today      = "2026-10-20"
	SessionDay = "2026-11-05"
)

// Day reads a civil day written AAAA-MM-JJ; a bad literal panics.
func Day(s string) time.Time {
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic("testenv.Day: " + err.Error())
	}
	return d
}

// Edit returns s with the first old replaced by new, and panics when s
// lacks old: an edited case must not quietly test the good file.
func Edit(s, old, new string) string {
	if !strings.Contains(s, old) {
		panic("testenv.Edit: the text to replace is gone: " + old)
	}
	return strings.Replace(s, old, new, 1)
}

// EditAll is Edit for every occurrence.
func EditAll(s, old, new string) string {
	return strings.ReplaceAll(Edit(s, old, old), old, new)
}

// LongEnv is the switch of the long tests: the scale tests, long
// fuzzing, peak-memory measures, the whole interop matrix and the release
// check. .ci/test sets it, so CI runs them; a plain go test ./... does not.
const LongEnv = "PRET_LONG"

// Long skips a test unless PRET_LONG=1: what is inherently long (minutes,
// or hundreds of megabytes) runs in CI and on demand, not on every go test.
func Long(t testing.TB) {
	t.Helper()
	if os.Getenv(LongEnv) != "1" {
		t.Skip("test long : PRET_LONG=1 (bash .ci/test) le lance")
	}
}

// Scaled is how much of a random series or input a test takes: plain on
// a plain go test, long with PRET_LONG=1 (CI), and a tenth of plain, at
// least 1, under -short. A property that holds holds on fewer cases;
// the long run is there to find the rare one.
func Scaled(plain, long int) int {
	switch {
	case os.Getenv(LongEnv) == "1":
		return long
	case testing.Short():
		return max(plain/10, 1)
	}
	return plain
}

// NeedTool returns the path of a real tool a test compares against. In
// CI a missing tool fails the test; under Wine (PRET_WINE) it skips.
func NeedTool(t testing.TB, name string) string {
	t.Helper()
	if os.Getenv("PRET_WINE") == "1" {
		t.Skipf("sous Wine, %s n'existe pas en version Windows et celui de Linux ne lit pas les chemins Windows : l'interopérabilité est vérifiée par les tests Linux", name)
	}
	p, err := exec.LookPath(name)
	if err != nil && os.Getenv("CI") != "" {
		t.Fatalf("%s is required in CI (.ci/run installs it): %v", name, err)
	} else if err != nil {
		t.Skipf("%s not installed", name)
	}
	return p
}

// Run runs a real tool and fails the test when it fails.
func Run(t testing.TB, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// SSHKeygen makes a key at dir/name with the real ssh-keygen (args such
// as -t, -N, -C) and returns its path.
func SSHKeygen(t testing.TB, dir, name string, args ...string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	Run(t, NeedTool(t, "ssh-keygen"), append([]string{"-q", "-f", path}, args...)...)
	return path
}

// OneWordOverflow: a line wider than the width holds a single word, the
// one case pret leaves to the terminal. Markers written alone ("#", "-↪",
// "?", a diff's "-" or "+") are not words; "#####" is (FuzzWrapText).
func OneWordOverflow(line string) bool {
	n, punct := 0, 0
	// Words as the wrapper cuts them: at ASCII spaces, not at U+2004 (fuzzed).
	for _, f := range strings.FieldsFunc(textwrap.StripEscapes(line), func(r rune) bool { return r == ' ' }) {
		switch {
		case f == "#", f == "-", f == "+", f == "↪", f == "-↪", f == "+↪", f == "?":
		case strings.Trim(f, ":;?!«»") == "":
			punct++ // French punctuation, glued to the word beside it
		default:
			n++
		}
	}
	return n == 1 || n == 0 && punct > 0
}

// NonSpace is s without spaces and colour escapes: what wrapping keeps.
func NonSpace(s string) string {
	return strings.Join(strings.Fields(textwrap.StripEscapes(s)), "")
}
