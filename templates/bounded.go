package templates

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
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

// allowed are the built-ins a custom template may call: they compare or
// test and never build a larger value (printf, index, slice… are refused).
var allowed = map[string]bool{"eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true, "not": true, "and": true, "or": true, "len": true}

// walk refuses what could make rendering take longer than reading the
// template: loops, other templates (recursion), other functions.
func walk(tree *parse.Tree, n parse.Node) error {
	var children []parse.Node
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil { // an if or a with without else
			children = n.Nodes
		}
	case *parse.ActionNode:
		children = []parse.Node{n.Pipe}
	case *parse.IfNode:
		children = []parse.Node{n.Pipe, n.List, n.ElseList}
	case *parse.WithNode:
		children = []parse.Node{n.Pipe, n.List, n.ElseList}
	case *parse.PipeNode:
		for _, c := range n.Cmds {
			children = append(children, c)
		}
	case *parse.CommandNode:
		children = n.Args
	case *parse.ChainNode:
		children = []parse.Node{n.Node}
	case *parse.RangeNode:
		return fmt.Errorf("%s : « range » n'est pas permis : une boucle pourrait ne pas finir", where(tree, n))
	case *parse.TemplateNode:
		return fmt.Errorf("%s : « template » n'est pas permis", where(tree, n))
	case *parse.BreakNode, *parse.ContinueNode:
		return fmt.Errorf("%s : « break » et « continue » ne sont pas permis", where(tree, n))
	case *parse.IdentifierNode:
		if !allowed[n.Ident] {
			return fmt.Errorf("%s : la fonction « %s » n'est pas permise (permises : eq, ne, lt, le, gt, ge, and, or, not, len)", where(tree, n), n.Ident)
		}
	case *parse.TextNode, *parse.CommentNode, *parse.FieldNode, *parse.VariableNode, *parse.DotNode,
		*parse.NilNode, *parse.BoolNode, *parse.NumberNode, *parse.StringNode:
	default:
		return fmt.Errorf("construction de modèle non permise : %s", where(tree, n))
	}
	for _, c := range children {
		if err := walk(tree, c); err != nil {
			return err
		}
	}
	return nil
}

// where is "ligne L, colonne C" of a node, for the person fixing it.
func where(tree *parse.Tree, n parse.Node) string {
	loc, _ := tree.ErrorContext(n)
	if parts := strings.Split(loc, ":"); len(parts) >= 3 {
		return "ligne " + parts[len(parts)-2] + ", colonne " + parts[len(parts)-1]
	}
	return fmt.Sprint("position ", n.Position())
}

var (
	tmplPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^template: [^:]*:(\d+):(\d+:)? ?`) })
	tmplFixes  = strings.NewReplacer(
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
		"bad character", "caractère invalide",
		"missing value for command", "valeur manquante",
		"undefined variable", "variable non définie :",
		"wrong number of args for", "mauvais nombre d'arguments pour",
	)
	// A built-in's own error ("incompatible types for comparison: string
	// and int") is English through and through: it is said once in French.
	tmplCall = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`error calling (\w+): .*`) })
)

// frenchTemplateError keeps the line and the name text/template gives,
// with its English words in French.
func frenchTemplateError(err error) string {
	msg := tmplCall().ReplaceAllString(err.Error(), "« $1 » ne s'applique pas à ces valeurs (types différents, ou une valeur manque)")
	return tmplFixes.Replace(tmplPrefix().ReplaceAllString(msg, "ligne $1 : "))
}
