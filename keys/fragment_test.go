package keys

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// fragmentKeys are PEM files whose body lines the test cuts out.
func fragmentKeys(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	b, err := ssh.MarshalPrivateKey(ed, "kim@portable")
	if err != nil {
		t.Fatal(err)
	}
	out["ed25519/openssh"] = strings.Split(strings.TrimSpace(string(pem.EncodeToMemory(b))), "\n")
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	out["rsa/pkcs1"] = strings.Split(strings.TrimSpace(string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(rk)}))), "\n")
	ek, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	b, err = ssh.MarshalPrivateKey(ek, "")
	if err != nil {
		t.Fatal(err)
	}
	out["ecdsa/openssh"] = strings.Split(strings.TrimSpace(string(pem.EncodeToMemory(b))), "\n")
	return out
}

// TestLooksLikeFragment: every piece of 16 characters or more of a body
// line looks like a fragment; config words, fingerprints and public keys
// do not.
func TestLooksLikeFragment(t *testing.T) {
	checked := 0
	for name, lines := range fragmentKeys(t) {
		for _, l := range lines[1 : len(lines)-1] {
			for n := 24; n <= len(l); n += 7 {
				// Pieces of one case or of hex digits only are left out by design.
				p := l[len(l)-n:]
				if strings.ToLower(p) == p || strings.ToUpper(p) == p || strings.Trim(p, "0123456789abcdefABCDEF") == "" {
					continue
				}
				if !LooksLikeFragment("seance.debut: " + p) {
					t.Fatalf("%s: %q not a fragment", name, p)
				}
				checked++
			}
		}
	}
	if checked < 100 { // about 220 today
		t.Fatalf("only %d pieces of key checked", checked)
	}
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	sp, _ := ssh.NewPublicKey(pub)
	for _, s := range []string{"seance.debut", "09h30", "organisateurs.login", ssh.FingerprintSHA256(sp),
		strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sp))), "Formation ROMEO2025 et ses GPU"} {
		if LooksLikeFragment(s) {
			t.Fatalf("%q taken for a fragment", s)
		}
	}
}
