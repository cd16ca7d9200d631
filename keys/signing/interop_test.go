package signing

import (
	"bytes"
	"crypto/rand"
	"errors"
	"io"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys/signing/signingtest"
)

// checkNovalidate is the oracle: `ssh-keygen -Y check-novalidate` on an
// armoured signature of msg. It returns whether ssh-keygen accepts, the
// fingerprint it names and what it printed.
func checkNovalidate(t *testing.T, dir string, armour, msg []byte) (bool, string, string) {
	return checkNovalidateIn(t, dir, armour, msg, SigNamespace)
}

// checkNovalidateIn is checkNovalidate for another namespace.
func checkNovalidateIn(t *testing.T, dir string, armour, msg []byte, namespace string) (bool, string, string) {
	t.Helper()
	keygen := testenv.NeedTool(t, "ssh-keygen")
	path := filepath.Join(dir, "check.sig")
	if err := os.WriteFile(path, armour, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(keygen, "-Y", "check-novalidate", "-n", namespace, "-s", path)
	cmd.Stdin = bytes.NewReader(msg)
	out, err := cmd.CombinedOutput()
	fp := regexp.MustCompile(`SHA256:[A-Za-z0-9+/]{43}`).FindString(string(out))
	return err == nil, fp, string(out)
}

// pretAccepts is pret's verdict on the same armour and message.
func pretAccepts(armour, msg []byte) (*Signature, error) {
	sig, err := ParseArmor(armour)
	if err != nil {
		return nil, err
	}
	return sig, sig.Verify(msg)
}

// agree fails t unless pret and ssh-keygen give the same verdict on an
// armour, or pret refuses it with want (a documented exception,
// signature.md) where ssh-keygen accepts it; when both accept, they name
// the same key.
func agree(t *testing.T, dir, name string, armour, msg []byte, want error) {
	t.Helper()
	openssh, fp, out := checkNovalidate(t, dir, armour, msg)
	sig, err := pretAccepts(armour, msg)
	switch {
	case want != nil:
		if !openssh || !errors.Is(err, want) {
			t.Errorf("%s: documented exception: ssh-keygen accepts=%v (%s), pret %v, want %v", name, openssh, out, err, want)
		}
	case openssh != (err == nil):
		t.Errorf("%s: ssh-keygen accepts=%v (%s), pret: %v", name, openssh, strings.TrimSpace(out), err)
	case openssh && ssh.FingerprintSHA256(sig.Key()) != fp:
		t.Errorf("%s: ssh-keygen names %s, pret %s", name, fp, ssh.FingerprintSHA256(sig.Key()))
	}
	if err != nil && !openssh {
		t.Logf("%s: both refuse; ssh-keygen: %s; pret: %v", name, strings.TrimSpace(out), err)
	}
}

// keyKinds are the key types ssh-keygen makes that pret must read.
var keyKinds = []struct{ name, typ, bits string }{
	{"ed25519", "ed25519", ""},
	{"rsa", "rsa", "2048"},
	{"ecdsa256", "ecdsa", "256"},
	{"ecdsa384", "ecdsa", "384"},
	{"ecdsa521", "ecdsa", "521"},
}

// makeKey makes a key with the real ssh-keygen, no passphrase, and
// returns its path and a signer on it.
func makeKey(t *testing.T, dir, name, typ, bits string) (string, ssh.Signer) {
	t.Helper()
	args := []string{"-t", typ, "-N", "", "-C", "kim@portable"}
	if bits != "" {
		args = append(args, "-b", bits)
	}
	path := testenv.SSHKeygen(t, dir, "id_"+name, args...)
	priv, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.ParsePrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return path, s
}

// TestInteropBothWays: over every key type and both hashes, what
// `ssh-keygen -Y sign` makes pret accepts, naming the same key, and
// what pret makes `ssh-keygen -Y check-novalidate` accepts; a
// certificate signs as the key it certifies, both ways.
func TestInteropBothWays(t *testing.T) {
	keygen := testenv.NeedTool(t, "ssh-keygen")
	dir := t.TempDir()
	msg := []byte("# Accès\n\n- Date de la demande : 2026-10-16\n\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n")
	msgPath := filepath.Join(dir, "acces.md")
	if err := os.WriteFile(msgPath, msg, 0o600); err != nil {
		t.Fatal(err)
	}
	keygenSign := func(t *testing.T, key, hash string) []byte {
		os.Remove(msgPath + ".sig")
		testenv.Run(t, keygen, "-Y", "sign", "-n", SigNamespace, "-O", "hashalg="+hash, "-f", key, msgPath)
		armour, err := os.ReadFile(msgPath + ".sig")
		if err != nil {
			t.Fatal(err)
		}
		return armour
	}
	caPath, ca := makeKey(t, dir, "ca", "ed25519", "")
	for _, k := range keyKinds {
		t.Run(k.name, func(t *testing.T) {
			key, signer := makeKey(t, dir, k.name, k.typ, k.bits)
			// A certificate of the key, made by the CA with ssh-keygen -s.
			testenv.Run(t, keygen, "-q", "-s", caPath, "-I", "kim", "-n", "kim", key+".pub")
			certData, err := os.ReadFile(key + "-cert.pub")
			if err != nil {
				t.Fatal(err)
			}
			certKey, _, _, _, err := ssh.ParseAuthorizedKey(certData)
			if err != nil {
				t.Fatal(err)
			}
			cert := certKey.(*ssh.Certificate)
			var certSigner ssh.Signer
			certSigner, err = ssh.NewCertSigner(cert, signer)
			if err != nil {
				t.Fatal(err)
			}
			if k.typ == "rsa" {
				// sshsig picks rsa-sha2-512 for a plain RSA key only.
				certSigner = rsaSHA512{certSigner.(ssh.AlgorithmSigner)}
			}
			if ssh.FingerprintSHA256(cert.SignatureKey) != ssh.FingerprintSHA256(ca.PublicKey()) {
				t.Fatal("the certificate is not the CA's")
			}
			for _, hash := range []sshsig.HashAlgorithm{sshsig.HashSHA256, sshsig.HashSHA512} {
				// ssh-keygen to pret.
				armour := keygenSign(t, key, hash.String())
				agree(t, dir, "ssh-keygen "+hash.String(), armour, msg, nil)
				sig, err := pretAccepts(armour, msg)
				if err != nil || ssh.FingerprintSHA256(sig.Key()) != ssh.FingerprintSHA256(signer.PublicKey()) {
					t.Fatalf("%s: ssh-keygen's signature: %v", hash, err)
				}
				// pret to ssh-keygen.
				mine, err := sign(rand.Reader, signer, msg, hash)
				if err != nil {
					t.Fatal(err)
				}
				agree(t, dir, "pret "+hash.String(), mine.Armor(), msg, nil)
				if ok, _, out := checkNovalidate(t, dir, mine.Armor(), msg); !ok {
					t.Fatalf("%s: ssh-keygen refuses pret's signature: %s", hash, out)
				}
				// A certificate signs as the key it certifies: pret and
				// ssh-keygen name the certified key's fingerprint, the
				// one the learner states, never the CA's.
				bycert, err := sign(rand.Reader, certSigner, msg, hash)
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := bycert.PublicKey().(*ssh.Certificate); !ok {
					t.Fatal("the signature does not carry the certificate")
				}
				agree(t, dir, "certificate "+hash.String(), bycert.Armor(), msg, nil)
				sig, err = pretAccepts(bycert.Armor(), msg)
				if err != nil || ssh.FingerprintSHA256(sig.Key()) != ssh.FingerprintSHA256(signer.PublicKey()) {
					t.Fatalf("%s: certificate signature: %v", hash, err)
				}
			}
			// ssh-keygen -Y sign with the certificate (it finds the
			// private key beside it) makes the same kind of block.
			armour := keygenSign(t, key+"-cert.pub", "sha512")
			agree(t, dir, "ssh-keygen certificate", armour, msg, nil)
			if sig, err := pretAccepts(armour, msg); err != nil || ssh.FingerprintSHA256(sig.Key()) != ssh.FingerprintSHA256(signer.PublicKey()) {
				t.Fatalf("ssh-keygen's certificate signature: %v", err)
			}
		})
	}
}

// TestCraftedBlobsAgreeWithOpenSSH: blobs no signer writes, each put
// before ssh-keygen and pret: bytes after the blob or after a field of
// the signature, a reserved field (ignored, as PROTOCOL.sshsig says,
// and never part of what is signed), versions, hash names, signature
// types that are not the key's, RSA with SHA-1, security keys (touched
// or not, webauthn), and a non-canonical ed25519 signature. The two
// documented exceptions are refused with their own cause.
func TestCraftedBlobsAgreeWithOpenSSH(t *testing.T) {
	dir := t.TempDir()
	msg := []byte("Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n")
	_, ed := makeKey(t, dir, "ed", "ed25519", "")
	_, rsa := makeKey(t, dir, "rsa", "rsa", "2048")
	_, ec := makeKey(t, dir, "ec", "ecdsa", "256")
	signed := func(reserved, hash string) []byte { return signingtest.Signed(SigNamespace, reserved, hash, msg) }
	sigOf := func(s ssh.Signer, data []byte, algo string) []byte {
		var sig *ssh.Signature
		var err error
		if algo == "" && s.PublicKey().Type() == ssh.KeyAlgoRSA {
			algo = ssh.KeyAlgoRSASHA512
		}
		if algo != "" {
			sig, err = s.(ssh.AlgorithmSigner).SignWithAlgorithm(rand.Reader, data, algo)
		} else {
			sig, err = s.Sign(rand.Reader, data)
		}
		if err != nil {
			t.Fatal(err)
		}
		return ssh.Marshal(sig)
	}
	blob := func(s ssh.Signer) signingtest.Blob {
		return signingtest.Blob{Version: 1, PublicKey: s.PublicKey().Marshal(), Namespace: SigNamespace, Hash: "sha512",
			Signature: sigOf(s, signed("", "sha512"), "")}
	}
	type crafted struct {
		name string
		blob signingtest.Blob
		want error // a documented exception
	}
	var cases []crafted
	add := func(name string, b signingtest.Blob, want error) { cases = append(cases, crafted{name, b, want}) }
	edit := func(b signingtest.Blob, f func(*signingtest.Blob)) signingtest.Blob { f(&b); return b }

	for name, s := range map[string]ssh.Signer{"ed25519": ed, "rsa": rsa, "ecdsa": ec} {
		add(name, blob(s), nil)
		add(name+" bytes after the blob", edit(blob(s), func(b *signingtest.Blob) { b.Trailing = []byte{0} }), nil)
		add(name+" bytes after the signature", edit(blob(s), func(b *signingtest.Blob) { b.Signature = append(b.Signature, 0, 0, 0, 1) }), nil)
		add(name+" reserved field", edit(blob(s), func(b *signingtest.Blob) { b.Reserved = "étiquette" }), nil)
		add(name+" reserved field, signed", edit(blob(s), func(b *signingtest.Blob) {
			b.Reserved = "x"
			b.Signature = sigOf(s, signed("x", "sha512"), "")
		}), nil)
		add(name+" version 0", edit(blob(s), func(b *signingtest.Blob) { b.Version = 0 }), nil)
		add(name+" version 2", edit(blob(s), func(b *signingtest.Blob) { b.Version = 2 }), nil)
		add(name+" hash sha1", edit(blob(s), func(b *signingtest.Blob) { b.Hash = "sha1" }), nil)
		add(name+" hash named sha256, made over sha512", edit(blob(s), func(b *signingtest.Blob) { b.Hash = "sha256" }), nil)
		add(name+" other namespace", edit(blob(s), func(b *signingtest.Blob) { b.Namespace = "file" }), nil)
		add(name+" signature of another type", edit(blob(s), func(b *signingtest.Blob) { b.PublicKey = ed.PublicKey().Marshal() }), nil)
	}
	add("ed25519 signature under an ecdsa key", edit(blob(ed), func(b *signingtest.Blob) { b.PublicKey = ec.PublicKey().Marshal() }), nil)
	add("rsa-sha2-256", edit(blob(rsa), func(b *signingtest.Blob) { b.Signature = sigOf(rsa, signed("", "sha512"), ssh.KeyAlgoRSASHA256) }), nil)
	add("rsa sha-1", edit(blob(rsa), func(b *signingtest.Blob) { b.Signature = sigOf(rsa, signed("", "sha512"), ssh.KeyAlgoRSA) }), nil)
	add("ecdsa bytes after r and s", edit(blob(ec), func(b *signingtest.Blob) {
		var sig ssh.Signature
		ssh.Unmarshal(b.Signature, &sig)
		sig.Blob = append(sig.Blob, 0)
		b.Signature = ssh.Marshal(sig)
	}), nil)
	add("ed25519 non-canonical", edit(blob(ed), func(b *signingtest.Blob) {
		var sig ssh.Signature
		ssh.Unmarshal(b.Signature, &sig)
		sig.Blob = addOrder(sig.Blob)
		b.Signature = ssh.Marshal(sig)
	}), ErrNonCanonical)

	for _, kind := range []string{signingtest.SKEd25519, signingtest.SKECDSA, signingtest.WebAuthnSK} {
		sk := func(flags byte) signingtest.Blob {
			sig, pub := signingtest.SK(kind, signed("", "sha512"), flags)
			return signingtest.Blob{Version: 1, PublicKey: pub.Marshal(), Namespace: SigNamespace, Hash: "sha512", Signature: sig}
		}
		add(kind, sk(signingtest.FlagUserPresent), nil)
		add(kind+" not touched", sk(0), ErrNoUserPresence)
		add(kind+" bytes after the signature", edit(sk(signingtest.FlagUserPresent), func(b *signingtest.Blob) { b.Signature = append(b.Signature, 0) }), nil)
		add(kind+" other message", edit(sk(signingtest.FlagUserPresent), func(b *signingtest.Blob) {
			sig, _ := signingtest.SK(kind, signed("", "sha256"), signingtest.FlagUserPresent)
			b.Signature = sig
		}), nil)
	}
	for _, c := range cases {
		agree(t, dir, c.name, []byte(signingtest.Armor(c.blob.Marshal(), 70)), msg, c.want)
	}
}

// addOrder is an ed25519 signature with L added to its S: the same
// signature for OpenSSH, a non-canonical one for Go.
func addOrder(sig []byte) []byte {
	be := make([]byte, 32)
	for i := range be {
		be[i] = sig[63-i]
	}
	s := new(big.Int).Add(new(big.Int).SetBytes(be), ed25519Order).FillBytes(make([]byte, 32))
	out := bytes.Clone(sig)
	for i := range 32 {
		out[32+i] = s[31-i]
	}
	return out
}

// rsaSHA512 signs with rsa-sha2-512, as ssh-keygen does with RSA keys
// and certificates.
type rsaSHA512 struct{ ssh.AlgorithmSigner }

func (s rsaSHA512) Sign(random io.Reader, data []byte) (*ssh.Signature, error) {
	return s.SignWithAlgorithm(random, data, ssh.KeyAlgoRSASHA512)
}

// TestFencesAgreeWithOpenSSH: the block after the marker in every shape
// Markdown gives a fenced code block (``` or ~~~, longer fences, an info
// string, blank lines before, indented up to three spaces, unclosed),
// and shapes that are not one. signature.md's recipe (sed, then
// `ssh-keygen -Y check-novalidate`) is the oracle; where it accepts a
// file pret refuses, pret names the documented cause.
func TestFencesAgreeWithOpenSSH(t *testing.T) {
	signer, _ := testSigner(t)
	msg := []byte("# Accès\n\n- Date de la demande : 2026-10-16\n")
	sig, err := Sign(rand.Reader, signer, msg)
	if err != nil {
		t.Fatal(err)
	}
	a := string(sig.Armor())
	indent := func(s, by string) string {
		return by + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+by) + "\n"
	}
	cases := []struct {
		name, block string
		want        error // nil: pret agrees with the recipe
	}{
		{"backticks", "```\n" + a + "```\n", nil},
		{"four backticks", "````\n" + a + "````\n", nil},
		{"longer closing fence", "```\n" + a + "``````\n", nil},
		{"tildes", "~~~\n" + a + "~~~\n", nil},
		{"four tildes", "~~~~\n" + a + "~~~~~\n", nil},
		{"info string", "```text\n" + a + "```\n", nil},
		{"info string after a space", "``` sshsig\n" + a + "```\n", nil},
		{"tildes with info string", "~~~ signature `ssh`\n" + a + "~~~\n", nil},
		{"blank line before", "\n```\n" + a + "```\n", nil},
		{"blank lines before", "\n \n\t\n~~~\n" + a + "~~~\n", nil},
		{"blank lines after", "```\n" + a + "```\n\n\n", nil},
		{"blank lines in the block", "```\n\n" + a + "\n```\n", nil},
		{"fence indented three spaces", "   ```\n" + a + "   ```\n", nil},
		{"closing fence with spaces after", "```\n" + a + "```   \n", nil},
		{"unclosed backticks", "```\n" + a, nil},
		{"unclosed tildes", "~~~\n" + a + "\n\n", nil},
		{"no final newline", "```\n" + a + "```", nil},
		{"armour indented four spaces", indent("```\n"+a+"```\n", "    "), nil},
		{"quoted", indent("```\n"+a+"```\n", "> "), nil},
		{"armour lines indented in the fence", "  ```\n" + indent(a, "  ") + "  ```\n", nil},
		// Documented exceptions: the recipe finds the armour, but the
		// page would show text that is not signed, or no code block.
		{"tildes closed by backticks", "~~~\n" + a + "```\n", ErrAfterEnd},
		{"no fence", a, ErrNoFence},
		{"text after the block", "```\n" + a + "```\nMerci.\n", ErrTrailing},
		{"deep quotes after the block", "```\n" + a + "```\n" + strings.Repeat(">", 20000) + "\n", ErrTrailing},
		{"deep quotes before the block", strings.Repeat("> ", 2000) + "\n```\n" + a + "```\n", ErrMisplacedMarker},
		{"text before the block", "Ma signature :\n```\n" + a + "```\n", ErrMisplacedMarker},
		{"backtick in a backtick info string", "``` a`b\n" + a + "```\n", ErrMisplacedMarker},
	}
	for _, c := range cases {
		file := append(bytes.Clone(msg), SigMarker+"\n"+c.block...)
		_, recipe := checkWithOpenSSH(t, t.TempDir(), file, SigNamespace)
		f := SplitSigned(file)
		err := f.Verify()
		switch {
		case c.want != nil:
			if recipe != nil || !errors.Is(err, c.want) {
				t.Errorf("%s: recipe %v; pret %v, want %v\n%s", c.name, recipe, err, c.want, file)
			}
		case (recipe == nil) != (err == nil):
			t.Errorf("%s: recipe %v; pret %v\n%s", c.name, recipe, err, file)
		}
		t.Logf("%s: recipe %v; pret %v", c.name, recipe == nil, err)
		if err == nil && (f.To != lineCount(file) && !strings.HasSuffix(c.block, "\n\n") || f.From != lineCount(msg)+1) {
			t.Errorf("%s: block at lines %d-%d of %d", c.name, f.From, f.To, lineCount(file))
		}
		if err != nil && (f.Line < 1 || f.Line > lineCount(file)) {
			t.Errorf("%s: error at line %d of %d", c.name, f.Line, lineCount(file))
		}
	}
}
