package house

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxLines is the longest function a reader holds in one screen.
const maxLines = 80

// tooLong are the functions over maxLines not split yet, each with the
// lane that owns its file. The list only shrinks: a name here that is no
// longer too long fails the test, so it is removed when its function is
// split.
var tooLong = map[string]string{}

// TestFunctionsFitOnAScreen: no function of the module (tests aside) is
// over maxLines lines, signature to closing brace, but those whose body
// is one table of data (a composite literal returned).
func TestFunctionsFitOnAScreen(t *testing.T) {
	root := moduleRoot(t)
	long := map[string]int{}
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		rel, _ := filepath.Rel(root, path)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil || isTable(fn.Body) {
				continue
			}
			if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > maxLines {
				long[funcName(filepath.ToSlash(rel), fn)] = n
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("only %d Go files read from %s", files, root)
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range long {
			if !yield(k) {
				return
			}
		}
	}) {
		if _, ok := tooLong[name]; !ok {
			t.Errorf("%s: %d lines, over %d: split it by meaning", name, long[name], maxLines)
		}
	}
	for name, lane := range tooLong {
		if _, ok := long[name]; !ok {
			t.Errorf("%s (lane %s) is no longer over %d lines: remove it from tooLong", name, lane, maxLines)
		}
	}
}

// funcName is "dir/file.go:Recv.Name", stable across line moves.
func funcName(file string, fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return file + ":" + fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if g, ok := t.(*ast.IndexExpr); ok {
		t = g.X
	}
	return fmt.Sprintf("%s:%s.%s", file, t.(*ast.Ident).Name, fn.Name.Name)
}

// isTable: the body returns one composite literal and does nothing else.
func isTable(body *ast.BlockStmt) bool {
	if len(body.List) != 1 {
		return false
	}
	r, ok := body.List[0].(*ast.ReturnStmt)
	if !ok || len(r.Results) != 1 {
		return false
	}
	_, ok = r.Results[0].(*ast.CompositeLit)
	return ok
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatal(err)
	}
	return dir
}
