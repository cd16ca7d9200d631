package leak

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
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
	keygen := sshKeygen(t)
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
		run(t, keygen, append([]string{"-q", "-N", "", "-C", "kim@portable", "-f", key, "-t"}, k...)...)
		os.Remove(msg + ".sig")
		run(t, keygen, "-Y", "sign", "-q", "-f", key, "-n", "pret-acces", msg)
		armour, err := os.ReadFile(msg + ".sig")
		if err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, signature{k[0], unarmour(t, string(armour)), key})
	}
	for _, kind := range []string{"sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com", "webauthn-sk-ecdsa-sha2-nistp256@openssh.com"} {
		blob, pub := skSignature(t, kind, []byte(realisticPages[2]))
		allowed := filepath.Join(dir, "allowed")
		line := "kim namespaces=\"pret-acces\" " + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub))) + "\n"
		if err := os.WriteFile(allowed, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(msg+".sig", []byte(armour(blob, 70)), 0o600); err != nil {
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
			signed := realisticPages[2] + "\n<!-- pret:signature -->\n```\n" + armour(s.blob, width) + "```\n"
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
		text := realisticPages[2] + string(priv) + "\n<!-- pret:signature -->\n```\n" + armour(s.blob, 70) + "```\n"
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

// skSignature signs msg as a FIDO security key would, with a key made
// here: the SSHSIG blob and the public key. kind is the signature's
// type; webauthn's is made with an sk-ecdsa key, as a browser makes it.
func skSignature(t *testing.T, kind string, msg []byte) ([]byte, ssh.PublicKey) {
	const app = "ssh:"
	h := sha512.Sum512(msg)
	// What SSHSIG signs (PROTOCOL.sshsig).
	signed := append([]byte("SSHSIG"), ssh.Marshal(struct {
		Namespace, Reserved, Hash string
		Digest                    []byte
	}{"pret-acces", "", "sha512", h[:]})...)
	appHash := sha256.Sum256([]byte(app))
	const flags, counter = 0x01, 42 // user present
	// What the key signs (PROTOCOL.u2f): the application's and the
	// message's hashes around the flags and counter.
	authData := append(appHash[:], flags, 0, 0, 0, counter)
	var pubBlob, sig []byte
	switch kind {
	case "sk-ssh-ed25519@openssh.com":
		pub, priv, _ := ed25519.GenerateKey(rand.Reader)
		digest := sha256.Sum256(signed)
		pubBlob = ssh.Marshal(struct {
			Type string
			Key  []byte
			App  string
		}{"sk-ssh-ed25519@openssh.com", pub, app})
		sig = ssh.Marshal(struct {
			Type    string
			Sig     []byte
			Flags   byte
			Counter uint32
		}{kind, ed25519.Sign(priv, append(authData, digest[:]...)), flags, counter})
	default:
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		pubBlob = ssh.Marshal(struct {
			Type, Curve string
			Q           []byte
			App         string
		}{"sk-ecdsa-sha2-nistp256@openssh.com", "nistp256", elliptic.Marshal(elliptic.P256(), key.X, key.Y), app})
		digest := sha256.Sum256(signed)
		origin, clientData := "", ""
		var exts []byte
		if strings.HasPrefix(kind, "webauthn") {
			// The browser signs its clientData, whose challenge is the
			// message itself, and empty extensions go on the wire.
			origin = "https://romeo.example.org"
			clientData = `{"type":"webauthn.get","challenge":"` + base64.RawURLEncoding.EncodeToString(signed) +
				`","origin":"` + origin + `","crossOrigin":false}`
			digest = sha256.Sum256([]byte(clientData))
		}
		toSign := sha256.Sum256(append(append(authData, exts...), digest[:]...))
		r, s, err := ecdsa.Sign(rand.Reader, key, toSign[:])
		if err != nil {
			t.Fatal(err)
		}
		inner := ssh.Marshal(struct{ R, S *big.Int }{r, s})
		if origin == "" {
			sig = ssh.Marshal(struct {
				Type    string
				Sig     []byte
				Flags   byte
				Counter uint32
			}{kind, inner, flags, counter})
		} else {
			sig = ssh.Marshal(struct {
				Type       string
				Sig        []byte
				Flags      byte
				Counter    uint32
				Origin     string
				ClientData string
				Extensions []byte
			}{kind, inner, flags, counter, origin, clientData, exts})
		}
	}
	pub, err := ssh.ParsePublicKey(pubBlob)
	if err != nil {
		t.Fatal(err)
	}
	blob := append([]byte("SSHSIG"), ssh.Marshal(struct {
		Version                   uint32
		PublicKey                 []byte
		Namespace, Reserved, Hash string
		Signature                 []byte
	}{1, pubBlob, "pret-acces", "", "sha512", sig})...)
	return blob, pub
}

// armour writes blob as ssh-keygen does, at the given width.
func armour(blob []byte, width int) string {
	enc := base64.StdEncoding.EncodeToString(blob)
	var b strings.Builder
	b.WriteString("-----BEGIN SSH SIGNATURE-----\n")
	for len(enc) > width {
		b.WriteString(enc[:width] + "\n")
		enc = enc[width:]
	}
	b.WriteString(enc + "\n-----END SSH SIGNATURE-----\n")
	return b.String()
}

func unarmour(t *testing.T, s string) []byte {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	blob, err := base64.StdEncoding.DecodeString(strings.Join(lines[1:len(lines)-1], ""))
	if err != nil {
		t.Fatal(err)
	}
	return blob
}

// sshKeygen is the path of ssh-keygen: the interop tests run against the
// real one, and never skip in CI.
func sshKeygen(t *testing.T) string {
	p, err := exec.LookPath("ssh-keygen")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("ssh-keygen introuvable : la CI doit l'avoir")
		}
		t.Skip("ssh-keygen introuvable")
	}
	return p
}

func run(t *testing.T, name string, args ...string) {
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}
