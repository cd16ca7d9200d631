package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/testenv"
)

var knownKeys = []string{
	"seance.titre", "seance.date", "seance.debut", "seance.fin",
	"cle.dossier", "cle.nom", "cle.commentaire",
	"acces.fichier", "acces.modele",
	"organisateurs.canal", "organisateurs.partition", "organisateurs.compte",
	"feuille.valide", "feuille.invalide",
}

// badValues are YAML values of the wrong type for every setting.
var badValues = map[string]string{
	"liste":        "[x]",
	"liste-bloc":   "\n    - x",
	"section":      "{a: b}",
	"section-bloc": "\n    a: b",
	"nombre":       "123",
	"flottant":     "1.5",
	"booleen":      "true",
	"nul":          "",
	"tilde":        "~",
	"null":         "null",
	"binaire":      "!!binary aGVsbG8=",
}

// TestConfigWrongType: every setting x every wrong type is refused,
// naming the setting, its line and the form expected; nothing from the
// YAML library's English.
func TestConfigWrongType(t *testing.T) {
	for _, key := range knownKeys {
		sec, name, _ := strings.Cut(key, ".")
		for kind, val := range badValues {
			doc := fmt.Sprintf("%s:\n  %s: %s\n", sec, name, val)
			_, _, err := parseConfigFile([]byte(doc))
			if err == nil {
				t.Errorf("%s=%s accepté", key, kind)
				continue
			}
			msg := err.Error()
			if !strings.Contains(msg, key) || !strings.Contains(msg, "attendu") || !strings.HasPrefix(msg, "ligne ") {
				t.Errorf("%s=%s : %q", key, kind, msg)
			}
			checkNoEnglish(t, msg)
		}
	}
}

// TestConfigEmptyValue: an empty text where one is required is refused
// whatever source gave it (checked on the final value).
func TestConfigEmptyValue(t *testing.T) {
	required := map[string]bool{"seance.titre": true, "seance.date": true, "seance.debut": true, "seance.fin": true, "cle.dossier": true, "cle.nom": true, "acces.fichier": true}
	for _, key := range knownKeys {
		for _, v := range []string{"", "   ", "\t"} {
			err := checkSetting(key, v)
			refuse := required[key] || v == "\t"
			if refuse != (err != nil) {
				t.Errorf("%s=%q : %v", key, v, err)
			}
			if err != nil && (!strings.Contains(err.Error(), key) || required[key] && !strings.Contains(err.Error(), "attendu")) {
				t.Errorf("%s=%q : %v", key, v, err)
			}
		}
	}
}

func TestConfigSectionNotMap(t *testing.T) {
	for _, sec := range []string{"seance", "cle", "acces", "organisateurs"} {
		for _, v := range []string{"3", "[a]", "texte", "true"} {
			_, _, err := parseConfigFile([]byte(sec + ": " + v + "\n"))
			if err == nil || !strings.Contains(err.Error(), sec+" est une section") {
				t.Errorf("%s: %s : %v", sec, v, err)
			}
		}
	}
}

func TestConfigGoodValues(t *testing.T) {
	doc := `seance:
  titre: "Séance"
  date: 2026-11-05
  debut: "09:30"
  fin: 12:00
cle:
  dossier: ~/.ssh
  nom: id_ed25519_romeo
  commentaire: seance-novembre
acces:
  fichier: acces.md
  modele: ""
`
	tree, unknown, err := parseConfigFile([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	seance, cle := tree["seance"].(map[string]any), tree["cle"].(map[string]any)
	if len(unknown) != 0 || seance["date"] != "2026-11-05" || seance["fin"] != "12:00" || cle["dossier"] != "~/.ssh" {
		t.Fatalf("%+v %v", tree, unknown)
	}
	for sec, m := range tree {
		for name, v := range m.(map[string]any) {
			if err := checkSetting(sec+"."+name, v.(string)); err != nil && name != "modele" {
				t.Errorf("%s.%s : %v", sec, name, err)
			}
		}
	}
	// An anchor's value is read where an alias names it; a merge key is
	// refused, in French.
	tree, unknown, err = parseConfigFile([]byte("base: &b {nom: autre}\ncle:\n  dossier: &d /tmp/x\nacces:\n  fichier: *d\n"))
	if err != nil || tree["acces"].(map[string]any)["fichier"] != "/tmp/x" || len(unknown) != 1 {
		t.Fatalf("%+v %v %v", tree, unknown, err)
	}
	if _, _, err := parseConfigFile([]byte("base: &b {nom: autre}\ncle:\n  <<: *b\n")); err == nil || !strings.Contains(err.Error(), "ligne 3") {
		t.Fatalf("merge: %v", err)
	} else {
		checkNoEnglish(t, err.Error())
	}
}

// TestConfigManyUnknownKeys: 200,000 unknown keys (20,000 without
// PRET_LONG) in a file under the cap give one count, read in linear time
// (see the benchmark).
func TestConfigManyUnknownKeys(t *testing.T) {
	notShort(t)
	n := testenv.Scaled(20000, 200000) // 200,000 in the long run
	doc := manyKeys(n)
	if len(doc) > 1<<20 {
		t.Fatalf("document de %d octets, au-delà du plafond", len(doc))
	}
	_, unknown, err := parseConfigFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) != n {
		t.Fatalf("%d clés inconnues", len(unknown))
	}
	w := unknownWarning(unknown, "config.yaml")
	if !strings.HasPrefix(w, fmt.Sprint(n)+" clés de configuration inconnues, ignorées : ") || strings.Count(w, "\n") != 0 {
		t.Fatalf("%q", w)
	}
}

// manyKeys writes n distinct three-character keys with no value.
func manyKeys(n int) []byte {
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b strings.Builder
	for i := 0; n > 0; i++ {
		k := string([]byte{chars[i%62], chars[(i/62)%62], chars[(i/62/62)%62]})
		if strings.EqualFold(k, "cle") {
			continue // a section of pret, not an unknown key
		}
		b.WriteString(k + ":\n")
		n--
	}
	return []byte(b.String())
}

func TestConfigHostileYAML(t *testing.T) {
	lol := "a: &a [x,x,x,x,x,x,x,x,x]\n"
	prev := "a"
	for i := 0; i < 9; i++ {
		n := fmt.Sprintf("b%d", i)
		lol += n + ": &" + n + " [" + strings.Repeat("*"+prev+",", 9) + "*" + prev + "]\n"
		prev = n
	}
	merges := "x0: &x0 {nom: a}\n"
	for i := 1; i < 30; i++ {
		merges += fmt.Sprintf("x%d: &x%d\n  <<: [*x%d, *x%d]\n", i, i, i-1, i-1)
	}
	merges += "cle:\n  <<: *x29\n"
	for name, doc := range map[string]string{
		"rires":             lol + "cle:\n  nom: *b8\n",
		"fusions":           merges,
		"profond":           strings.Repeat("[", 20000),
		"tabulation":        "cle:\n\tnom: x\n",
		"deux-points":       "cle:\n  nom: a: b\n",
		"doublon":           "cle:\n  nom: a\n  nom: b\n",
		"doublon-casse":     "cle:\n  nom: a\n  Nom: b\n",
		"section-deux-fois": "cle:\n  nom: a\nCle:\n  dossier: b\n",
		"liste":             "- a\n- b\n",
		"pas-utf8":          "cle:\n  nom: \xff\xfe\n",
		"ancre":             "cle:\n  nom: *inconnue\n",
	} {
		_, _, err := parseConfigFile([]byte(doc))
		if err == nil {
			t.Errorf("%s accepté", name)
			continue
		}
		checkNoEnglish(t, err.Error())
	}
}

// TestConfigOneDocument: the file is one YAML document. What follows it
// (after --- or ...) is read and refused, exit 2 with the line, never
// silently dropped; a lone leading ---, a closing ..., an empty file and
// comments alone are still accepted.
func TestConfigOneDocument(t *testing.T) {
	home := testEnv(t)
	const second = "le fichier contient un second document YAML (après --- ou ...) ; pret n'en lit qu'un : réunissez les réglages en un seul"
	cases := []struct {
		name, doc, say string // say "" : accepted
		nom            string // cle.nom read when accepted
	}{
		{"second invalide", "cle:\n  nom: id_a\n---\n- [\n", "YAML invalide : ligne 4 : ", ""},
		{"type après ...", "cle:\n  nom: id_a\n...\ncle: 5\n", "YAML invalide : ligne 3 : ", ""},
		{"réglage deux fois", "cle:\n  nom: id_a\n---\ncle:\n  nom: id_b\n", "ligne 3 : " + second, ""},
		{"--- final", "cle:\n  nom: id_a\n---\n", "ligne 3 : " + second, ""},
		{"--- en tête", "---\ncle:\n  nom: id_a\n", "", "id_a"},
		{"--- en tête et ...", "# réglages\n---\ncle:\n  nom: id_a\n...\n# fin\n", "", "id_a"},
		{"vide", "", "", ""},
		{"commentaires", "# rien\n# encore rien\n", "", ""},
	}
	for _, tc := range cases {
		tree, _, err := parseConfigFile([]byte(tc.doc))
		if tc.say == "" {
			if err != nil {
				t.Errorf("%s : %v", tc.name, err)
				continue
			}
			if cle, _ := tree["cle"].(map[string]any); tc.nom != "" && (cle == nil || cle["nom"] != tc.nom) {
				t.Errorf("%s : %+v", tc.name, tree)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tc.say) {
			t.Errorf("%s : %v, attendu %q", tc.name, err, tc.say)
			continue
		}
		checkNoEnglish(t, err.Error())
		p := filepath.Join(home, "config.yaml")
		writeFile(t, p, []byte(tc.doc), 0o644)
		r := pretIn(t, "", "--config", p, "verifier")
		says(t, r, exitUsage, tc.say)
	}
}

func TestSessionDayRange(t *testing.T) {
	for _, d := range []string{"9999-12-31", "1999-12-31", "2101-01-01", "0001-01-01", "2026-02-30", "demain", ""} {
		if err := checkSetting("seance.date", d); err == nil || !strings.Contains(err.Error(), "seance.date") {
			t.Errorf("%s : %v", d, err)
		} else {
			checkNoEnglish(t, err.Error())
		}
	}
	for _, d := range []string{"2000-01-01", "2100-12-31", "2026-11-05"} {
		if err := checkSetting("seance.date", d); err != nil {
			t.Errorf("%s : %v", d, err)
		}
	}
}

func checkNoEnglish(t *testing.T, msg string) {
	t.Helper()
	for _, en := range []string{"yaml:", "cannot", "unmarshal", "parsing time", "found", "expected", "line ", "<nil>", "mapping", "not allowed", "while"} {
		if strings.Contains(msg, en) {
			t.Errorf("anglais dans %q", msg)
		}
	}
}

func BenchmarkConfig200kUnknownKeys(b *testing.B) {
	doc := manyKeys(200000)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := parseConfigFile(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// TestConfigNeverQuotesKeyPieces: a piece of a key body (any length from
// 16 characters, too short for the leak detector to stop the file) given
// as a time or as an unknown key's name is refused or warned about
// without being repeated.
func TestConfigNeverQuotesKeyPieces(t *testing.T) {
	const line = "QyNTUxOQAAACDa8jIMSIPjxNlhVXneMV9kA8RTJBdnwrovPzJa6yo1egAAAJAKjfzoCo38"
	for n := 16; n <= len(line); n += 5 {
		p := line[len(line)-n:]
		for _, key := range []string{"seance.debut", "seance.fin", "cle.nom"} {
			v := p
			if key == "cle.nom" {
				v = p + "/x"
			}
			if err := checkSetting(key, v); err == nil || strings.Contains(err.Error(), p[:12]) {
				t.Fatalf("%s=%q : %v", key, v, err)
			}
		}
		_, unknown, err := parseConfigFile([]byte(p + ": 1\n"))
		if err != nil {
			t.Fatal(err)
		}
		if w := unknownWarning(unknown, "config.yaml"); w == "" || strings.Contains(w, p[:12]) {
			t.Fatalf("%q", w)
		}
	}
}
