package checklist

import (
	"cmp"
	_ "embed"
	"regexp"
	"strconv"
	"strings"
)

// yamlerr.txt holds the YAML parsers' messages and their French, one
// "English<TAB>French" a line, the first that matches winning: go-yaml v2
// (through sigs.k8s.io/yaml: livrables, sunk) and v3 (go.yaml.in/yaml/v3:
// pret's config file) say the same things in nearly the same words.
// Their own words never reach the user.
//
//go:embed yamlerr.txt
var yamlReasonsText string

var yamlReasons = strings.Split(strings.TrimSpace(yamlReasonsText), "\n")

var (
	yamlLineRe = regexp.MustCompile(`line (\d+)`)
	typeErrRe  = regexp.MustCompile(`cannot unmarshal (\w+) into Go (?:struct field \w*\.(\S+)|value) of type (\S+)`)
)

// YAMLError says in French what a YAML or JSON decoder found wrong, with
// the line number when the parser gives one: "ligne 3 : clé en double".
// Nothing of the parser's English is kept but the name of a field and
// its line.
func YAMLError(err error) string {
	line, reason := YAMLProblem(err)
	if line > 0 {
		return "ligne " + strconv.Itoa(line) + " : " + reason
	}
	return reason
}

// YAMLProblem is YAMLError in its parts, for a caller that words the
// line its own way: the line (0 when the parser gives none) and the
// reason.
func YAMLProblem(err error) (line int, reason string) {
	msg := err.Error()
	if m := typeErrRe.FindStringSubmatch(msg); m != nil {
		return 0, "le champ « " + Escape(cmp.Or(m[2], "document")) + " » devrait être " + goTypeFrench(m[3]) + ", pas " + cmp.Or(jsonKinds[m[1]], "une valeur d'un autre type")
	}
	reason = "syntaxe invalide"
	for _, l := range yamlReasons {
		if en, fr, _ := strings.Cut(l, "\t"); strings.Contains(msg, en) {
			reason = fr
			break
		}
	}
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
	}
	return line, reason
}

func goTypeFrench(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "une liste"
	case strings.HasPrefix(t, "map["), strings.Contains(t, "."):
		return "un objet (clé: valeur)"
	case t == "string":
		return "un texte"
	case t == "bool":
		return "true ou false"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"), strings.HasPrefix(t, "float"):
		return "un nombre"
	}
	return "d'un autre type"
}

var jsonKinds = map[string]string{"string": "un texte", "number": "un nombre", "array": "une liste", "object": "un objet", "bool": "un booléen"}
