package acces

import (
	"bytes"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/keys"
)

// TestNoFormatEchoesKeyMaterial runs every format over files holding
// private keys of several kinds.
func TestNoFormatEchoesKeyMaterial(t *testing.T) {
	priv, _, _ := keys.Generate(rand.Reader, "x", []byte("passphrase"))
	leaky := []string{
		good + string(priv),
		good + "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAsecretRSAmaterialLine1\nsecretRSAmaterialLine2xyz\n-----END RSA PRIVATE KEY-----\n",
		good + "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\nAAAAIPuTTYsecretLine\nPrivate-MAC: abc\n",
		"Date de la demande : 2026-10-16 b3BlbnNzaC1rZXktdjEAAAAABG5vbmUsecretInline\n",
	}
	var material []string
	for _, f := range leaky {
		for _, l := range strings.Split(f, "\n") {
			if i := strings.Index(l, "b3Bl"); i >= 0 {
				l = l[i:] // the prose before it is the learner's, not key material
			}
			if strings.Contains(l, "PRIVATE KEY") || strings.Contains(l, "secret") || strings.Contains(l, "b3Bl") || len(l) >= 60 && !strings.Contains(l, " ") {
				material = append(material, l)
			}
		}
	}
	var files []checklist.FileResult
	for i, f := range leaky {
		r := Validate([]byte(f), rules)
		files = append(files, checklist.FileResult{Path: string(rune('a'+i)) + "/acces.md", Valid: r.Valid(), Fingerprint: r.Fingerprint, Problems: r.Problems})
	}
	for _, format := range checklist.Formats {
		var buf bytes.Buffer
		checklist.WriteFilesReport(&buf, format, checklist.FilesReport{Name: "pret valider", Files: files, All: true})
		out := buf.String()
		if strings.Count(out, "private-key-leak") < len(leaky) {
			t.Errorf("%s: leak not reported in every file:\n%s", format, out)
		}
		for _, m := range material {
			body := strings.TrimSpace(m)
			if body == "" || strings.HasPrefix(body, "-----") {
				continue
			}
			if strings.Contains(out, body) || len(body) > 24 && strings.Contains(out, body[4:24]) {
				t.Errorf("%s output reproduces %q", format, body)
			}
		}
	}
}
