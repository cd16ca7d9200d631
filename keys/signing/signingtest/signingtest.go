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
	"crypto/sha512"
	"encoding/base64"
	"hash"
	"math/big"
	"strings"

	"golang.org/x/crypto/ssh"
)

// Blob is the wire form of an SSHSIG signature (PROTOCOL.sshsig), every
// field settable.
type Blob struct {
	Version   uint32
	PublicKey []byte
	Namespace string
	Reserved  string
	Hash      string
	Signature []byte
	// Trailing is appended after the last field.
	Trailing []byte
}

// Marshal is the blob as it goes in the armour.
func (b Blob) Marshal() []byte {
	out := append([]byte("SSHSIG"), ssh.Marshal(struct {
		Version                   uint32
		PublicKey                 []byte
		Namespace, Reserved, Hash string
		Signature                 []byte
	}{b.Version, b.PublicKey, b.Namespace, b.Reserved, b.Hash, b.Signature})...)
	return append(out, b.Trailing...)
}

// Parse reads a blob back, for tests that change one field of a real
// signature. It panics on a blob that is not one.
func Parse(blob []byte) Blob {
	var w struct {
		Magic                     [6]byte
		Version                   uint32
		PublicKey                 []byte
		Namespace, Reserved, Hash string
		Signature                 []byte
	}
	if err := ssh.Unmarshal(blob, &w); err != nil {
		panic(err)
	}
	return Blob{w.Version, w.PublicKey, w.Namespace, w.Reserved, w.Hash, w.Signature, nil}
}

// Signed is what an SSHSIG signature signs: the preamble, the namespace,
// the reserved field, the hash name and the message's hash.
func Signed(namespace, reserved, hashName string, msg []byte) []byte {
	var h hash.Hash = sha512.New()
	if hashName == "sha256" {
		h = sha256.New()
	}
	h.Write(msg)
	return append([]byte("SSHSIG"), ssh.Marshal(struct {
		Namespace, Reserved, Hash string
		Digest                    []byte
	}{namespace, reserved, hashName, h.Sum(nil)})...)
}

// Armor writes blob as ssh-keygen does, in lines of width characters.
func Armor(blob []byte, width int) string {
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

// Security-key signature types (PROTOCOL.u2f).
const (
	SKEd25519  = "sk-ssh-ed25519@openssh.com"
	SKECDSA    = "sk-ecdsa-sha2-nistp256@openssh.com"
	WebAuthnSK = "webauthn-sk-ecdsa-sha2-nistp256@openssh.com"
)

// FlagUserPresent is the flag a security key sets when it was touched.
const FlagUserPresent = 0x01

// SK signs data (what Signed returns) as a FIDO security key would, with
// a key made here, application "ssh:": the signature field of the blob
// and the public key. kind is one of the three types above; a webauthn
// signature is made with an sk-ecdsa key, as a browser makes it.
func SK(kind string, data []byte, flags byte) (sig []byte, pub ssh.PublicKey) {
	const app, counter = "ssh:", 42
	appHash := sha256.Sum256([]byte(app))
	// What the key signs: the application's and the message's hashes
	// around the flags and counter.
	authData := append(appHash[:], flags, 0, 0, 0, counter)
	var pubBlob []byte
	switch kind {
	case SKEd25519:
		edPub, priv, _ := ed25519.GenerateKey(rand.Reader)
		digest := sha256.Sum256(data)
		pubBlob = ssh.Marshal(struct {
			Type string
			Key  []byte
			App  string
		}{SKEd25519, edPub, app})
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
		}{SKECDSA, "nistp256", elliptic.Marshal(elliptic.P256(), key.X, key.Y), app})
		digest := sha256.Sum256(data)
		var clientData string
		const origin = "https://romeo.example.org"
		if kind == WebAuthnSK {
			// The browser signs its clientData, whose challenge is the
			// signed data itself; empty extensions go on the wire.
			clientData = `{"type":"webauthn.get","challenge":"` + base64.RawURLEncoding.EncodeToString(data) +
				`","origin":"` + origin + `","crossOrigin":false}`
			digest = sha256.Sum256([]byte(clientData))
		}
		toSign := sha256.Sum256(append(authData, digest[:]...))
		r, s, err := ecdsa.Sign(rand.Reader, key, toSign[:])
		if err != nil {
			panic(err)
		}
		inner := ssh.Marshal(struct{ R, S *big.Int }{r, s})
		if kind == WebAuthnSK {
			sig = ssh.Marshal(struct {
				Type       string
				Sig        []byte
				Flags      byte
				Counter    uint32
				Origin     string
				ClientData string
				Extensions []byte
			}{kind, inner, flags, counter, origin, clientData, nil})
		} else {
			sig = ssh.Marshal(struct {
				Type    string
				Sig     []byte
				Flags   byte
				Counter uint32
			}{kind, inner, flags, counter})
		}
	}
	pub, err := ssh.ParsePublicKey(pubBlob)
	if err != nil {
		panic(err)
	}
	return sig, pub
}
