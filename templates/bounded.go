package templates

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"text/template"
	"text/template/parse"
)

var errTooLong = errors.New("résultat trop long")

// boundedBuffer stops a render at max bytes instead of growing.
type boundedBuffer struct {
	bytes.Buffer
	max int
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		return 0, errTooLong
	}
	return b.Buffer.Write(p)
}

// allowedFuncs replaces the built-in functions a custom template may use
// by plain ones on strings, numbers and booleans, and every other
// built-in (printf, html, js, call, index, slice…) by a refusal, so that
// no function can build a value larger than what it is given.
func allowedFuncs() template.FuncMap {
	cmp := func(name string, ok func(c int) bool) any {
		return func(a any, bs ...any) (bool, error) {
			if len(bs) == 0 {
				return false, fmt.Errorf("%s attend deux valeurs", name)
			}
			for _, b := range bs {
				c, err := compare(a, b)
				if err != nil {
					return false, err
				}
				if !ok(c) {
					return false, nil
				}
			}
			return true, nil
		}
	}
	return template.FuncMap{
		"eq":  cmp("eq", func(c int) bool { return c == 0 }),
		"ne":  cmp("ne", func(c int) bool { return c != 0 }),
		"lt":  cmp("lt", func(c int) bool { return c < 0 }),
		"le":  cmp("le", func(c int) bool { return c <= 0 }),
		"gt":  cmp("gt", func(c int) bool { return c > 0 }),
		"ge":  cmp("ge", func(c int) bool { return c >= 0 }),
		"not": func(a any) bool { return !truth(a) },
		"and": func(a any, bs ...any) any {
			for _, b := range bs {
				if !truth(a) {
					return a
				}
				a = b
			}
			return a
		},
		"or": func(a any, bs ...any) any {
			for _, b := range bs {
				if truth(a) {
					return a
				}
				a = b
			}
			return a
		},
		"len": func(a any) (int, error) {
			if s, ok := a.(string); ok {
				return len(s), nil
			}
			return 0, errors.New("len s'applique à un texte")
		},
	}
}

var allowed = map[string]bool{"eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true, "not": true, "and": true, "or": true, "len": true}

func truth(a any) bool {
	switch v := a.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case int:
		return v != 0
	}
	rv := reflect.ValueOf(a)
	return !rv.IsZero()
}

func compare(a, b any) (int, error) {
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), nil
		}
	case int:
		if y, ok := b.(int); ok {
			return x - y, nil
		}
	case bool:
		if y, ok := b.(bool); ok {
			if x == y {
				return 0, nil
			}
			return 1, nil
		}
	}
	return 0, errors.New("comparaison de deux valeurs de types différents")
}

// checkTree refuses what could make rendering take longer than reading
// the template: loops, other templates (and so recursion), and any
// function outside the short list above.
func checkTree(t *template.Template) error {
	if len(t.Templates()) > 1 {
		return errors.New("« define » et « block » ne sont pas permis ; écrivez le modèle d'un seul tenant")
	}
	w := walker{t.Tree}
	return w.walk(t.Tree.Root)
}

type walker struct{ tree *parse.Tree }

// line is "ligne L, colonne C" of a node, for the person fixing it.
func (w walker) line(n parse.Node) string {
	loc, _ := w.tree.ErrorContext(n)
	parts := strings.Split(loc, ":")
	if len(parts) >= 3 {
		return "ligne " + parts[len(parts)-2] + ", colonne " + parts[len(parts)-1]
	}
	return "position " + fmt.Sprint(n.Position())
}

func (w walker) walk(n parse.Node) error {
	if n == nil || reflect.ValueOf(n).IsNil() {
		return nil
	}
	switch n := n.(type) {
	case *parse.ListNode:
		for _, c := range n.Nodes {
			if err := w.walk(c); err != nil {
				return err
			}
		}
	case *parse.ActionNode:
		return w.walk(n.Pipe)
	case *parse.IfNode:
		return w.walkBranch(&n.BranchNode)
	case *parse.WithNode:
		return w.walkBranch(&n.BranchNode)
	case *parse.RangeNode:
		return fmt.Errorf("%s : « range » n'est pas permis : une boucle pourrait ne pas finir", w.line(n))
	case *parse.TemplateNode:
		return fmt.Errorf("%s : « template » n'est pas permis", w.line(n))
	case *parse.BreakNode, *parse.ContinueNode:
		return fmt.Errorf("%s : « break » et « continue » ne sont pas permis", w.line(n))
	case *parse.PipeNode:
		for _, c := range n.Cmds {
			if err := w.walk(c); err != nil {
				return err
			}
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			if err := w.walk(a); err != nil {
				return err
			}
		}
	case *parse.IdentifierNode:
		if !allowed[n.Ident] {
			return fmt.Errorf("%s : la fonction « %s » n'est pas permise (permises : eq, ne, lt, le, gt, ge, and, or, not, len)", w.line(n), n.Ident)
		}
	case *parse.ChainNode:
		return w.walk(n.Node)
	case *parse.TextNode, *parse.CommentNode, *parse.FieldNode, *parse.VariableNode, *parse.DotNode,
		*parse.NilNode, *parse.BoolNode, *parse.NumberNode, *parse.StringNode:
	default:
		return fmt.Errorf("construction de modèle non permise : %s", w.line(n))
	}
	return nil
}

func (w walker) walkBranch(b *parse.BranchNode) error {
	if err := w.walk(b.Pipe); err != nil {
		return err
	}
	if err := w.walk(b.List); err != nil {
		return err
	}
	return w.walk(b.ElseList)
}

// Built on first use: only a failing custom template needs them.
var (
	tmplPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^template: [^:]*:(\d+):(\d+:)? ?`) })
	tmplFixes  = sync.OnceValue(func() *strings.Replacer {
		return strings.NewReplacer(
			"unexpected EOF", "fin inattendue du modèle",
			"unexpected", "inattendu :",
			"unclosed action", "action non fermée (il manque « }} »)",
			"function", "fonction",
			"not defined", "non définie",
			"map has no entry for key", "nom inconnu :",
			"executing", "exécution de",
			"at <", "à <",
			"can't evaluate field", "champ inconnu :",
			" in type interface {}", "",
			"in type", "dans le type",
			">: ", "> : ",
			"eq: ", "eq : ",
			"bad character", "caractère invalide",
			"missing value for command", "valeur manquante",
			"undefined variable", "variable non définie :",
			"wrong number of args for", "mauvais nombre d'arguments pour",
			"error calling", "erreur dans",
			"unexpected {{end}}", "{{end}} inattendu",
		)
	})
)

// frenchTemplateError keeps the line and the name text/template gives,
// with its English words in French.
func frenchTemplateError(err error) string {
	msg := tmplPrefix().ReplaceAllString(err.Error(), "ligne $1 : ")
	return tmplFixes().Replace(msg)
}
