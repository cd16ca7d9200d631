package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeOpensWithTheTwoCommands: the README's first block is the two
// commands a newcomer types, and they stay true: one builds this
// package and runs it as a binary (not go run, which adds Go's English
// "exit status 1"), the other runs the test script. It links to
// docs/securite.md and docs/tests.md.
func TestReadmeOpensWithTheTwoCommands(t *testing.T) {
	root := filepath.Join("..", "..") // the module's root, from ./cmd/pret
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	readme := string(data)
	if err != nil || readme == "" {
		t.Fatalf("README.md: %v", err)
	}
	_, block, ok := strings.Cut(readme, "```sh\n")
	if !ok {
		t.Fatal("the README has no sh block")
	}
	block, _, _ = strings.Cut(block, "```")
	var cmds []string
	for _, l := range strings.Split(strings.TrimSpace(block), "\n") {
		c, _, _ := strings.Cut(l, "#")
		cmds = append(cmds, strings.TrimSpace(c))
	}
	want := []string{"go build -o pret ./cmd/pret && ./pret", "bash .ci/test"}
	if strings.Join(cmds, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the README opens with %q, want %q", cmds, want)
	}
	if wd, _ := os.Getwd(); filepath.Base(wd) != "pret" || filepath.Base(filepath.Dir(wd)) != "cmd" {
		t.Fatalf("this test runs in %s, not ./cmd/pret", wd)
	}
	// That .ci/test and every page the README links to exist,
	// TestDocsCiteFilesThatExist checks, as for every page.
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`\]\((docs/[^)#]+)\)`).FindAllStringSubmatch(readme, -1) {
		seen[m[1]] = true
	}
	for _, p := range []string{"docs/securite.md", "docs/tests.md"} {
		if !seen[p] {
			t.Errorf("the README does not link to %s", p)
		}
	}
}
