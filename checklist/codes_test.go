package checklist

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestCodesTable: every code has one row, a severity and its five texts;
// the organiser's help and the learner's advice speak to their reader.
func TestCodesTable(t *testing.T) {
	seen := map[Code]bool{}
	for _, c := range Codes {
		if seen[c.Code] || c.Severity != SevError && c.Severity != SevWarning ||
			c.Label == "" || c.Detail == "" || c.Help == "" || c.Advice == "" || c.Doc == "" {
			t.Errorf("incomplete or repeated row: %+v", c)
		}
		seen[c.Code] = true
		// The worksheet's feedback is read by the learner: never about her.
		if strings.Contains(c.Advice, "apprenant") {
			t.Errorf("%s: the advice speaks of the learner, not to her: %q", c.Code, c.Advice)
		}
		if c.Label == c.Detail || c.Help == c.Advice {
			t.Errorf("%s: two readers, one text: %+v", c.Code, c)
		}
	}
	if !strings.Contains(Info(CodePrivateKeyLeak).Help, leakIncident) {
		t.Error("the leak's help does not say the incident")
	}
}

// TestInfoRefusesUnknownCode: a code outside Codes is pret's bug, said
// loudly, not a row labelled with its own name.
func TestInfoRefusesUnknownCode(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "inconnu-xyz") {
			t.Fatalf("Info of an unknown code: %v", r)
		}
	}()
	Info("inconnu-xyz")
}

// moduleRoot is the folder of go.mod, above this package's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// declaredCodes are the constants of type Code codes.go declares.
func declaredCodes(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for i, name := range vs.Names {
				v, _ := strconv.Unquote(vs.Values[i].(*ast.BasicLit).Value)
				out[name.Name] = v
			}
		}
	}
	return out
}

// TestCodesRegistered: every constant of type Code has its row and every
// row its constant; outside codes.go no code is written as a literal where
// a Code goes (a field Code, a comparison with one, the rules' add), so a
// code exists once, in codes.go.
func TestCodesRegistered(t *testing.T) {
	declared := declaredCodes(t)
	rows := map[string]bool{}
	for _, c := range Codes {
		rows[string(c.Code)] = true
	}
	values := map[string]bool{}
	for name, v := range declared {
		values[v] = true
		if !rows[v] {
			t.Errorf("%s (%q) has no row in Codes", name, v)
		}
	}
	for v := range rows {
		if !values[v] {
			t.Errorf("row %q has no constant", v)
		}
	}
	if len(declared) != len(Codes) {
		t.Errorf("%d constants for %d rows", len(declared), len(Codes))
	}
	n := 0
	for file, lits := range codeLiterals(t, moduleRoot(t)) {
		n++
		for _, l := range lits {
			t.Errorf("%s: code %s written as a literal: name it by its constant in checklist/codes.go", file, l)
		}
	}
	if n < 50 {
		t.Fatalf("only %d Go files read", n)
	}
}

var codeShape = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// codeLiterals walks every non-test Go file of the module but codes.go:
// the string literals it finds where a code goes, by file.
func codeLiterals(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || rel == filepath.Join("checklist", "codes.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		out[rel] = literalsWhereCodesGo(f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func literalsWhereCodesGo(f *ast.File) []string {
	var found []string
	lit := func(e ast.Expr) {
		if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
			if v, err := strconv.Unquote(b.Value); err == nil && codeShape.MatchString(v) {
				found = append(found, b.Value)
			}
		}
	}
	isCode := func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.SelectorExpr:
			return e.Sel.Name == "Code"
		case *ast.Ident:
			return e.Name == "code" || e.Name == "Code"
		}
		return false
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.KeyValueExpr:
			if isCode(n.Key) {
				lit(n.Value)
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				if isCode(n.X) {
					lit(n.Y)
				}
				if isCode(n.Y) {
					lit(n.X)
				}
			}
		case *ast.CallExpr:
			name := ""
			switch fn := n.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			}
			// A rule's add takes a severity: a check's add (verifier, sunk) takes an id.
			if name == "has" || name == "Code" || name == "Info" || name == "errorsOf" || name == "add" && takesSeverity(n) {
				for _, a := range n.Args {
					lit(a)
				}
			}
		}
		return true
	})
	return found
}

func takesSeverity(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if s, ok := a.(*ast.SelectorExpr); ok && strings.HasPrefix(s.Sel.Name, "Sev") {
			return true
		}
		if id, ok := a.(*ast.Ident); ok && (strings.HasPrefix(id.Name, "Sev") || id.Name == "sev") {
			return true
		}
	}
	return false
}

// TestCodesDocumented: each code's Doc names a section of docs/ (a
// heading whose GitHub anchor it is) that mentions the code in backquotes.
func TestCodesDocumented(t *testing.T) {
	docs := filepath.Join(moduleRoot(t), "docs")
	for _, c := range Codes {
		page, anchor, ok := strings.Cut(c.Doc, "#")
		if !ok {
			t.Errorf("%s: Doc %q is not page.md#anchor", c.Code, c.Doc)
			continue
		}
		data, err := os.ReadFile(filepath.Join(docs, page))
		if err != nil {
			t.Errorf("%s: %v", c.Code, err)
			continue
		}
		section, ok := sectionOf(string(data), anchor)
		if !ok {
			t.Errorf("%s: docs/%s has no heading with the anchor #%s", c.Code, page, anchor)
		} else if !strings.Contains(section, "`"+string(c.Code)+"`") {
			t.Errorf("%s: the section docs/%s#%s does not mention it", c.Code, page, anchor)
		}
	}
}

// sectionOf is the text under the heading whose anchor is anchor, up to
// the next heading of the same level or above.
func sectionOf(page, anchor string) (string, bool) {
	lines := strings.Split(page, "\n")
	for i, l := range lines {
		level := len(l) - len(strings.TrimLeft(l, "#"))
		if level == 0 || !strings.HasPrefix(l[level:], " ") || githubAnchor(l[level+1:]) != anchor {
			continue
		}
		end := len(lines)
		for j := i + 1; j < len(lines); j++ {
			if k := len(lines[j]) - len(strings.TrimLeft(lines[j], "#")); k > 0 && k <= level && strings.HasPrefix(lines[j][k:], " ") {
				end = j
				break
			}
		}
		return strings.Join(lines[i+1:end], "\n"), true
	}
	return "", false
}

// githubAnchor is GitHub's anchor of a heading: lower case, spaces to
// hyphens, every other character but letters, digits, - and _ dropped.
func githubAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
