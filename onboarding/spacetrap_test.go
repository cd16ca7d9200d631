package onboarding

import (
	"bytes"
	"strings"
	"testing"
)

// TestSpaceTrap (issue 32): a space before, after, or not the ordinary one
// is named by its character, never by the passphrase.
func TestSpaceTrap(t *testing.T) {
	for p, want := range map[string]string{
		" une passphrase solide":       "commence par un espace (U+0020)",
		"une passphrase solide ":       "finit par un espace (U+0020)",
		"une passphrase solide\u00a0":  "finit par un espace insécable (U+00A0)",
		"une\u00a0passphrase solide":   "contient un espace insécable (U+00A0)",
		"une\u2009passphrase solide":   "contient un espace spécial (U+2009)",
		"une passphrase solide":        "",
		"une  passphrase   solide !!!": "",
	} {
		got := SpaceTrap(p)
		if want == "" && got != "" || !strings.Contains(got, want) || got != "" && strings.Contains(got, "solide") {
			t.Errorf("SpaceTrap(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestAskPassphraseSpaceTrap: typed, such a passphrase is said and kept
// only after a yes; a no asks for another one. Both paths, never echoed.
func TestAskPassphraseSpaceTrap(t *testing.T) {
	trap := "une\u00a0passphrase solide"
	for _, keep := range []bool{false, true} {
		answers := []answer{{kind: "password", text: trap}, {kind: "select", text: map[bool]string{false: "Non", true: "Oui"}[keep]}}
		want := trap
		if keep {
			answers = append(answers, answer{kind: "password", text: trap})
		} else {
			answers = append(answers, answer{kind: "password", text: goodPass}, answer{kind: "password", text: goodPass})
			want = goodPass
		}
		var out bytes.Buffer
		p := &fakePrompter{t: t, answers: answers}
		got, err := AskPassphrase(p, &out)
		if err != nil || string(got) != want || len(p.answers) != 0 {
			t.Fatalf("keep %v: %q %v, left %v", keep, got, err, p.answers)
		}
		if s := out.String(); !strings.Contains(s, "Attention : la passphrase contient un espace insécable (U+00A0)") || strings.Contains(s, "solide") {
			t.Errorf("keep %v: screen %q", keep, s)
		}
		if !contains(p.asked, "select: Garder cette passphrase telle quelle ?") {
			t.Errorf("keep %v: not asked: %v", keep, p.asked)
		}
	}
}
