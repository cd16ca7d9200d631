package signing

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"math/big"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/keys/signing/signingtest"
)

func ed25519Signer() ssh.Signer {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	s, _ := ssh.NewSignerFromKey(priv)
	return s
}

// signedBy is a signature of msg by key (rsa-sha2-512 for an RSA key)
// whose signature bytes are then changed by f, if any.
func signedBy(t *testing.T, key ssh.Signer, msg []byte, f func([]byte) []byte) []byte {
	t.Helper()
	data := signingtest.Signed(SigNamespace, "", "sha512", msg)
	sig, err := key.Sign(rand.Reader, data)
	if as, ok := key.(ssh.AlgorithmSigner); ok && key.PublicKey().Type() == ssh.KeyAlgoRSA {
		sig, err = as.SignWithAlgorithm(rand.Reader, data, ssh.KeyAlgoRSASHA512)
	}
	if err != nil {
		t.Fatal(err)
	}
	if f != nil {
		sig.Blob = f(slices.Clone(sig.Blob))
	}
	return signingtest.Blob{Version: 1, PublicKey: key.PublicKey().Marshal(), Namespace: SigNamespace, Hash: "sha512", Signature: ssh.Marshal(sig)}.Marshal()
}

// webauthnSig is what a browser makes: every part of it settable, to make
// the shapes no browser makes.
type webauthnSig struct {
	typ, origin, clientOrigin string
	flags                     byte
	ext                       []byte
	challenge                 []byte // what is signed; the message's by default
}

// blob signs msg as webauthn with a new sk-ecdsa key.
func (w webauthnSig) blob(msg []byte) []byte {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	const app = "ssh:"
	q := elliptic.Marshal(elliptic.P256(), key.X, key.Y) //nolint:staticcheck // the SSH wire form of the point
	pub := ssh.Marshal(struct{ Type, Curve, Q, App string }{skECDSA, "nistp256", string(q), app})
	challenge := w.challenge
	if challenge == nil {
		challenge = signingtest.Signed(SigNamespace, "", "sha512", msg)
	}
	client := `{"type":"` + w.typ + `","challenge":"` + base64.RawURLEncoding.EncodeToString(challenge) + `","origin":"` + w.clientOrigin + `","crossOrigin":false}`
	appHash, clientHash := sha256.Sum256([]byte(app)), sha256.Sum256([]byte(client))
	signed := append(append(append(appHash[:], w.flags, 0, 0, 0, 7), w.ext...), clientHash[:]...)
	h := sha256.Sum256(signed)
	r, s, _ := ecdsa.Sign(rand.Reader, key, h[:])
	sig := ssh.Marshal(struct {
		Type                       string
		Sig                        []byte
		Flags                      byte
		Counter                    uint32
		Origin, ClientData, Extens string
	}{webauthnSK, ssh.Marshal(struct{ R, S *big.Int }{r, s}), w.flags, 7, w.origin, client, string(w.ext)})
	return signingtest.Blob{Version: 1, PublicKey: pub, Namespace: SigNamespace, Hash: "sha512", Signature: sig}.Marshal()
}

// TestFaultsNamedByTheirCause: signatures that OpenSSH refuses for what
// they are, not for the bytes they sign, are refused by pret with that
// cause, never as a file modified after its signature (signature.md);
// and a signature over other bytes is still that. ssh-keygen is the
// oracle, and its words are checked too.
func TestFaultsNamedByTheirCause(t *testing.T) {
	dir := t.TempDir()
	msg := []byte("Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n")
	rsa768 := signingtest.NewRSASmall(t, 768)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	rsa2048, _ := ssh.NewSignerFromKey(rsaKey)
	const origin = "https://romeo.example.org"
	get := webauthnSig{typ: "webauthn.get", origin: origin, clientOrigin: origin, flags: signingtest.FlagUserPresent}
	with := func(f func(*webauthnSig)) webauthnSig { w := get; f(&w); return w }
	for _, c := range []struct {
		name    string
		blob    []byte
		openssh string // what ssh-keygen says, "" when it accepts
		want    error
	}{
		{"rsa 768", signedBy(t, rsa768, msg, nil), "Invalid key length", ErrKeyLength},
		// A signature's own bytes the wrong length: malformed, not modified.
		{"ed25519 of 65 bytes", signedBy(t, ed25519Signer(), msg, func(b []byte) []byte { return append(b, 0) }), "invalid format", ErrSigLength},
		{"ed25519 of 63 bytes", signedBy(t, ed25519Signer(), msg, func(b []byte) []byte { return b[:63] }), "incorrect signature", ErrSigLength},
		{"ed25519 of 0 bytes", signedBy(t, ed25519Signer(), msg, func(b []byte) []byte { return nil }), "incorrect signature", ErrSigLength},
		{"rsa longer than its key", signedBy(t, rsa2048, msg, func(b []byte) []byte { return append([]byte{0}, b...) }), "key bits do not match", ErrSigLength},
		{"certificate by an rsa 768 authority", certWithTuples(t, rsa768, ed25519Signer(), nil, nil, msg), "invalid certificate signing key", ErrKeyLength},
		{"certificate of an rsa 768 key", certWithTuples(t, ed25519Signer(), rsa768, nil, nil, msg), "Invalid key length", ErrKeyLength},
		{"webauthn", get.blob(msg), "", nil},
		{"webauthn with extensions and their flag", with(func(w *webauthnSig) { w.flags |= 0x80; w.ext = []byte{0xa0} }).blob(msg), "", nil},
		{"webauthn origin holding a quote", with(func(w *webauthnSig) { w.origin = `https://a"b`; w.clientOrigin = `https://a\"b` }).blob(msg), "invalid format", ErrWebauthnFormat},
		{"webauthn attested flag", with(func(w *webauthnSig) { w.flags |= 0x40 }).blob(msg), "invalid format", ErrWebauthnFormat},
		{"webauthn extensions without their flag", with(func(w *webauthnSig) { w.ext = []byte{0xa0} }).blob(msg), "invalid format", ErrWebauthnFormat},
		{"webauthn flag without extensions", with(func(w *webauthnSig) { w.flags |= 0x80 }).blob(msg), "invalid format", ErrWebauthnFormat},
		{"webauthn.create", with(func(w *webauthnSig) { w.typ = "webauthn.create" }).blob(msg), "invalid format", ErrWebauthnFormat},
		{"webauthn origin not clientData's", with(func(w *webauthnSig) { w.clientOrigin = "https://ailleurs.example.org" }).blob(msg), "invalid format", ErrWebauthnFormat},
		// The one webauthn fault that is the file's: OpenSSH finds the
		// challenge is not this message's and says "invalid format" too.
		{"webauthn over other bytes", with(func(w *webauthnSig) {
			w.challenge = signingtest.Signed(SigNamespace, "", "sha512", []byte("autre chose\n"))
		}).blob(msg), "invalid format", ErrSigMismatch},
	} {
		armour := []byte(signingtest.Armor(c.blob, 70))
		ok, _, out := checkNovalidate(t, dir, armour, msg, SigNamespace)
		_, err := pretAccepts(armour, msg)
		switch {
		case c.openssh == "" && (!ok || err != nil):
			t.Errorf("%s: ssh-keygen accepts=%v (%s), pret: %v; want both to accept", c.name, ok, strings.TrimSpace(out), err)
		case c.openssh == "":
		case ok || !strings.Contains(out, c.openssh):
			t.Errorf("%s: ssh-keygen accepts=%v, says %q; want a refusal with %q", c.name, ok, strings.TrimSpace(out), c.openssh)
		case !errors.Is(err, c.want):
			t.Errorf("%s: pret %v, want %v", c.name, err, c.want)
		case c.want != ErrSigMismatch && errors.Is(err, ErrSigMismatch):
			t.Errorf("%s: pret calls a malformed signature a modified file: %v", c.name, err)
		case NamesItsCause(err) != (c.want != ErrSigMismatch):
			t.Errorf("%s: NamesItsCause(%v) = %v", c.name, err, NamesItsCause(err))
		}
		if err != nil {
			t.Logf("%s: ssh-keygen: %s; pret: %v", c.name, strings.TrimSpace(out), err)
		}
	}
}

// tuples is a certificate's options or extensions on the wire, in the
// order given: PROTOCOL.certkeys wants them in lexical order, once each.
func tuples(names ...string) []byte {
	var b []byte
	for _, n := range names {
		b = append(b, ssh.Marshal(struct{ Name, Data string }{n, ""})...)
	}
	return b
}

// certWithTuples is a signature of msg by key through its certificate
// by ca, whose extensions (or critical options) are written as given.
func certWithTuples(t *testing.T, ca, key ssh.Signer, critical, extensions []string, msg []byte) []byte {
	t.Helper()
	sorted := func(names []string) map[string]string {
		m := map[string]string{}
		for _, n := range names {
			m[n] = ""
		}
		return m
	}
	cert := &ssh.Certificate{Key: key.PublicKey(), CertType: ssh.UserCert, KeyId: "kim", ValidPrincipals: []string{"kim"}, ValidBefore: ssh.CertTimeInfinity,
		Permissions: ssh.Permissions{CriticalOptions: sorted(critical), Extensions: sorted(extensions)}, SignatureKey: ca.PublicKey(), Nonce: make([]byte, 32)}
	b := cert.Marshal() // sorted, deduplicated, ending with an empty signature
	b = b[:len(b)-4]
	for _, f := range [][2][]string{{critical, nil}, {extensions, nil}} {
		names := append([]string(nil), f[0]...)
		slices.Sort(names)
		names = slices.Compact(names)
		wire := ssh.Marshal(struct{ S string }{string(tuples(names...))})
		i := bytes.Index(b, wire)
		if i < 0 || len(names) == 0 {
			continue
		}
		b = slices.Concat(b[:i], ssh.Marshal(struct{ S string }{string(tuples(f[0]...))}), b[i+len(wire):])
	}
	caSig, err := ca.Sign(rand.Reader, b)
	if err != nil {
		t.Fatal(err)
	}
	blob := append(b, ssh.Marshal(struct{ S string }{string(ssh.Marshal(caSig))})...)
	sig, err := key.Sign(rand.Reader, signingtest.Signed(SigNamespace, "", "sha512", msg))
	if err != nil {
		t.Fatal(err)
	}
	return signingtest.Blob{Version: 1, PublicKey: blob, Namespace: SigNamespace, Hash: "sha512", Signature: ssh.Marshal(sig)}.Marshal()
}

// TestCertificateOptionsOutOfOrder: options or extensions of a
// certificate out of lexical order, or repeated: ssh-keygen 9.2 accepts
// the signature, Go's reader refuses the certificate, and pret says so
// (signature.md, a documented exception). In order, both accept.
func TestCertificateOptionsOutOfOrder(t *testing.T) {
	dir := t.TempDir()
	msg := []byte("Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n")
	ca, key := ed25519Signer(), ed25519Signer()
	for _, c := range []struct {
		name                 string
		critical, extensions []string
		want                 error
	}{
		{"in order", []string{"force-command", "source-address"}, []string{"permit-X11-forwarding", "permit-pty"}, nil},
		{"extensions out of order", nil, []string{"permit-pty", "permit-X11-forwarding"}, ErrCertOrder},
		{"extension repeated", nil, []string{"permit-pty", "permit-pty"}, ErrCertOrder},
		{"critical options out of order", []string{"source-address", "force-command"}, nil, ErrCertOrder},
	} {
		armour := []byte(signingtest.Armor(certWithTuples(t, ca, key, c.critical, c.extensions, msg), 70))
		agree(t, dir, c.name, armour, msg, c.want)
		if _, err := pretAccepts(armour, msg); NamesItsCause(err) != (c.want != nil) {
			t.Errorf("%s: NamesItsCause(%v) = %v", c.name, err, NamesItsCause(err))
		}
	}
}
