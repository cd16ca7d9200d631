package submissions

import (
	"path/filepath"
	"strings"
	"testing"
)

// editor is lines as Moodle's editor writes them in onlinetext.html.
func editor(lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(`<p dir="ltr" style="text-align: left;">` + l + "<br></p>")
	}
	return b.String()
}

// TestOnlineTextIsRead: a Moodle assignment set to « Texte en ligne » exports
// onlinetext.html, in the learner's online-text folder or under a flat name; it is
// read as her acces.md (Moodle's editor wraps lines in <p dir="ltr"
// style="text-align: left;">, writes &nbsp; before a colon and <br> at the end
// of a line). No signature is expected there, even when signatures are required.
// On disk and in a zip.
func TestOnlineTextIsRead(t *testing.T) {
	fp := newKey(44).fp
	good := editor("Date de la demande&nbsp;: 16/10/2026", "Clé publique&nbsp;: ~/.ssh/id_ed25519_romeo.pub",
		"256 "+fp+" alice@portable (ED25519)", "Connexion uniquement vers le n&oelig;ud de login indiqu&eacute; par les organisateurs.")
	files := map[string]entry{
		"Dupont Alice_1_assignsubmission_onlinetext_/onlinetext.html": {body: good},
		"Martin Bob_2_assignsubmission_onlinetext_onlinetext.html": {body: editor("Date de la demande&nbsp;: 16/10/2026",
			`<span style="display:none">Connexion uniquement vers le nœud de login indiqué par les organisateurs.</span>`)},
		"Roux Emma_3_assignsubmission_onlinetext_/image.png": {body: "PNG"},
	}
	rules := testRules
	rules.RequireSignature = true
	for kind, arg := range bothWays(t, files) {
		res := byPath(Validate([]string{arg[0]}, Options{Rules: rules}), arg[1])
		alice := res["Dupont Alice_1_assignsubmission_onlinetext_/onlinetext.html"]
		if !alice.Valid || alice.Apprenant != "Dupont Alice" || len(alice.Problems) != 0 {
			t.Errorf("%s: Alice's online text: %+v", kind, alice)
		}
		bob := res["Martin Bob_2_assignsubmission_onlinetext_onlinetext.html"]
		if bob.Valid || bob.Apprenant != "Martin Bob" || codesOfResult(bob) != "missing-pubkey-path missing-fingerprint missing-sentence" {
			t.Errorf("%s: Bob's online text: %s %+v", kind, codesOfResult(bob), bob)
		}
		// A picture of an online text alone is still no acces.md; what she
		// is asked for can be online text (outside tester, stop 40: the
		// message said online text was not read).
		if emma := res["Roux Emma_3_assignsubmission_onlinetext_/"]; len(emma.Problems) != 1 || emma.Problems[0].Code != "no-acces-md" ||
			!strings.Contains(emma.Problems[0].Message, "ou un texte en ligne") {
			t.Errorf("%s: Emma's picture: %+v", kind, emma)
		}
	}
}

// TestOnlineTextNamedIsRead: onlinetext.html named on the command line, in
// its online-text folder or under its flat name, is read as online text, as
// when its folder is named: not as Markdown, and unsigned (outside tester, F3).
func TestOnlineTextNamedIsRead(t *testing.T) {
	good := editor("Date de la demande&nbsp;: 16/10/2026", "Clé publique&nbsp;: ~/.ssh/id_ed25519_romeo.pub",
		"256 "+newKey(44).fp+" alice@portable (ED25519)", "Connexion uniquement vers le n&oelig;ud de login indiqu&eacute; par les organisateurs.")
	dir := t.TempDir()
	named := []string{"ot/Dupont Alice_1_assignsubmission_onlinetext_/onlinetext.html", "ot/Martin Bob_2_assignsubmission_onlinetext_onlinetext.html"}
	files := map[string]entry{}
	for _, n := range named {
		files[n] = entry{body: good}
	}
	layout(t, dir, files)
	rules := testRules
	rules.RequireSignature = true
	for _, n := range named {
		res := Validate([]string{filepath.Join(dir, filepath.FromSlash(n))}, Options{Rules: rules})
		if len(res) != 1 || !res[0].Valid || len(res[0].Problems) != 0 {
			t.Errorf("%s: %+v", n, res)
		}
	}
}
