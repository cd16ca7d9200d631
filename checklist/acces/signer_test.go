package acces

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys/signing"
	"github.com/romeo-pret/pret/keys/signing/signingtest"
)

// TestSignerOfAnotherType (issue 21): a file that states its own key's
// fingerprint and (ED25519), signed by that key, is bad-key-type and
// nothing else when the key is RSA, ECDSA or a security key; an ed25519
// key, or a certificate of it, signs it cleanly. Security-key and
// webauthn blocks are never private-key-leak.
func TestSignerOfAnotherType(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ecKey, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	for _, k := range []any{rsaKey, ecKey} {
		s, err := ssh.NewSignerFromKey(k)
		if err != nil {
			t.Fatal(err)
		}
		r := Validate(signed(t, s, fileFor(s)), rules)
		if got := strings.Join(codes(r), ","); got != "bad-key-type" {
			t.Errorf("%s signer: %s", s.PublicKey().Type(), got)
		}
		if !strings.Contains(r.Problems[0].Message, "signé par une clé") {
			t.Errorf("message: %q", r.Problems[0].Message)
		}
	}
	for _, kind := range []string{signingtest.SKEd25519, signingtest.SKECDSA, signingtest.WebAuthnSK} {
		for range 50 {
			k := signingtest.NewSK(kind, "ssh:")
			text := testenv.Edit(good, fpA, ssh.FingerprintSHA256(k.PublicKey()))
			r := Validate(skSignFile(k, text, signingtest.FlagUserPresent), rules)
			if got := strings.Join(codes(r), ","); got != "bad-key-type" {
				t.Fatalf("%s signer: %s", kind, got)
			}
			if r.SignedBy != ssh.FingerprintSHA256(k.PublicKey()) {
				t.Fatalf("%s: signed by %q", kind, r.SignedBy)
			}
			// Stating the key's own type, the file is valid.
			own := strings.Replace(text, "(ED25519)", "(ED25519-SK)", 1)
			if kind != signingtest.SKEd25519 {
				own = strings.Replace(text, "(ED25519)", "(ECDSA-SK)", 1)
			}
			if got := codes(Validate(skSignFile(k, own, signingtest.FlagUserPresent), rules)); !contains(got, "wrong-type") || contains(got, "private-key-leak") || contains(got, "bad-signature") {
				t.Fatalf("%s signer, stating its type: %v", kind, got)
			}
		}
	}

	// An ed25519 key's certificate signs as the key: valid.
	s := fastSigner(t)
	ca := fastSigner(t)
	cert := &ssh.Certificate{Key: s.PublicKey(), CertType: ssh.UserCert, KeyId: "kim", ValidPrincipals: []string{"kim"}, ValidBefore: ssh.CertTimeInfinity}
	if err := cert.SignCert(rand.Reader, ca); err != nil {
		t.Fatal(err)
	}
	cs, err := ssh.NewCertSigner(cert, s)
	if err != nil {
		t.Fatal(err)
	}
	if r := Validate(signed(t, cs, fileFor(s)), rules); len(r.Problems) != 0 || r.SignedBy != ssh.FingerprintSHA256(s.PublicKey()) {
		t.Errorf("certificate of the stated key: %v, signed by %q", codes(r), r.SignedBy)
	}
	// The CA's fingerprint stated instead is another key's.
	if got := codes(Validate(signed(t, cs, fileFor(ca)), rules)); strings.Join(got, ",") != "signature-key-mismatch" {
		t.Errorf("certificate, the CA's fingerprint stated: %v", got)
	}
}

// TestSignatureCausesAreNamed: each broken signature names its cause,
// and only a signature that no longer holds over the file says the file
// was modified.
func TestSignatureCausesAreNamed(t *testing.T) {
	s := fastSigner(t)
	text := fileFor(s)
	ok := signed(t, s, text)
	sf := signing.SplitSigned(ok)
	blob := signingtest.Parse(blobOf(t, sf))
	reblock := func(b signingtest.Blob) []byte {
		return []byte(text + signing.SigMarker + "\n```\n" + signingtest.Armor(b.Marshal(), 70) + "```\n")
	}
	withReserved, trailing := blob, blob
	withReserved.Reserved = "étiquette"
	// The reserved field is not signed: raw key bytes there, at any offset,
	// are a leak in a signature ssh-keygen accepts (outside tester).
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	raw, _ := ssh.MarshalPrivateKey(edKey, "")
	for _, pad := range []string{"", "\x00", "\x00\x00", "abc"} {
		smuggled := blob
		smuggled.Reserved = pad + string(raw.Bytes)
		if got := codes(Validate(reblock(smuggled), rules)); !contains(got, "private-key-leak") {
			t.Errorf("raw key in the reserved field after %d bytes: %v", len(pad), got)
		}
	}
	trailing.Signature = append(trailing.Signature, 0, 0, 0, 0)
	long := blob // an ed25519 signature of 65 bytes: malformed, not modified
	var edSig ssh.Signature
	if err := ssh.Unmarshal(blob.Signature, &edSig); err != nil {
		t.Fatal(err)
	}
	edSig.Blob = append(edSig.Blob, 0)
	long.Signature = ssh.Marshal(edSig)
	sk := signingtest.NewSK(signingtest.SKEd25519, "ssh:")
	skText := strings.Replace(testenv.Edit(good, fpA, ssh.FingerprintSHA256(sk.PublicKey())), "(ED25519)", "(ED25519-SK)", 1)
	webauthn := signingtest.NewSK(signingtest.WebAuthnSK, "ssh:")
	webauthnText := testenv.Edit(good, fpA, ssh.FingerprintSHA256(webauthn.PublicKey()))
	rsa768 := signingtest.NewRSASmall(t, 768)
	rsaText := testenv.Edit(good, fpA, ssh.FingerprintSHA256(rsa768.PublicKey()))
	rsaSig, _ := rsa768.Sign(rand.Reader, signingtest.Signed(signing.SigNamespace, "", "sha512", []byte(rsaText)))
	rsaBlob := signingtest.Blob{Version: 1, PublicKey: rsa768.PublicKey().Marshal(), Namespace: signing.SigNamespace, Hash: "sha512", Signature: ssh.Marshal(rsaSig)}
	cases := []struct {
		name string
		file []byte
		want string // a word of the message; "" for a valid file
	}{
		{"reserved field", reblock(withReserved), ""},
		{"tildes", []byte(strings.ReplaceAll(string(ok), "```", "~~~")), ""},
		{"info string and blank line", []byte(strings.Replace(string(ok), signing.SigMarker+"\n```", signing.SigMarker+"\n\n```text", 1)), ""},
		{"unclosed fence", []byte(strings.TrimSuffix(string(ok), "```\n")), ""},
		// Only blank lines may follow the block (signature.md).
		{"blank lines after the block", []byte(string(ok) + "\n \n"), ""},
		{"comment after the block", []byte(string(ok) + "\n<!-- relu le 20 octobre -->\n"), "pas même un commentaire HTML"},
		{"lone > after the block", []byte(string(ok) + ">\n"), "du texte suit le bloc"},
		{"text after a comment", []byte(string(ok) + "<!-- fin --> Merci.\n"), "du texte suit le bloc"},
		{"bytes after the signature", reblock(trailing), "octets restent"},
		{"ed25519 of 65 bytes", reblock(long), "^signature ed25519 mal formée : 65 octets au lieu de 64 (OpenSSH la refuse aussi : « invalid format »)"},
		{"text before BEGIN", []byte(strings.Replace(string(ok), "```\n-----BEGIN", "```\nDate : 2026-10-01\n-----BEGIN", 1)), "^du texte précède la ligne BEGIN SSH SIGNATURE dans le bloc de code : il n'est pas signé"},
		{"no fence", []byte(strings.ReplaceAll(string(ok), "```\n", "")), "bloc de code"},
		{"not touched", skSignFile(sk, skText, 0), "sans la toucher"},
		{"edited", []byte(strings.Replace(string(ok), "2026-10-16", "2026-10-17", 1)), "modifié"},
		// OpenSSH: "Invalid key length", "invalid format" (keys/signing's
		// TestFaultsNamedByTheirCause holds them against ssh-keygen).
		{"rsa 768", []byte(rsaText + signing.SigMarker + "\n```\n" + signingtest.Armor(rsaBlob.Marshal(), 70) + "```\n"),
			"^signature par une clé RSA de 768 bits : OpenSSH refuse les clés RSA de moins de 1024 bits (« Invalid key length »)"},
		{"webauthn attested", skSignFile(webauthn, webauthnText, signingtest.FlagUserPresent|0x40),
			"^signature webauthn mal formée (drapeau des données attestées levé) : OpenSSH la refuse aussi (« invalid format »)"},
	}
	for _, c := range cases {
		r := Validate(c.file, rules)
		got := codes(r)
		if c.name == "not touched" {
			got = without(got, "wrong-type")
		}
		switch {
		case c.want == "" && len(got) != 0:
			t.Errorf("%s: %v", c.name, got)
		case c.want != "" && strings.Join(got, ",") != "bad-signature":
			t.Errorf("%s: %v", c.name, got)
		case c.want != "":
			for _, p := range r.Problems {
				// "^": the message starts with it, its own words, not
				// inside an "illisible" of another cause.
				want, first := strings.CutPrefix(c.want, "^")
				named := strings.Contains(p.Message, want) && (!first || strings.HasPrefix(p.Message, want))
				if p.Code == "bad-signature" && (!named || c.want != "modifié" && strings.Contains(p.Message, "modifié")) {
					t.Errorf("%s: message %q, want it to name %q", c.name, p.Message, c.want)
				}
			}
		}
	}
}

// blobOf is the wire form of a parsed block's signature.
func blobOf(t *testing.T, sf *signing.SignedFile) []byte {
	t.Helper()
	if sf.Sig == nil {
		t.Fatal("no signature")
	}
	armour := strings.Split(strings.TrimSpace(string(sf.Sig.Armor())), "\n")
	b, err := base64.StdEncoding.DecodeString(strings.Join(armour[1:len(armour)-1], ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func without(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// TestSSHKeygenSignerType: files signed by the real ssh-keygen with an
// RSA or ECDSA key whose fingerprint they state, under (ED25519), are
// bad-key-type; with an ed25519 key's certificate, valid.
func TestSSHKeygenSignerType(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	keygen := testenv.NeedTool(t, "ssh-keygen")
	dir := t.TempDir()
	ca := testenv.SSHKeygen(t, dir, "ca", "-t", "ed25519", "-N", "")
	for _, k := range []struct{ typ, bits, want string }{{"rsa", "2048", "bad-key-type"}, {"ecdsa", "256", "bad-key-type"}, {"ed25519", "", ""}} {
		args := []string{"-t", k.typ, "-N", ""}
		if k.bits != "" {
			args = append(args, "-b", k.bits)
		}
		key := testenv.SSHKeygen(t, dir, "id_"+k.typ, args...)
		testenv.Run(t, keygen, "-q", "-s", ca, "-I", "kim", "-n", "kim", key+".pub")
		pub, err := os.ReadFile(key + ".pub")
		if err != nil {
			t.Fatal(err)
		}
		pk, _, _, _, err := ssh.ParseAuthorizedKey(pub)
		if err != nil {
			t.Fatal(err)
		}
		msg := testenv.Edit(good, fpA, ssh.FingerprintSHA256(pk))
		path := filepath.Join(dir, "acces.md")
		for _, signer := range []string{key, key + "-cert.pub"} {
			os.WriteFile(path, []byte(msg), 0o600)
			os.Remove(path + ".sig")
			testenv.Run(t, keygen, "-Y", "sign", "-n", signing.SigNamespace, "-f", signer, path)
			armour, err := os.ReadFile(path + ".sig")
			if err != nil {
				t.Fatal(err)
			}
			file := msg + signing.SigMarker + "\n```\n" + string(armour) + "```\n"
			if got := strings.Join(codes(Validate([]byte(file), rules)), ","); got != k.want {
				t.Errorf("%s: %q, want %q", filepath.Base(signer), got, k.want)
			}
		}
	}
}

// skSignFile is text signed by k, laid out as pret does.
func skSignFile(k *signingtest.SKKey, text string, flags byte) []byte {
	blob := signingtest.Blob{Version: 1, PublicKey: k.PublicKey().Marshal(), Namespace: "pret-acces", Hash: "sha512",
		Signature: k.Sign(signingtest.Signed("pret-acces", "", "sha512", []byte(text)), flags)}
	return []byte(text + "<!-- pret:signature -->\n```\n" + signingtest.Armor(blob.Marshal(), 70) + "```\n")
}
