package main

import (
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The pages a reader takes at their word: the README and docs/. The
// names checked below are identifiers, the same in English and French.
func docPages(t *testing.T) map[string]string {
	t.Helper()
	root := filepath.Join("..", "..")
	pages := map[string]string{}
	names, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(names) < 5 {
		t.Fatalf("docs/*.md: %v (%d pages)", err, len(names))
	}
	for _, name := range append(names, filepath.Join(root, "README.md")) {
		data := readFile(t, name)
		rel, _ := filepath.Rel(root, name)
		pages[filepath.ToSlash(rel)] = string(data)
	}
	return pages
}

// repoFiles lists the module's files (slash-separated, from its root),
// leaving out the folders git ignores that a run may leave behind.
func repoFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && (rel == ".git" || rel == "dist") {
			return filepath.SkipDir
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	testFuncName = regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Benchmark)[A-Z]\w*)\(`)
	testNameCite = regexp.MustCompile(`\b(?:Test|Fuzz|Benchmark)[A-Z]\w*`)
	codeBlock    = regexp.MustCompile("(?ms)^ *```[^\n]*\n(.*?)^ *```")
	codeSpan     = regexp.MustCompile("`([^`\n]+)`")
	mdLink       = regexp.MustCompile(`\]\(([^)#\s]+)(?:#[^)]*)?\)`)
	shellComment = regexp.MustCompile(`\s+#(\s.*)?$`)
)

// codeOf is what a page shows as code: each line of its blocks, and each
// inline span outside them.
func codeOf(page string) []string {
	var code []string
	for _, m := range codeBlock.FindAllStringSubmatch(page, -1) {
		for _, l := range strings.Split(m[1], "\n") {
			code = append(code, shellComment.ReplaceAllString(l, ""))
		}
	}
	for _, m := range codeSpan.FindAllStringSubmatch(codeBlock.ReplaceAllString(page, ""), -1) {
		code = append(code, m[1])
	}
	return code
}

// TestDocsCiteTestsThatExist: every TestX, FuzzX and BenchmarkX a page
// names is a function of some _test.go file of the module.
func TestDocsCiteTestsThatExist(t *testing.T) {
	defined := map[string]bool{}
	for _, f := range repoFiles(t) {
		if strings.HasSuffix(f, "_test.go") {
			data := readFile(t, filepath.Join("..", "..", filepath.FromSlash(f)))
			for _, m := range testFuncName.FindAllStringSubmatch(string(data), -1) {
				defined[m[1]] = true
			}
		}
	}
	if len(defined) < 200 {
		t.Fatalf("only %d test functions found: the walk missed the module", len(defined))
	}
	cited := 0
	for name, page := range docPages(t) {
		for _, n := range testNameCite.FindAllString(page, -1) {
			cited++
			if !defined[n] {
				t.Errorf("%s names %s, which no _test.go defines", name, n)
			}
		}
	}
	if cited < 50 {
		t.Fatalf("only %d test names read in the docs: the pattern is broken", cited)
	}
}

// TestDocsCiteFilesThatExist: every repository path a page shows in code
// (a word starting with a top folder of the module, or a .go or .txtar
// file) and every relative link exists. A path may be written from
// the root, from the page's folder, or as the tail of a longer path
// (testdata/cle.txtar beside cmd/pret).
func TestDocsCiteFilesThatExist(t *testing.T) {
	files := repoFiles(t)
	tops := map[string]bool{}
	for _, f := range files {
		if !strings.Contains(f, "/") && f != "." {
			tops[f] = true
		}
	}
	exists := func(page, p string) bool {
		p = strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
		for _, f := range files {
			if ok, _ := path.Match(p, f); ok || f == path.Join(path.Dir(page), p) || strings.HasSuffix(f, "/"+p) {
				return true
			}
		}
		return false
	}
	checked := 0
	for name, page := range docPages(t) {
		for _, m := range mdLink.FindAllStringSubmatch(page, -1) {
			if !strings.Contains(m[1], "://") && !strings.HasPrefix(m[1], "mailto:") {
				checked++
				if !exists(name, m[1]) {
					t.Errorf("%s links to %s, which does not exist", name, m[1])
				}
			}
		}
		for _, code := range codeOf(page) {
			for _, w := range strings.Fields(code) {
				w = strings.Trim(w, `'"(),;:`)
				if !repoPathLike(w, tops) {
					continue
				}
				checked++
				if !exists(name, w) {
					t.Errorf("%s names %s, which is not in the repository", name, w)
				}
			}
		}
	}
	if checked < 30 {
		t.Fatalf("only %d paths read in the docs: the patterns are broken", checked)
	}
}

var sourceFile = regexp.MustCompile(`^[\w./*-]+\.(?:go|txtar)$`)

// repoPathLike: a word that can only mean a file of this repository.
func repoPathLike(w string, tops map[string]bool) bool {
	if strings.ContainsAny(w, "$~{}<>=[]…") || strings.Contains(w, "://") {
		return false
	}
	if sourceFile.MatchString(w) {
		return true
	}
	first, _, ok := strings.Cut(strings.TrimPrefix(w, "./"), "/")
	return ok && tops[first] && first != "." && !strings.Contains(w, "...")
}

// pretCommands is every command of the tree by its path ("valider",
// "completion bash"), with its aliases, and the flags each accepts.
func pretCommands(t *testing.T) (root *cobra.Command, all []*cobra.Command) {
	t.Helper()
	ios, _, _ := fakeStreams("", false, nil)
	root = newApp(ios).rootCommand()
	root.InitDefaultHelpCmd()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		all = append(all, c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return root, all
}

// invocation reads "pret valider --format json x" (or ./pret, /tmp/pret):
// the command it reaches, the words taken for commands, and the long
// flags after it.
func invocation(root *cobra.Command, words []string) (cmd *cobra.Command, unknown string, flags []string) {
	cmd = root
	i := 0
	for ; i < len(words); i++ {
		w := words[i]
		if !regexp.MustCompile(`^[a-z][a-z0-9-]*$`).MatchString(w) {
			break
		}
		sub := findSub(cmd, w)
		if sub == nil {
			if cmd == root {
				unknown = w // pret takes no argument: a word is a command
			}
			break
		}
		cmd = sub
	}
	for _, w := range words[i:] {
		if strings.ContainsAny(w, "|&;>") {
			break // the line goes on to another program
		}
		if strings.HasPrefix(w, "--") && len(w) > 2 {
			name, _, _ := strings.Cut(strings.Trim(w[2:], "[]`"), "=")
			flags = append(flags, name)
		}
	}
	return cmd, unknown, flags
}

func findSub(c *cobra.Command, name string) *cobra.Command {
	for _, sub := range c.Commands() {
		if sub.Name() == name || slices.Contains(sub.Aliases, name) {
			return sub
		}
	}
	return nil
}

func hasFlag(c *cobra.Command, name string) bool {
	return c.LocalFlags().Lookup(name) != nil || c.InheritedFlags().Lookup(name) != nil
}

// TestDocsCiteCommandsAndFlagsThatExist: wherever a page shows pret run
// in code, the command (or its English alias) and every long flag after
// it exist.
func TestDocsCiteCommandsAndFlagsThatExist(t *testing.T) {
	root, _ := pretCommands(t)
	runs := 0
	for name, page := range docPages(t) {
		for _, code := range codeOf(page) {
			words := strings.Fields(code)
			for i, w := range words {
				w = strings.Trim(w, `'"(`)
				if w != "pret" && !strings.HasSuffix(w, "/pret") {
					continue
				}
				runs++
				cmd, unknown, flags := invocation(root, words[i+1:])
				// A page may show a typo to show pret's answer to it.
				typo := unknown != "" && len(root.SuggestionsFor(unknown)) > 0 && strings.Contains(page, "vouliez-vous dire")
				if unknown != "" && !typo {
					t.Errorf("%s: « %s » names pret %s, which is no command", name, code, unknown)
				}
				for _, f := range flags {
					if !hasFlag(cmd, f) {
						t.Errorf("%s: « %s » gives --%s, which %q does not take", name, code, f, cmd.CommandPath())
					}
				}
			}
		}
	}
	if runs < 40 {
		t.Fatalf("only %d pret command lines read in the docs: the pattern is broken", runs)
	}
}

// TestEveryCommandAndFlagDocumented: every command and every flag pret
// has is shown in the code of a page of docs/: docs/cli.md, the command
// reference, or the page of its own (livrables.md, sunk.md).
func TestEveryCommandAndFlagDocumented(t *testing.T) {
	var code strings.Builder
	for name, page := range docPages(t) {
		if strings.HasPrefix(name, "docs/") {
			code.WriteString(strings.Join(codeOf(page), "\n") + "\n")
		}
	}
	_, all := pretCommands(t)
	flags := 0
	for _, c := range all {
		if c.Hidden || !c.HasParent() {
			continue
		}
		// "pret completion bash|zsh" shows both.
		shown := regexp.QuoteMeta(c.Parent().CommandPath()) + ` (?:[\w-]+\|)*` + regexp.QuoteMeta(c.Name()) + `\b`
		if !regexp.MustCompile(`(^|\W)` + shown).MatchString(code.String()) {
			t.Errorf("no page of docs/ shows « %s »", c.CommandPath())
		}
	}
	for _, c := range all {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			flags++
			if !f.Hidden && !regexp.MustCompile(`--`+regexp.QuoteMeta(f.Name)+`\b`).MatchString(code.String()) {
				t.Errorf("no page of docs/ explains --%s (%s)", f.Name, c.CommandPath())
			}
		})
	}
	if len(all) < 15 || flags < 25 {
		t.Fatalf("only %d commands and %d flags walked", len(all), flags)
	}
}
