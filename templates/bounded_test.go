package templates

import (
	"runtime"
	"strings"
	"testing"
)

// hostileBodies are template fragments that would loop, recurse or build
// a huge value if they ran.
var hostileBodies = map[string]string{
	"range-int":       `{{range 100000}}x{{end}}`,
	"range-imbrique":  `{{range 100000}}{{range 100000}}{{end}}{{end}}`,
	"range-vide":      `{{range 1000000000}}{{end}}`,
	"range-chaine":    `{{range $i, $c := .Titre}}{{$c}}{{end}}`,
	"printf-largeur":  `{{printf "%0900000000d" 1}}`,
	"printf-etoile":   `{{printf "%*d" 900000000 1}}`,
	"js-en-cascade":   `{{"<" | js | js | js | js | js | js | js | js | js | js | js | js | js | js | js | js | js | js | js | js}}`,
	"html":            `{{html .Titre}}`,
	"print":           `{{print .Titre .Titre}}`,
	"call":            `{{call .Titre}}`,
	"index":           `{{index .Titre 0}}`,
	"slice":           `{{slice .Titre 0 1}}`,
	"define-recursif": `{{define "a"}}{{template "a" .}}{{template "a" .}}{{end}}{{template "a" .}}`,
	"block":           `{{block "b" .}}x{{end}}`,
	"template":        `{{template "acces.md" .}}`,
	"urlquery":        `{{urlquery .Titre}}`,
}

// wrappers put a fragment where the checker must still find it.
var wrappers = map[string]string{
	"seul":         "%s",
	"dans-if":      "{{if .Titre}}%s{{end}}",
	"dans-else":    "{{if not .Titre}}{{else}}%s{{end}}",
	"dans-with":    "{{with .Date}}%s{{end}}",
	"dans-if-faux": "{{if eq .Date \"jamais\"}}%s{{end}}",
	"apres-texte":  "# Accès\n\n{{.Phrase}}\n%s\n",
}

// TestRenderRefusesHostile: every hostile fragment, wherever it sits, is
// refused before it runs, with a French reason, and costs little memory.
func TestRenderRefusesHostile(t *testing.T) {
	for bname, body := range hostileBodies {
		for wname, wrap := range wrappers {
			text := strings.Replace(wrap, "%s", body, 1)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			out, err := Render(text, sample(false))
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Errorf("%s/%s : accepté (%d octets)", bname, wname, len(out))
				continue
			}
			checkTemplateFrench(t, err.Error())
			if a := after.TotalAlloc - before.TotalAlloc; a > 8<<20 {
				t.Errorf("%s/%s : %d octets alloués", bname, wname, a)
			}
		}
	}
}

// TestRenderBoundedOutput: a template of allowed constructs whose result
// would pass 1 Mio stops at 1 Mio with a French error.
func TestRenderBoundedOutput(t *testing.T) {
	a := sample(false)
	a.SessionTitle = strings.Repeat("T", 64<<10)
	text := strings.Repeat("{{.Titre}}", 20)
	if _, err := Render(text, a); err == nil || !strings.Contains(err.Error(), "dépasse 1 Mio") {
		t.Fatalf("résultat de 1,25 Mio : %v", err)
	}
	big := strings.Repeat("x", 1<<20+1)
	if _, err := Render(big, a); err == nil || !strings.Contains(err.Error(), "trop grand") {
		t.Fatalf("modèle de plus de 1 Mio : %v", err)
	}
	// Exactly at the cap is fine.
	if out, err := Render(strings.Repeat("y", 1<<20), a); err != nil || len(out) != 1<<20 {
		t.Fatalf("résultat de 1 Mio pile : %d, %v", len(out), err)
	}
}

// TestRenderAllowedFuncs: what stays allowed behaves like text/template.
func TestRenderAllowedFuncs(t *testing.T) {
	cases := map[string]string{
		`{{if eq .Statut "demande"}}D{{else}}V{{end}}`:                    "D",
		`{{if ne .Statut "demande"}}D{{else}}V{{end}}`:                    "V",
		`{{if and .Titre (not .Statut)}}a{{else}}b{{end}}`:                "b",
		`{{if or "" .Date}}{{.Date}}{{end}}`:                              "2026-10-20",
		`{{if gt (len .Date) 5}}long{{end}}`:                              "long",
		`{{with .Empreinte}}{{.}}{{end}}`:                                 sample(false).Fingerprint,
		`{{$d := .Date}}{{$d}}`:                                           "2026-10-20",
		`{{/* commentaire */}}ok`:                                         "ok",
		`{{if lt 1 2}}{{if le 2 2}}{{if ge 3 2}}oui{{end}}{{end}}{{end}}`: "oui",
	}
	for text, want := range cases {
		got, err := Render(text, sample(false))
		if err != nil || string(got) != want {
			t.Errorf("%s : %q, %v ; attendu %q", text, got, err, want)
		}
	}
}

// TestRenderErrorsFrench: a broken template or an unknown name says so
// in French, with where.
func TestRenderErrorsFrench(t *testing.T) {
	for _, text := range []string{"{{.NomDuServeur}}", "{{.Date", "{{if .Date}}", "{{end}}", "{{.Date.Jour}}", "{{$x}}", "{{eq .Date}}", "{{eq .Date 3}}", "{{inconnue .Date}}"} {
		_, err := Render(text, sample(false))
		if err == nil {
			t.Errorf("%q accepté", text)
			continue
		}
		checkTemplateFrench(t, err.Error())
	}
}

func checkTemplateFrench(t *testing.T, msg string) {
	t.Helper()
	for _, en := range []string{"template:", "unexpected", "executing", "function", "not defined", "map has no entry", "can't", "error calling", "unclosed", "undefined", "incompatible", "string and", "missing argument"} {
		if strings.Contains(msg, en) {
			t.Errorf("anglais dans %q", msg)
		}
	}
	if !strings.HasPrefix(msg, "modèle d'acces.md") {
		t.Errorf("message sans contexte : %q", msg)
	}
}

func BenchmarkRenderHostile(b *testing.B) {
	text := strings.Repeat(`{{range 100000}}x{{end}}`, 1000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(text, sample(false)); err == nil {
			b.Fatal("accepté")
		}
	}
}
