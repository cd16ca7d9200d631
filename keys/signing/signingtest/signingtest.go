// Package signingtest builds SSHSIG signatures by hand for tests, those
// ssh-keygen cannot make included (security keys, webauthn, odd fields).
package signingtest

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"math/big"
	"strings"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// Blob is an SSHSIG signature's wire form, every field settable.
type Blob struct {
	Version                   uint32
	PublicKey                 []byte
	Namespace, Reserved, Hash string
	Signature                 []byte
	Trailing                  []byte `ssh:"rest"`
}

func (b Blob) Marshal() []byte { return append([]byte("SSHSIG"), ssh.Marshal(b)...) }

// Parse reads a blob back; it panics on a blob that is not one.
func Parse(blob []byte) Blob {
	var b Blob
	if err := ssh.Unmarshal(blob[len("SSHSIG"):], &b); err != nil {
		panic(err)
	}
	return b
}

// Signed is what an SSHSIG signature signs.
func Signed(namespace, reserved, hashName string, msg []byte) []byte {
	h := sshsig.HashAlgorithm(hashName).Hash() // sha256 or sha512
	h.Write(msg)
	return append([]byte("SSHSIG"), ssh.Marshal(struct {
		Namespace, Reserved, Hash string
		Digest                    []byte
	}{namespace, reserved, hashName, h.Sum(nil)})...)
}

// Armor writes any blob, the malformed ones pret refuses to armour
// included, in PROTOCOL.sshsig's armour: the base64 in lines of width
// characters (ssh-keygen writes 70) between the BEGIN and END lines.
// TestArmorIsOpenSSHs holds it to the protocol's own example and to
// ssh-keygen -Y sign, as keys/signing's tests hold Signature.Armor.
func Armor(blob []byte, width int) string {
	var b strings.Builder
	b.WriteString("-----BEGIN SSH SIGNATURE-----\n")
	enc := base64.StdEncoding.EncodeToString(blob)
	for i := 0; i < len(enc); i += width {
		b.WriteString(enc[i:min(i+width, len(enc))] + "\n")
	}
	b.WriteString("-----END SSH SIGNATURE-----\n")
	return b.String()
}

// Security-key signature types (PROTOCOL.u2f), and the flag of a touch.
const (
	SKEd25519       = "sk-ssh-ed25519@openssh.com"
	SKECDSA         = "sk-ecdsa-sha2-nistp256@openssh.com"
	WebAuthnSK      = "webauthn-sk-ecdsa-sha2-nistp256@openssh.com"
	FlagUserPresent = 0x01
)

// SKKey is a FIDO security key made here.
type SKKey struct {
	kind, app string
	ed        ed25519.PrivateKey
	ec        *ecdsa.PrivateKey
	pub       ssh.PublicKey
}

// NewSK makes a security key of application app ("ssh:", a free text field)
// signing as kind (a webauthn key is sk-ecdsa).
func NewSK(kind, app string) *SKKey {
	k := &SKKey{kind: kind, app: app}
	var blob []byte
	if kind == SKEd25519 {
		pub, priv, _ := ed25519.GenerateKey(rand.Reader)
		k.ed = priv
		blob = ssh.Marshal(struct{ Type, Key, App string }{SKEd25519, string(pub), app})
	} else {
		k.ec, _ = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		q := elliptic.Marshal(elliptic.P256(), k.ec.X, k.ec.Y) //nolint:staticcheck // the SSH wire form of the point
		blob = ssh.Marshal(struct{ Type, Curve, Q, App string }{SKECDSA, "nistp256", string(q), app})
	}
	k.pub, _ = ssh.ParsePublicKey(blob) // a well-formed key
	return k
}

func (k *SKKey) PublicKey() ssh.PublicKey { return k.pub }

// Sign returns the signature field of an SSHSIG blob over data.
func (k *SKKey) Sign(data []byte, flags byte) []byte {
	const counter, origin = 42, "https://romeo.example.org"
	appHash, digest := sha256.Sum256([]byte(k.app)), sha256.Sum256(data)
	var clientData string
	if k.kind == WebAuthnSK {
		// The browser signs its clientData, whose challenge is data.
		clientData = `{"type":"webauthn.get","challenge":"` + base64.RawURLEncoding.EncodeToString(data) +
			`","origin":"` + origin + `","crossOrigin":false}`
		digest = sha256.Sum256([]byte(clientData))
	}
	signed := append(append(appHash[:], flags, 0, 0, 0, counter), digest[:]...)
	var sig []byte
	if k.kind == SKEd25519 {
		sig = ed25519.Sign(k.ed, signed)
	} else {
		h := sha256.Sum256(signed)
		r, s, _ := ecdsa.Sign(rand.Reader, k.ec, h[:])
		sig = ssh.Marshal(struct{ R, S *big.Int }{r, s})
	}
	out := ssh.Marshal(struct {
		Type    string
		Sig     []byte
		Flags   byte
		Counter uint32
	}{k.kind, sig, flags, counter})
	if k.kind == WebAuthnSK { // empty extensions go on the wire
		out = append(out, ssh.Marshal(struct{ Origin, ClientData, Extensions string }{origin, clientData, ""})...)
	}
	return out
}

// SK signs data with a new security key.
func SK(kind string, data []byte, flags byte) (sig []byte, pub ssh.PublicKey) {
	k := NewSK(kind, "ssh:")
	return k.Sign(data, flags), k.pub
}
