// Package signingtest builds SSHSIG signatures by hand for tests: the
// blobs ssh-keygen makes, the ones it cannot make (security keys,
// webauthn, a non-empty reserved field, bytes after a field), so that
// each can be put before the real `ssh-keygen -Y check-novalidate` and
// before pret. Test code only: nothing in pret imports it outside tests.
package signingtest

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"math/big"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// Blob is the wire form of an SSHSIG signature (PROTOCOL.sshsig), every
// field settable; Trailing goes after the last field.
type Blob struct {
	Version                   uint32
	PublicKey                 []byte
	Namespace, Reserved, Hash string
	Signature                 []byte
	Trailing                  []byte `ssh:"rest"`
}

// Marshal is the blob as it goes in the armour.
func (b Blob) Marshal() []byte { return append([]byte("SSHSIG"), ssh.Marshal(b)...) }

// Parse reads a blob back, for tests that change one field of a real
// signature. It panics on a blob that is not one.
func Parse(blob []byte) Blob {
	var b Blob
	if err := ssh.Unmarshal(blob[len("SSHSIG"):], &b); err != nil {
		panic(err)
	}
	return b
}

// Signed is what an SSHSIG signature signs: the preamble, the namespace,
// the reserved field, the hash name and the message's hash.
func Signed(namespace, reserved, hashName string, msg []byte) []byte {
	h := sshsig.HashAlgorithm(hashName).Hash() // sha256 or sha512
	h.Write(msg)
	return append([]byte("SSHSIG"), ssh.Marshal(struct {
		Namespace, Reserved, Hash string
		Digest                    []byte
	}{namespace, reserved, hashName, h.Sum(nil)})...)
}

// Armor writes blob as ssh-keygen does, in lines of width characters.
func Armor(blob []byte, width int) string {
	enc := base64.StdEncoding.EncodeToString(blob)
	out := "-----BEGIN SSH SIGNATURE-----\n"
	for ; len(enc) > width; enc = enc[width:] {
		out += enc[:width] + "\n"
	}
	return out + enc + "\n-----END SSH SIGNATURE-----\n"
}

// Security-key signature types (PROTOCOL.u2f).
const (
	SKEd25519  = "sk-ssh-ed25519@openssh.com"
	SKECDSA    = "sk-ecdsa-sha2-nistp256@openssh.com"
	WebAuthnSK = "webauthn-sk-ecdsa-sha2-nistp256@openssh.com"
)

// FlagUserPresent is the flag a security key sets when it was touched.
const FlagUserPresent = 0x01

// SKKey is a FIDO security key made here, application "ssh:".
type SKKey struct {
	kind string
	ed   ed25519.PrivateKey
	ec   *ecdsa.PrivateKey
	pub  ssh.PublicKey
}

// NewSK makes a security key whose signatures are of type kind, one of
// the three above; a webauthn key is an sk-ecdsa key, signing as a
// browser does.
func NewSK(kind string) *SKKey {
	k := &SKKey{kind: kind}
	var blob []byte
	if kind == SKEd25519 {
		pub, priv, _ := ed25519.GenerateKey(rand.Reader)
		k.ed = priv
		blob = ssh.Marshal(struct{ Type, Key, App string }{SKEd25519, string(pub), "ssh:"})
	} else {
		k.ec, _ = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		q := elliptic.Marshal(elliptic.P256(), k.ec.X, k.ec.Y) //nolint:staticcheck // the SSH wire form of the point
		blob = ssh.Marshal(struct{ Type, Curve, Q, App string }{SKECDSA, "nistp256", string(q), "ssh:"})
	}
	var err error
	if k.pub, err = ssh.ParsePublicKey(blob); err != nil {
		panic(err)
	}
	return k
}

// PublicKey is the key's public half.
func (k *SKKey) PublicKey() ssh.PublicKey { return k.pub }

// Sign signs data (what Signed returns) as the key would, with the
// given flags: the signature field of an SSHSIG blob.
func (k *SKKey) Sign(data []byte, flags byte) []byte {
	const counter, origin = 42, "https://romeo.example.org"
	appHash, digest := sha256.Sum256([]byte("ssh:")), sha256.Sum256(data)
	var clientData string
	if k.kind == WebAuthnSK {
		// The browser signs its clientData, whose challenge is the
		// signed data itself.
		clientData = `{"type":"webauthn.get","challenge":"` + base64.RawURLEncoding.EncodeToString(data) +
			`","origin":"` + origin + `","crossOrigin":false}`
		digest = sha256.Sum256([]byte(clientData))
	}
	// The key signs the application's and the message's hashes around
	// the flags and counter.
	signed := append(appHash[:], flags, 0, 0, 0, counter)
	signed = append(signed, digest[:]...)
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

// SK signs data with a new security key: the signature field and the
// public key.
func SK(kind string, data []byte, flags byte) (sig []byte, pub ssh.PublicKey) {
	k := NewSK(kind)
	return k.Sign(data, flags), k.pub
}

// SignFile is text signed by k as pret lays a signature out: the marker
// and the armour in a fenced block.
func (k *SKKey) SignFile(text string, flags byte) []byte {
	blob := Blob{Version: 1, PublicKey: k.pub.Marshal(), Namespace: "pret-acces", Hash: "sha512",
		Signature: k.Sign(Signed("pret-acces", "", "sha512", []byte(text)), flags)}
	return []byte(text + "<!-- pret:signature -->\n```\n" + Armor(blob.Marshal(), 70) + "```\n")
}
