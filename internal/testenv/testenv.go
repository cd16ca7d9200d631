// Package testenv is the one environment the tests of pret run it in: a
// home folder with its XDG folders inside, and a fixed date. Three test
// suites built it by hand and had started to differ; this is the only
// definition. It is imported by tests only.
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/romeo-pret/pret/internal/textwrap"
)

// Today is the date pret believes it is in tests (PRET_AUJOURDHUI), and
// SessionDay the session of the default configuration seen from it.
const (
	Today      = "2026-10-20"
	SessionDay = "2026-11-05"
)

// Day reads a civil day written AAAA-MM-JJ; a test with a bad literal
// panics rather than testing the zero time.
func Day(s string) time.Time {
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic("testenv.Day: " + err.Error())
	}
	return d
}

// Environ puts pret in home: HOME, every XDG base folder inside it (so no
// test reads or writes the real user's), and the fixed date. It holds no
// PATH and no terminal settings: each suite adds what it means to test.
func Environ(home string) []string {
	env := []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"PRET_AUJOURDHUI=" + Today,
	}
	// The private test Slurm of .ci/slurm, never the machine's own.
	if conf := os.Getenv("SLURM_CONF"); conf != "" {
		env = append(env, "SLURM_CONF="+conf)
	}
	return env
}

// Setenv applies Environ(home) through set, for harnesses that take one
// variable at a time (testscript's Env.Setenv, testing.T.Setenv).
func Setenv(set func(name, value string), home string) {
	for _, kv := range Environ(home) {
		name, value, _ := strings.Cut(kv, "=")
		set(name, value)
	}
}

// Edit returns s with the first old replaced by new. It panics when s does
// not hold old: a test case built by editing a good file must not quietly
// test the good file when the text it meant to change has moved.
func Edit(s, old, new string) string {
	if !strings.Contains(s, old) {
		panic("testenv.Edit: the text to replace is gone: " + old)
	}
	return strings.Replace(s, old, new, 1)
}

// EditAll is Edit for every occurrence.
func EditAll(s, old, new string) string {
	if !strings.Contains(s, old) {
		panic("testenv.EditAll: the text to replace is gone: " + old)
	}
	return strings.ReplaceAll(s, old, new)
}

// UnderWine is set by .ci/wine/test, which runs the Windows test binaries
// under Wine: the only place where a test may skip for Wine's reasons.
var UnderWine = os.Getenv("PRET_WINE") == "1"

// NeedTool returns the path of a real tool a test compares against
// (ssh-keygen, sed). In CI a missing tool fails the test, never skips it:
// the interop tests are the point. Under Wine it skips: the Linux tool
// cannot read Windows paths, and the Linux run checks interop.
func NeedTool(t testing.TB, name string) string {
	t.Helper()
	if UnderWine {
		t.Skipf("sous Wine, %s n'existe pas en version Windows et celui de Linux ne lit pas les chemins Windows : l'interopérabilité est vérifiée par les tests Linux", name)
	}
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is required in CI (.ci/run installs it): %v", name, err)
		}
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

// OneWordOverflow: a line wider than the width holds a single word
// (beside a comment's '#', a diff marker or survey's "?"): the one
// case pret leaves to the terminal, since cutting would put a newline
// inside a fingerprint or a path that is copied.
//
// A marker is a field the wrapper or survey writes alone ("#", "-↪",
// "↪", "?", a diff's "-" or "+"), not any run of those characters: a
// word of the text such as "#####" is a word (FuzzWrapText found
// "#\n# #####" at width 6, a comment line holding one word).
func OneWordOverflow(line string) bool {
	n, punct := 0, 0
	for _, f := range strings.Fields(textwrap.StripEscapes(line)) {
		switch f {
		case "#", "-", "+", "↪", "-↪", "+↪", "?":
			continue
		}
		if strings.Trim(f, ":;?!«»") == "" {
			// French punctuation, which the wrapping keeps glued to
			// the word beside it: part of that word.
			punct++
			continue
		}
		n++
	}
	return n == 1 || n == 0 && punct > 0
}

// NonSpace is s without its spaces, line breaks and colour escapes: what
// wrapping must keep, in order.
func NonSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, textwrap.StripEscapes(s))
}
