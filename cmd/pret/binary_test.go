package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	binDir    string // created and removed by withBinDir
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// withBinDir runs the tests with a private folder for the built binary,
// removed when they end, so no run leaves 27 MB behind in /tmp.
type withBinDir struct{ m *testing.M }

func (w withBinDir) Run() int {
	dir, err := os.MkdirTemp("", "pret-test-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	binDir = dir
	defer os.RemoveAll(dir)
	return w.m.Run()
}

// binary builds pret once: the tests that need a real process (a
// pseudo-terminal, strace, signals, memory measures) drive the real
// program, as a learner would.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		builtBin = filepath.Join(binDir, "pret")
		if runtime.GOOS == "windows" {
			builtBin += ".exe"
		}
		out, err := exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v", buildErr)
	}
	return builtBin
}
