package checklist

import (
	"regexp"
	"strings"
	"testing"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// englishWords are words of the parsers' messages that must never reach
// the user.
var englishWords = regexp.MustCompile(`(?i)\b(yaml:|json:|cannot|unmarshal|found|expected|mapping|allowed|line \d|character|into|struct|field|error|converting|already|set in map|did not|invalid)\b`)

// TestYAMLErrorFrench: every YAML mistake a learner makes comes out in
// French with the line number, not one English word of the parser.
func TestYAMLErrorFrench(t *testing.T) {
	// go-yaml v2 (through sigs.k8s.io/yaml: livrables, sunk) and v3 (the
	// config file) go through the same translator.
	parsers := map[string]func([]byte) error{
		"v2": func(b []byte) error { _, err := yaml.YAMLToJSONStrict(b); return err },
		"v3": func(b []byte) error { var n yamlv3.Node; return yamlv3.Unmarshal(b, &n) },
	}
	for _, doc := range []string{
		"a: b: c\n", "a:\n\t- b\n", "a: [1, 2\n", "a: \"x\n", "a: 1\na: 2\n", "- a\nb: c\n",
		"a:\n  b: 1\n c: 2\n", "key: @x\n", "a: {b\n", "a: b\n  c: d\n", "a: \"\\q\"\n", "a: *nope\n",
		"a: !!binary x\n", "\xff: 1\n", "a: b\x01\n", "a:\n- b\n -c\n  d: e\n", "seance:\n  date: [\n",
	} {
		for name, parse := range parsers {
			err := parse([]byte(doc))
			if err == nil {
				continue
			}
			got := YAMLError(err)
			if englishWords.MatchString(got) {
				t.Errorf("%s %q: %q (from %q) keeps English", name, doc, got, err)
			}
			if strings.Contains(err.Error(), "line ") && !strings.Contains(got, "ligne ") {
				t.Errorf("%s %q: %q lost the line of %q", name, doc, got, err)
			}
			if got == "syntaxe invalide" || strings.HasSuffix(got, ": syntaxe invalide") {
				t.Logf("%s %q: no reason for %q", name, doc, err)
			}
		}
	}
	// A key given twice: v3 names both lines, the first is where.
	var m map[string]any
	err := yamlv3.Unmarshal([]byte("cle:\n  nom: a\ncle:\n  nom: b\n"), &m)
	if got := YAMLError(err); got != "ligne 3 : clé en double" {
		t.Errorf("duplicate key: %q from %q", got, err)
	}
	// v2 gives the line of the second value, the line after the key for
	// a section: the key is named so that it can be found.
	for doc, want := range map[string]string{
		"a: 1\na: 2\n":                     "clé « a » en double : sa seconde valeur commence à la ligne 2",
		"cle:\n  nom: a\ncle:\n  nom: b\n": "clé « cle » en double : sa seconde valeur commence à la ligne 4",
		"\"a\\\"b\": 1\n'a\"b': 2\n":       "clé « a\"b » en double : sa seconde valeur commence à la ligne 2",
	} {
		_, err := yaml.YAMLToJSONStrict([]byte(doc))
		if got := YAMLError(err); got != want {
			t.Errorf("duplicate key %q: %q from %q", doc, got, err)
		}
	}
}
