package checklist

import (
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// englishWords are words of the parsers' messages that must never reach
// the user.
var englishWords = regexp.MustCompile(`(?i)\b(yaml:|json:|cannot|unmarshal|found|expected|mapping|allowed|line \d|character|into|struct|field|error|converting|already|set in map|did not|invalid)\b`)

// TestYAMLErrorFrench: every YAML mistake a learner makes, and the type
// errors of the API decoder, come out in French with the line number, not
// one English word of the parser.
func TestYAMLErrorFrench(t *testing.T) {
	for _, doc := range []string{
		"a: b: c\n", "a:\n\t- b\n", "a: [1, 2\n", "a: \"x\n", "a: 1\na: 2\n", "- a\nb: c\n",
		"a:\n  b: 1\n c: 2\n", "key: @x\n", "a: {b\n", "a: b\n  c: d\n", "a: \"\\q\"\n", "a: *nope\n",
		"a: !!binary x\n", "\xff: 1\n", "a: b\x01\n", "a:\n- b\n -c\n  d: e\n",
	} {
		_, err := yaml.YAMLToJSONStrict([]byte(doc))
		if err == nil {
			continue
		}
		got := YAMLError(err)
		if englishWords.MatchString(got) {
			t.Errorf("%q: %q (from %q) keeps English", doc, got, err)
		}
		if strings.Contains(err.Error(), "line ") && !strings.Contains(got, "ligne ") {
			t.Errorf("%q: %q lost the line of %q", doc, got, err)
		}
	}
	var v struct {
		Spec struct {
			Backoff int32 `json:"backoffLimit"`
		} `json:"spec"`
	}
	err := yaml.UnmarshalStrict([]byte("spec:\n  backoffLimit: beaucoup\n"), &v)
	if got := YAMLError(err); englishWords.MatchString(got) || !strings.Contains(got, "backoffLimit") {
		t.Errorf("%q from %q", got, err)
	}
}
