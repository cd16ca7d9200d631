package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	mrand "math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/romeo-pret/pret/templates"
)

// nasty are the pieces of generated names, comments and lines: controls,
// escape sequences, C1, bidi overrides, line separators, invalid UTF-8,
// and text that imitates pret's own lines.
var nasty = []string{
	"a", "é", " ", "\t", "\r", "\n", "\x1b[31m", "\x1b]0;titre\x07", "\x1b[2J", "\x7f", "\x08",
	"\u0085", "\u009b31m", "\u202e", "\u2066", "\u2069", "\u200f", "\u2028", "\xff", "\xc3",
	"\nRésumé : 99 fichiers, 99 valides, 0 invalide\n", "\nOK         acces-valid\n", "\npret: erreur : rien\n",
}

func nastyString(rng *mrand.Rand, noNewline bool) string {
	var b strings.Builder
	for n := 1 + rng.IntN(6); n > 0; n-- {
		b.WriteString(nasty[rng.IntN(len(nasty))])
	}
	s := b.String()
	if noNewline {
		s = strings.NewReplacer("\n", "", "\r", "").Replace(s)
	}
	return "x" + s
}

// terminalClean fails on the first character of out a terminal would act
// on: C0 controls (a line break ends each line, nothing else), DEL, C1,
// bidi controls, line separators, invalid UTF-8.
func terminalClean(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("%s: invalid UTF-8 in\n%q", what, out)
	}
	for _, r := range out {
		if r == '\n' {
			continue
		}
		if r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0x061c || r == 0x200e || r == 0x200f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029 {
			t.Fatalf("%s: %U reaches the terminal in\n%q", what, r, out)
		}
	}
}

// TestEveryStringFromFilesIsEscaped: file and folder names (pret valider),
// key comments (pret empreinte, pret cle), sbatch lines (pret livrables)
// and SUNK values made of generated hostile strings come out escaped in
// texte, on stdout and stderr, and as valid JSON and JUnit XML; a folder
// name cannot add a summary line.
func TestEveryStringFromFilesIsEscaped(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(15, 16))
	n := 25
	if testing.Short() {
		n = 5
	}
	good := "Date de la demande : 2026-10-16\nClé : ~/.ssh/id_ed25519_romeo.pub\n256 SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU kim (ED25519)\n\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n"
	sbatchModel, _ := templates.Model("sommeil.sbatch")
	for i := 0; i < n; i++ {
		home := testEnv(t)
		write := func(rel, content string) { put(t, home, rel, content) }
		// Folder names may hold anything but "/" and NUL.
		folder := strings.NewReplacer("/", "", "\x00", "").Replace(nastyString(rng, false))
		write(filepath.Join("rendus", folder, "acces.md"), good+nastyString(rng, true)+"\n")
		write(filepath.Join("rendus", folder+"2", "acces.md"), "rien\n")
		blob := "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"
		comment := nastyString(rng, true)
		write("cle.pub", "ssh-ed25519 "+blob+" "+comment+"\n")
		write(".ssh/id_ed25519_romeo.pub", "ssh-ed25519 "+blob+" "+comment+"\n")
		lines := strings.Split(string(sbatchModel), "\n")
		lines[len(lines)-2] = "echo " + nastyString(rng, true)
		lines = append(lines[:2], append([]string{"#SBATCH --comment=" + nastyString(rng, true)}, lines[2:]...)...)
		write("livrables/sommeil.sbatch", strings.Join(lines, "\n"))
		// YAML's double-quoted escapes are Go's: the value holds the
		// control characters themselves once parsed.
		write("valeurs.yaml", fmt.Sprintf("scheduler:\n  enabled: true\n  name: %q\n", comment))
		write("politique.yaml", "base:\n  spec:\n    schedulerName: autre\n")

		type run struct {
			args   []string
			format string
		}
		var runs []run
		for _, f := range []string{"texte", "json", "junit", "csv", "sarif", "github", "html"} {
			runs = append(runs, run{[]string{"valider", "rendus", "--tous", "--format", f}, f})
		}
		for _, f := range []string{"texte", "json", "junit"} {
			runs = append(runs, run{[]string{"livrables", "livrables", "--format", f}, f},
				run{[]string{"sunk", "--valeurs", "valeurs.yaml", "--politique", "politique.yaml", "--format", f}, f})
		}
		runs = append(runs, run{[]string{"empreinte", "cle.pub"}, "texte"},
			run{[]string{"cle"}, "texte"},
			run{[]string{"valider", filepath.Join("rendus", folder, "absent.md")}, "texte"})

		for _, r := range runs {
			res := pretIn(t, "", r.args...)
			what := strings.Join(r.args, " ")
			if res.code == 2 && r.args[0] != "valider" {
				t.Fatalf("%s: usage error, the inputs were meant to be read:\n%s", what, res.stderr)
			}
			terminalClean(t, what+" (stderr)", res.stderr)
			switch r.format {
			case "texte", "github", "csv":
				// csv and github are read by people and by CI logs too;
				// a tab in a GitHub annotation moves nothing.
				out := res.stdout
				if r.format == "github" {
					out = strings.ReplaceAll(out, "\t", " ")
				}
				if r.format == "csv" {
					// RFC 4180's line end, written by pret, not a file.
					out = strings.ReplaceAll(out, "\r\n", "\n")
				}
				terminalClean(t, what, out)
				if r.args[0] == "valider" && r.args[1] == "rendus" && r.format == "texte" && strings.Count("\n"+res.stdout, "\nRésumé") != 1 {
					t.Fatalf("%s: a file name added a summary line:\n%s", what, res.stdout)
				}
			case "json", "sarif":
				if !json.Valid([]byte(res.stdout)) {
					t.Fatalf("%s: invalid JSON:\n%s", what, res.stdout)
				}
			case "junit":
				var v any
				if err := xml.Unmarshal([]byte(res.stdout), &v); err != nil || !utf8.ValidString(res.stdout) {
					t.Fatalf("%s: invalid XML (%v):\n%s", what, err, res.stdout)
				}
			case "html":
				// html/template escapes markup; strings from files are
				// valid UTF-8 without C0 controls (checklist.XMLText).
				if !utf8.ValidString(res.stdout) || strings.ContainsAny(res.stdout, "\x00\x1b\x07\x08") {
					t.Fatalf("%s: invalid UTF-8 or control characters in HTML", what)
				}
			}
		}
	}
}
