package acces

import (
	mrand "math/rand/v2"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/keytest"
)

// TestKeyInAnyShapeOfAcces (issue 30): an acces.md holding a real key of
// every form, written in every encoding (PowerShell's UTF-16, UTF-16
// appended to UTF-8, Latin-1) with invisible characters inside the key,
// or with the key dumped as hex after the page, reports
// private-key-leak first, and never bad-public-key for the dump; a page
// in another encoding than UTF-8 is still not-text, after the leak.
func TestKeyInAnyShapeOfAcces(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(30, 5))
	for _, f := range keytest.Forms(t) {
		for _, e := range keytest.Encodings {
			c := keytest.Embed(f, keytest.RandomMutation(rng), rng, keytest.AccesBefore[0], keytest.AccesAfter[0])
			c = c.WithInvisible(keytest.Invisible, 1+rng.IntN(6), e.Holds, rng)
			r := Validate(e.Encode(c.Text), rules)
			if len(r.Problems) == 0 || r.Problems[0].Code != "private-key-leak" {
				t.Fatalf("%s, %s: %v\n%q", f.Name, e.Name, codes(r), c.Text)
			}
			text := e.Name == "utf-8" || e.Name == "utf-8 bom"
			if got := strings.Join(codes(r), " "); text == strings.Contains(got, "not-text") {
				t.Fatalf("%s, %s: %s", f.Name, e.Name, got)
			}
			for _, p := range r.Problems {
				if s := c.Leaked(p.Message); s != "" {
					t.Fatalf("%s, %s: %s quotes %q", f.Name, e.Name, p.Code, s)
				}
			}
		}
		for _, d := range keytest.Dumps {
			text := good + "\nMa clé :\n" + d.Dump([]byte(f.File()))
			r := Validate([]byte(text), rules)
			got := strings.Join(codes(r), " ")
			if len(r.Problems) == 0 || r.Problems[0].Code != "private-key-leak" || strings.Contains(got, "bad-public-key") {
				t.Fatalf("%s, %s: %s\n%s", f.Name, d.Name, got, text)
			}
		}
	}
}
