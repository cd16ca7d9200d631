package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// exitCodeTable is the table under "## Codes de sortie" in a page: its
// rows as written, and the codes of their first column.
func exitCodeTable(t *testing.T, page string) (rows []string, codes []int) {
	t.Helper()
	data := readFile(t, filepath.Join("..", "..", page))
	_, section, ok := strings.Cut(string(data), "\n## Codes de sortie\n")
	if !ok {
		t.Fatalf("%s has no « Codes de sortie » section", page)
	}
	for _, l := range strings.Split(section, "\n") {
		if strings.HasPrefix(l, "## ") {
			break
		}
		if !strings.HasPrefix(l, "| ") || strings.HasPrefix(l, "| code |") {
			continue
		}
		rows = append(rows, l)
		code, err := strconv.Atoi(strings.TrimSpace(strings.Split(l, "|")[1]))
		if err != nil {
			t.Fatalf("%s: a row without its code: %q", page, l)
		}
		codes = append(codes, code)
	}
	return rows, codes
}

// TestExitCodeTablesAgree (issue 32): the exit-code tables of the README
// and docs/cli.md are the same, row for row, and name exactly the codes
// cmd/pret chooses (errors.go), each once.
func TestExitCodeTablesAgree(t *testing.T) {
	readme, readmeCodes := exitCodeTable(t, "README.md")
	cli, _ := exitCodeTable(t, "docs/cli.md")
	if strings.Join(readme, "\n") != strings.Join(cli, "\n") {
		t.Errorf("the tables differ:\nREADME.md:\n%s\ndocs/cli.md:\n%s", strings.Join(readme, "\n"), strings.Join(cli, "\n"))
	}
	used := []int{exitOK, exitFailed, exitUsage, exitHangup, exitInterrupted, exitTerminated}
	if !slices.Equal(readmeCodes, used) {
		t.Errorf("the tables name codes %v; cmd/pret uses %v", readmeCodes, used)
	}
}

// TestHelpNamesEveryExitCode: the README says « pret --help rappelle ces
// codes », every one of them (129 was left out: outside tester).
func TestHelpNamesEveryExitCode(t *testing.T) {
	_, codes := exitCodeTable(t, "README.md")
	root, _ := pretCommands(t)
	for _, c := range codes {
		if !strings.Contains(root.Long, fmt.Sprint(c)+" ") {
			t.Errorf("pret --help does not name exit code %d:\n%s", c, root.Long)
		}
	}
}
