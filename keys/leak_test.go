package keys

import (
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/keytest"
)

// TestMaterialLinesEveryMutation: for every key form and generated
// mutation, embedded in an honest acces.md, every non-blank line of the
// key block is reported and no honest line is.
func TestMaterialLinesEveryMutation(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(7, 8))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		for _, f := range keytest.Forms(t) {
			c := keytest.Embed(f, keytest.RandomMutation(rng), rng,
				keytest.AccesBefore[rng.IntN(len(keytest.AccesBefore))], keytest.AccesAfter[rng.IntN(len(keytest.AccesAfter))])
			got := MaterialLines(c.Text)
			marked := map[int]bool{}
			for _, g := range got {
				marked[g] = true
			}
			for no := c.First; no <= c.Last; no++ {
				if strings.TrimSpace(strings.TrimPrefix(c.Lines[no-1], ">")) != "" && !marked[no] {
					t.Fatalf("%s %v: line %d %q not reported (got %v)\n%s", f.Name, c.Mut, no, c.Lines[no-1], got, c.Text)
				}
			}
			for _, g := range got {
				if g < c.First || g > c.Last {
					t.Fatalf("%s %v: honest line %d %q reported\n%s", f.Name, c.Mut, g, c.Lines[g-1], c.Text)
				}
			}
		}
	}
}

func TestMaterialLinesExamples(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []int
	}{
		{"signature is not a leak", "a\n-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVk\n-----END SSH SIGNATURE-----\n", nil},
		{"public key PEM", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n", nil},
		{"magic split", "x\nb3BlbnNzaC1r\nZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB\nfin de la clé.\n", []int{2, 3}},
		{"magic split mid-line", "voici b3BlbnNz\naC1rZXktdjEAAAAABG5vbmU texte\n", []int{1, 2}},
		{"putty blank line", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n\nPublic-Lines: 1\nAAAA\n\nPrivate-Lines: 1\nAAAB\nPrivate-MAC: 00\nfin\n", []int{1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{"putty private lines alone", "Texte\n\nPrivate-Lines: 1\nAAAAIHx0\nPrivate-MAC: 00ff\n", []int{3, 4, 5}},
		{"orphan END", "Texte libre.\nQk1XcmFuZG9tYm9keQ==\n-----END RSA PRIVATE KEY-----\n", []int{2, 3}},
		{"empty", "", nil},
		{"prose", "Clé privée : jamais partagée.\nConnexion uniquement vers le nœud de login.\n", nil},
	} {
		if got := MaterialLines(c.text); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// BenchmarkMaterialLines measures the detector on the worst shapes of a
// 1 MiB acces.md: short base64 lines, one long line, many blank lines.
func BenchmarkMaterialLines(b *testing.B) {
	for _, s := range []struct{ name, text string }{
		{"short-b64-lines", strings.Repeat("a\n", 1<<19)},
		{"one-line", strings.Repeat("a ", 1<<19)},
		{"b64-and-blanks", strings.Repeat("ab\n\n\n", 1<<18)},
		{"begin-no-end", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + strings.Repeat("QUFBQQ\n", 1<<17)},
	} {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(s.text)))
			for i := 0; i < b.N; i++ {
				MaterialLines(s.text)
			}
		})
	}
}

// TestRedact: every generated key disappears from the redacted text, the
// honest lines stay as they were, and the line count does not change.
func TestRedact(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(9, 10))
	for i := 0; i < 300; i++ {
		c := keytest.Generate(t, rng)
		red, lines := Redact(c.Text)
		if s := c.Leaked(red); s != "" {
			t.Fatalf("%s %v: %q left in\n%s", c.Form.Name, c.Mut, s, red)
		}
		if strings.Count(red, "\n") != strings.Count(c.Text, "\n") {
			t.Fatalf("line count changed")
		}
		if len(lines) == 0 || lines[0] < c.First || lines[len(lines)-1] > c.Last {
			t.Fatalf("lines %v outside %d..%d", lines, c.First, c.Last)
		}
		redLines := strings.Split(red, "\n")
		for no := 1; no < c.First; no++ {
			if strings.TrimSuffix(redLines[no-1], "\r") != c.Lines[no-1] {
				t.Fatalf("honest line %d changed: %q", no, redLines[no-1])
			}
		}
	}
	if red, lines := Redact("rien\n"); red != "rien\n" || lines != nil {
		t.Fatal("a text without key changed")
	}
}
