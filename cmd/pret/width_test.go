package main

import (
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/internal/textwrap"
)

// The names the terminal tests of this package (pty_test.go,
// terminal_test.go) check line widths with.
var (
	visibleWidth    = textwrap.Columns
	oneWordOverflow = testenv.OneWordOverflow
	nonSpace        = testenv.NonSpace
)
