package acces

import (
	"bytes"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/keytest"
)

// TestNoFormatEchoesGeneratedKeys: generated keys (every form, mutated as
// mail and editors do) pasted into honest acces.md files are reported as
// private-key-leak with their line numbers, and no report format, of the
// seven of pret valider, reproduces a line of the key.
func TestNoFormatEchoesGeneratedKeys(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(11, 12))
	n := 300
	if testing.Short() {
		n = 40
	}
	for i := 0; i < n; i++ {
		c := keytest.Generate(t, rng)
		r := Validate([]byte(c.Text), rules)
		leak := false
		for _, p := range r.Problems {
			leak = leak || p.Code == "private-key-leak"
		}
		if !leak {
			t.Fatalf("%s %v: no private-key-leak: %+v\n%s", c.Form.Name, c.Mut, r.Problems, c.Text)
		}
		files := []checklist.FileResult{{Path: "kim/acces.md", Valid: r.Valid(), Fingerprint: r.Fingerprint, Problems: r.Problems}}
		for _, format := range checklist.FileFormats {
			var buf bytes.Buffer
			if err := checklist.WriteFilesReport(&buf, format, checklist.FilesReport{Name: "pret valider", Files: files, All: true}); err != nil {
				t.Fatal(err)
			}
			if s := c.Leaked(buf.String()); s != "" {
				t.Fatalf("%s %v: %s output reproduces %q", c.Form.Name, c.Mut, format, s)
			}
		}
		// The problems themselves never quote a line of the key.
		for _, p := range r.Problems {
			if s := c.Leaked(p.Message); s != "" || strings.Contains(p.Message, "PRIVATE") {
				t.Fatalf("%s: %s quotes %q", c.Form.Name, p.Code, s)
			}
		}
	}
}

// TestSignatureIsNotALeak: the SSH SIGNATURE block pret signer appends
// (signature.md) is never private-key-leak, in any case or wrapping.
func TestSignatureIsNotALeak(t *testing.T) {
	sig := "<!-- pret:signature -->\n```\n-----BEGIN SSH SIGNATURE-----\n" +
		"U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgx9uE6k7m6kq3nHq1vMtAjLr2Jm4n\n" +
		"AAAACnByZXQtYWNjZXMAAAAAAAAABnNoYTUxMgAAAFMAAAALc3NoLWVkMjU1MTkAAABAb3Bl\n" +
		"bnNzaC1rZXkAAAA=\n-----END SSH SIGNATURE-----\n```\n"
	for _, s := range []string{sig, strings.ToLower(sig), strings.ReplaceAll(sig, "\n", "\r\n")} {
		r := Validate([]byte(good+"\n"+s), rules)
		for _, p := range r.Problems {
			if p.Code == "private-key-leak" {
				t.Fatalf("signature taken for a key: %+v", p)
			}
		}
	}
}

// TestCopiedKeyLineNotQuoted: a line of a pasted private key copied again
// where a rule quotes the text (a key path, a date) is not reproduced by
// any report format: the rules' quotes of it are masked.
func TestCopiedKeyLineNotQuoted(t *testing.T) {
	rng, tested := mrand.New(mrand.NewPCG(21, 22)), 0
	for i := 0; i < 600 && tested < 40; i++ {
		c := keytest.Generate(t, rng)
		// A line of base64 to copy: not a marker, a header or a short tail.
		lines := slices.DeleteFunc(slices.Clone(c.Block()), func(l string) bool {
			l = strings.TrimSpace(l)
			return len(l) < 24 || strings.ContainsAny(l, " -")
		})
		if len(lines) == 0 {
			continue // a key on one line, re-spaced
		}
		line := strings.TrimSpace(lines[rng.IntN(len(lines))])
		tested++
		text := c.Text + "\nClé : ~/.ssh/" + line + ".pub\n\nDate de la demande : " + line + "\n"
		r := Validate([]byte(text), rules)
		files := []checklist.FileResult{{Path: "kim/acces.md", Fingerprint: r.Fingerprint, Problems: r.Problems}}
		for _, format := range checklist.FileFormats {
			var buf bytes.Buffer
			if err := checklist.WriteFilesReport(&buf, format, checklist.FilesReport{Name: "pret valider", Files: files, All: true}); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(buf.String(), line) || c.Leaked(buf.String()) != "" {
				t.Fatalf("%s %v: %s output reproduces the copied key line %q\n%s", c.Form.Name, c.Mut, format, line, buf.String())
			}
		}
	}
	if tested < 40 {
		t.Fatalf("only %d copied lines tried of 600 keys", tested)
	}
}
