package main

import (
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/internal/textwrap"
)

// checkFits fails on each line of drawn wider than cols but for a line of
// one word, the one case pret leaves to the terminal (pty_test.go,
// terminal_test.go); it returns how many lines it checked.
func checkFits(t *testing.T, what, drawn string, cols int) int {
	t.Helper()
	lines := strings.Split(drawn, "\n")
	for _, line := range lines {
		if w := textwrap.Columns(line); w > cols && !testenv.OneWordOverflow(line) {
			t.Errorf("%sline of %d columns on a %d-column terminal: %q", what, w, cols, line)
		}
	}
	return len(lines)
}
