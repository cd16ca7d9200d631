package onboarding

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// applyDiff rebuilds the new text from the old one and the hunks: the
// property that makes a diff right, whatever lines it chose to show.
func applyDiff(t *testing.T, old []string, diff string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	var out []string
	at := 0 // next old line to copy
	for _, l := range lines[2:] {
		switch {
		case strings.HasPrefix(l, "@@ "):
			var ol, oc, nl, nc int
			if _, err := fmt.Sscanf(l, "@@ -%d,%d +%d,%d @@", &ol, &oc, &nl, &nc); err != nil {
				// one-line ranges have no count
				f := strings.Fields(l)
				fmt.Sscanf(strings.Split(f[1], ",")[0], "-%d", &ol)
				if !strings.Contains(f[1], ",") {
					oc = 1
				} else {
					fmt.Sscanf(strings.Split(f[1], ",")[1], "%d", &oc)
				}
				if oc == 0 {
					ol++
				}
			} else if oc == 0 {
				ol++
			}
			for at < ol-1 {
				out = append(out, old[at])
				at++
			}
		case strings.HasPrefix(l, " "):
			if old[at] != l[1:] {
				t.Fatalf("context %q is not old line %d %q", l, at+1, old[at])
			}
			out = append(out, l[1:])
			at++
		case strings.HasPrefix(l, "-"):
			if old[at] != l[1:] {
				t.Fatalf("removed %q is not old line %d %q", l, at+1, old[at])
			}
			at++
		case strings.HasPrefix(l, "+"):
			out = append(out, l[1:])
		default:
			t.Fatalf("line %q", l)
		}
	}
	return append(out, old[at:]...)
}

// TestUnifiedDiffGenerated: for random edits of a random text, the diff
// turns the old lines into the new ones, shows only changed hunks with at
// most three lines of context, and has no colour unless asked.
func TestUnifiedDiffGenerated(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	words := []string{"Date", "de la demande", "2026-10-20", "Empreinte", "", "> Connexion", "- Chemin"}
	for n := 0; n < 2000; n++ {
		var a []string
		for i := r.Intn(30); i > 0; i-- {
			a = append(a, words[r.Intn(len(words))]+fmt.Sprint(r.Intn(3)))
		}
		b := append([]string(nil), a...)
		for e := r.Intn(5); e > 0; e-- {
			switch k := r.Intn(3); {
			case k == 0 || len(b) == 0:
				i := r.Intn(len(b) + 1)
				b = append(b[:i], append([]string{"ajout" + fmt.Sprint(r.Intn(9))}, b[i:]...)...)
			case k == 1:
				i := r.Intn(len(b))
				b = append(b[:i], b[i+1:]...)
			default:
				b[r.Intn(len(b))] = "changé"
			}
		}
		join := func(ls []string) []byte {
			if len(ls) == 0 {
				return nil
			}
			return []byte(strings.Join(ls, "\n") + "\n")
		}
		d := UnifiedDiff("a", "b", join(a), join(b), false)
		if strings.Contains(d, "\x1b") {
			t.Fatal("colour without a terminal")
		}
		if got := applyDiff(t, a, d); strings.Join(got, "\n") != strings.Join(b, "\n") {
			t.Fatalf("diff does not rebuild the new text:\nold %q\nnew %q\ngot %q\n%s", a, b, got, d)
		}
		if strings.Join(a, "\n") == strings.Join(b, "\n") && strings.Contains(d, "@@") {
			t.Fatalf("hunks for equal texts:\n%s", d)
		}
	}
}

// TestUnifiedDiffAsDiffU: the hunks are those of `diff -u` on simple
// edits of an acces.md, colour only when asked, file bytes escaped.
func TestUnifiedDiffAsDiffU(t *testing.T) {
	old := "# Accès\n\nFormation : T\n\n- Date de la demande du compte d'accès : 2026-10-20\n- Chemin : `/h/.ssh/id.pub`\n- Empreinte : `256 SHA256:x (ED25519)`\n\n> Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n"
	new := strings.Replace(old, "Date de la demande du compte d'accès : 2026-10-20", "Date de la vérification du compte d'accès : 2026-10-27", 1)
	d := UnifiedDiff("acces.md (actuel)", "acces.md (nouveau)", []byte(old), []byte(new), false)
	want := "--- acces.md (actuel)\n+++ acces.md (nouveau)\n@@ -2,7 +2,7 @@\n \n Formation : T\n \n-- Date de la demande du compte d'accès : 2026-10-20\n+- Date de la vérification du compte d'accès : 2026-10-27\n - Chemin : `/h/.ssh/id.pub`\n - Empreinte : `256 SHA256:x (ED25519)`\n \n"
	if d != want {
		t.Fatalf("got\n%s\nwant\n%s", d, want)
	}
	if diff, err := exec.LookPath("diff"); err == nil {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "a"), []byte(old), 0o644)
		os.WriteFile(filepath.Join(dir, "b"), []byte(new), 0o644)
		out, _ := exec.Command(diff, "-u", filepath.Join(dir, "a"), filepath.Join(dir, "b")).Output()
		hunks := func(s string) string { return s[strings.Index(s, "@@"):] }
		if hunks(string(out)) != hunks(d) {
			t.Fatalf("diff -u says\n%s\npret says\n%s", out, d)
		}
	}
	coloured := UnifiedDiff("a", "b", []byte(old), []byte(new), true)
	if !strings.Contains(coloured, "\x1b[31m-- Date de la demande") || !strings.Contains(coloured, "\x1b[32m+- Date de la vérif") {
		t.Fatalf("no colour:\n%q", coloured)
	}
	hostile := UnifiedDiff("a", "b", []byte("titre\x1b[2J\u202e\n"), []byte("titre\n"), false)
	if strings.ContainsAny(hostile, "\x1b\u202e") {
		t.Fatalf("file bytes reach the terminal: %q", hostile)
	}
	if d := UnifiedDiff("a", "b", []byte("x"), []byte("x\n"), false); !strings.Contains(d, "-x  (pas de saut de ligne final)\n+x\n") {
		t.Fatalf("final newline change not shown:\n%s", d)
	}
}

// BenchmarkUnifiedDiffLarge: a 1 MiB acces.md (the read cap) replaced by
// pret's.
func BenchmarkUnifiedDiffLarge(b *testing.B) {
	var big bytes.Buffer
	for i := 0; big.Len() < 1<<20; i++ {
		fmt.Fprintf(&big, "ligne %d écrite à la main\n", i)
	}
	small := []byte("# Accès\n- Date de la demande du compte d'accès : 2026-10-20\n")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		UnifiedDiff("a", "b", big.Bytes(), small, false)
	}
}

// BenchmarkUnifiedDiffAtCap: two texts of 2048 lines, every other one
// changed.
func BenchmarkUnifiedDiffAtCap(b *testing.B) {
	var x, y bytes.Buffer
	for i := 0; i < 2048; i++ {
		fmt.Fprintf(&x, "ancienne %d\n", i)
		if i%2 == 0 {
			fmt.Fprintf(&y, "ancienne %d\n", i)
		} else {
			fmt.Fprintf(&y, "nouvelle %d\n", i)
		}
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		UnifiedDiff("a", "b", x.Bytes(), y.Bytes(), false)
	}
}
