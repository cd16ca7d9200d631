package leak

import (
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys/signing/signingtest"
)

// TestSignaturesAreNotKeys (issue 21): an SSHSIG block is never private
// key material, whatever the key that made it: ed25519, ECDSA and RSA
// signatures made by `ssh-keygen -Y sign`, and security-key ones
// (sk-ssh-ed25519, sk-ecdsa, webauthn-sk-ecdsa) built here and checked
// by `ssh-keygen -Y verify`, each armoured after pret's marker, as
// written or rewrapped, quoted, in CRLF or lower case. Nor is the
// signature's wire form read as text (keys/signing does so). A private
// key pasted in the signed text is still reported, line by line.
func TestSignaturesAreNotKeys(t *testing.T) {
	keygen := testenv.NeedTool(t, "ssh-keygen")
	dir := t.TempDir()
	msg := filepath.Join(dir, "acces.md")
	if err := os.WriteFile(msg, []byte(realisticPages[2]), 0o600); err != nil {
		t.Fatal(err)
	}
	type signature struct {
		name string
		blob []byte
		key  string // the private key file, for ssh-keygen's signatures
	}
	var sigs []signature
	for _, k := range [][]string{{"ed25519"}, {"ecdsa", "-b", "256"}, {"ecdsa", "-b", "521"}, {"rsa", "-b", "2048"}} {
		key := filepath.Join(dir, "id_"+strings.Join(k, ""))
		testenv.Run(t, keygen, append([]string{"-q", "-N", "", "-C", "kim@portable", "-f", key, "-t"}, k...)...)
		os.Remove(msg + ".sig")
		testenv.Run(t, keygen, "-Y", "sign", "-q", "-f", key, "-n", "pret-acces", msg)
		armour, err := os.ReadFile(msg + ".sig")
		if err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, signature{k[0], unarmour(t, string(armour)), key})
	}
	for _, kind := range []string{signingtest.SKEd25519, signingtest.SKECDSA, signingtest.WebAuthnSK} {
		sig, pub := signingtest.SK(kind, signingtest.Signed("pret-acces", "", "sha512", []byte(realisticPages[2])), signingtest.FlagUserPresent)
		blob := signingtest.Blob{Version: 1, PublicKey: pub.Marshal(), Namespace: "pret-acces", Hash: "sha512", Signature: sig}.Marshal()
		allowed := filepath.Join(dir, "allowed")
		line := "kim namespaces=\"pret-acces\" " + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub))) + "\n"
		if err := os.WriteFile(allowed, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(msg+".sig", []byte(signingtest.Armor(blob, 70)), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(keygen, "-Y", "verify", "-f", allowed, "-I", "kim", "-n", "pret-acces", "-s", msg+".sig")
		cmd.Stdin = strings.NewReader(realisticPages[2])
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: ssh-keygen -Y verify refuses the signature built here: %v\n%s", kind, err, out)
		}
		sigs = append(sigs, signature{kind, blob, ""})
	}

	for _, s := range sigs {
		if Has(string(s.blob)) {
			t.Errorf("%s: the signature's wire form is taken for a key", s.name)
		}
		for _, width := range []int{70, 64, 76, 4, 1 << 20} {
			signed := realisticPages[2] + "\n<!-- pret:signature -->\n```\n" + signingtest.Armor(s.blob, width) + "```\n"
			for _, text := range []string{signed, strings.ToLower(signed), strings.ReplaceAll(signed, "\n", "\r\n"),
				"> " + strings.ReplaceAll(strings.TrimSuffix(signed, "\n"), "\n", "\n> ") + "\n"} {
				if got := Lines(text); got != nil {
					t.Fatalf("%s at width %d: lines %v reported\n%s", s.name, width, got, text)
				}
			}
		}
		if s.key == "" {
			continue
		}
		// The signing key itself pasted in the signed text.
		priv, err := os.ReadFile(s.key)
		if err != nil {
			t.Fatal(err)
		}
		text := realisticPages[2] + string(priv) + "\n<!-- pret:signature -->\n```\n" + signingtest.Armor(s.blob, 70) + "```\n"
		first := strings.Count(realisticPages[2], "\n") + 1
		var want []int
		for i := range strings.Count(string(priv), "\n") {
			want = append(want, first+i)
		}
		if got := Lines(text); !slices.Equal(got, want) {
			t.Fatalf("%s: key in the signed text: lines %v, want %v\n%s", s.name, got, want, text)
		}
	}
}

func unarmour(t *testing.T, s string) []byte {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	blob, err := base64.StdEncoding.DecodeString(strings.Join(lines[1:len(lines)-1], ""))
	if err != nil {
		t.Fatal(err)
	}
	return blob
}
