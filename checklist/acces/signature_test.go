package acces

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/keys/signing"
	"github.com/romeo-pret/pret/keys/signing/signingtest"
)

// fastSigner is an ed25519 key made without bcrypt: the validator only
// sees public keys and signatures.
func fastSigner(t testing.TB) ssh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fileFor is the good acces.md stating signer's fingerprint.
func fileFor(s ssh.Signer) string {
	return testenv.Edit(good, fpA, ssh.FingerprintSHA256(s.PublicKey()))
}

func signed(t testing.TB, s ssh.Signer, text string) []byte {
	t.Helper()
	b, err := signing.SignFile(rand.Reader, s, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func has(r *Result, code checklist.Code) bool {
	for _, p := range r.Problems {
		if p.Code == code {
			return true
		}
	}
	return false
}

func lines(b []byte) int {
	n := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// Signed files of every layout stay valid with no problem at all, and
// name their signer; the same file without its block is valid, and
// unsigned only when a signature is required.
func TestSignedFilesValid(t *testing.T) {
	s := fastSigner(t)
	base := fileFor(s)
	layouts := map[string]string{
		"template":    base,
		"crlf":        strings.ReplaceAll(base, "\n", "\r\n"),
		"bom":         "\ufeff" + base,
		"no final nl": strings.TrimSuffix(base, "\n"),
		"quote":       strings.ReplaceAll(base, "- ", "> - "),
	}
	require := rules
	require.RequireSignature = true
	for name, text := range layouts {
		t.Run(name, func(t *testing.T) {
			b := signed(t, s, text)
			for _, rl := range []Rules{rules, require} {
				r := Validate(b, rl)
				if len(r.Problems) != 0 || r.SignedBy != ssh.FingerprintSHA256(s.PublicKey()) {
					t.Fatalf("signed %s: %+v signedBy=%q", name, r.Problems, r.SignedBy)
				}
			}
			if got := codes(Validate([]byte(text), require)); strings.Join(got, ",") != "unsigned" {
				t.Fatalf("unsigned under --exiger-signature: %v", got)
			}
			if r := Validate([]byte(text), rules); len(r.Problems) != 0 || r.SignedBy != "" {
				t.Fatalf("unsigned without the requirement: %+v", r.Problems)
			}
		})
	}
}

// tamperings of signature.md's tests: every byte above the marker
// changed, a changed line ending, the marker removed, the armour cut.
func tamperings(b []byte) map[string][]byte {
	out := map[string][]byte{}
	n := len(signing.SplitSigned(b).Message)
	for i := 0; i < n; i++ {
		v := bytes.Clone(b)
		v[i] ^= 0x01
		out[fmt.Sprintf("byte %d", i)] = v
		out[fmt.Sprintf("del %d", i)] = append(bytes.Clone(b[:i]), b[i+1:]...)
	}
	i := bytes.IndexByte(b, '\n')
	out["line ending"] = append(append(bytes.Clone(b[:i]), '\r'), b[i:]...)
	out["no marker"] = []byte(testenv.Edit(string(b), signing.SigMarker+"\n", ""))
	end := bytes.Index(b, []byte("-----END SSH"))
	out["armour truncated"] = append(bytes.Clone(b[:end-10]), b[end:]...)
	out["armour cut at END"] = b[:end]
	out["block gone, marker kept"] = b[:n+len(signing.SigMarker)+1]
	return out
}

func TestTamperingIsBadSignature(t *testing.T) {
	s := fastSigner(t)
	b := signed(t, s, fileFor(s))
	variants := tamperings(b)
	for name, v := range variants {
		r := Validate(v, rules)
		if !has(r, "bad-signature") || r.SignedBy != "" {
			t.Errorf("%s: %v, want bad-signature", name, codes(r))
		}
		if has(r, "private-key-leak") {
			t.Errorf("%s: a signature block reported as a leak", name)
		}
		for _, p := range r.Problems {
			if p.Line < 0 || p.Line > lines(v) {
				t.Errorf("%s: %s at line %d, outside the %d lines", name, p.Code, p.Line, lines(v))
			}
		}
	}
	if len(variants) < 2*len(fileFor(s)) {
		t.Fatalf("only %d variants", len(variants))
	}
}

func TestOtherKeyIsMismatch(t *testing.T) {
	mine, theirs := fastSigner(t), fastSigner(t)
	b := signed(t, theirs, fileFor(mine))
	if got := strings.Join(codes(Validate(b, rules)), ","); got != "signature-key-mismatch" {
		t.Fatalf("got %q", got)
	}
	// The stated fingerprint is the signer's, but the .pub beside is mine.
	b = signed(t, theirs, fileFor(theirs))
	rl := rules
	rl.Beside = &PubFile{Name: "id_ed25519_romeo.pub", Data: ssh.MarshalAuthorizedKey(mine.PublicKey())}
	got := codes(Validate(b, rl))
	if !contains(got, "signature-key-mismatch") {
		t.Fatalf("beside .pub of another key: %v", got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A signature block is never private key material, whatever its bytes:
// hundreds of real blocks, of ed25519 and RSA keys, are no leak; a private
// key pasted in the signed part still is, and so is one dressed up as a
// signature block.
func TestSignatureBlockIsNeverALeak(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	var signers []ssh.Signer
	for i := 0; i < 300; i++ {
		signers = append(signers, fastSigner(t))
	}
	for _, s := range signers {
		b := signed(t, s, fileFor(s))
		if r := Validate(b, rules); len(r.Problems) != 0 {
			t.Fatalf("%v\n%s", codes(r), b)
		}
	}
	priv, _, err := keys.Generate(rand.Reader, "x", []byte("passphrase"))
	if err != nil {
		t.Fatal(err)
	}
	s := signers[0]
	leaky := fileFor(s) + "\n" + string(priv)
	r := Validate(signed(t, s, leaky), rules)
	if !has(r, "private-key-leak") || has(r, "bad-signature") {
		t.Fatalf("key in the signed part: %v", codes(r))
	}

	// A key's body between the armour lines is no signature: a leak.
	body := strings.Join(strings.Split(strings.TrimSpace(string(priv)), "\n")[1:], "\n")
	body = strings.TrimSuffix(body, "-----END OPENSSH PRIVATE KEY-----")
	fake := fileFor(s) + signing.SigMarker + "\n```\n-----BEGIN SSH SIGNATURE-----\n" + strings.TrimSpace(body) + "\n-----END SSH SIGNATURE-----\n```\n"
	r = Validate([]byte(fake), rules)
	if !has(r, "private-key-leak") || !has(r, "bad-signature") {
		t.Fatalf("key body dressed as a signature: %v", codes(r))
	}

	// A well-formed SSHSIG whose namespace carries the whole private key.
	sig, err := sshsig.Sign(strings.NewReader("m"), s, sshsig.HashSHA512, string(priv))
	if err != nil {
		t.Fatal(err)
	}
	smuggled := fileFor(s) + signing.SigMarker + "\n```\n" + armor(sig.Marshal()) + "```\n"
	if signing.SplitSigned([]byte(smuggled)).Sig == nil {
		t.Fatal("the smuggling block does not parse: the test proves nothing")
	}
	r = Validate([]byte(smuggled), rules)
	if !has(r, "private-key-leak") || !has(r, "bad-signature") {
		t.Fatalf("key smuggled in a signature field: %v", codes(r))
	}
	for _, p := range r.Problems {
		if strings.Contains(p.Message, "BEGIN") || strings.Contains(p.Message, "U1NIU0lH") {
			t.Fatalf("message quotes the block: %q", p.Message)
		}
	}

	// The same with the key's raw bytes, not its text (outside tester,
	// stop 27: PKCS#8 DER in a field was read as inert).
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(edKey)
	raw, _ := ssh.MarshalPrivateKey(edKey, "")
	for _, field := range [][]byte{der, raw.Bytes} {
		sig, err := sshsig.Sign(strings.NewReader("m"), s, sshsig.HashSHA512, string(field))
		if err != nil {
			t.Fatal(err)
		}
		smuggled := fileFor(s) + signing.SigMarker + "\n```\n" + armor(sig.Marshal()) + "```\n"
		if r := Validate([]byte(smuggled), rules); !has(r, "private-key-leak") {
			t.Fatalf("raw key bytes smuggled in a signature field: %v", codes(r))
		}
	}

	// A security key's application string is a free field too (outside
	// tester, stop 28: ssh-keygen accepts the signature, pret saw no leak).
	for _, kind := range []string{signingtest.SKEd25519, signingtest.SKECDSA} {
		sk := signingtest.NewSK(kind, string(priv))
		text := strings.Replace(testenv.Edit(good, fpA, ssh.FingerprintSHA256(sk.PublicKey())), "(ED25519)", "(ED25519-SK)", 1)
		file := skSignFile(sk, text, signingtest.FlagUserPresent)
		if signing.SplitSigned(file).Verify() != nil {
			t.Fatalf("%s: the smuggling signature does not verify: the test proves nothing", kind)
		}
		if r := Validate(file, rules); !has(r, "private-key-leak") {
			t.Fatalf("%s: key smuggled in the application string: %v", kind, codes(r))
		}
	}
}

func armor(blob []byte) string {
	enc := base64.StdEncoding.EncodeToString(blob)
	var b strings.Builder
	b.WriteString("-----BEGIN SSH SIGNATURE-----\n")
	for len(enc) > 70 {
		b.WriteString(enc[:70] + "\n")
		enc = enc[70:]
	}
	b.WriteString(enc + "\n-----END SSH SIGNATURE-----\n")
	return b.String()
}

// A file signed by the real `ssh-keygen -Y sign -n pret-acces` over the
// same bytes is valid; one signed under another namespace is
// bad-signature.
func TestSSHKeygenSignedFile(t *testing.T) {
	keygen := testenv.NeedTool(t, "ssh-keygen")
	dir := t.TempDir()
	key := filepath.Join(dir, "id_ed25519_romeo")
	if out, err := exec.Command(keygen, "-q", "-t", "ed25519", "-N", "", "-C", "seance-novembre", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	pubData, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := keys.ParsePublic(pubData)
	if err != nil {
		t.Fatal(err)
	}
	msg := testenv.Edit(good, fpA, ssh.FingerprintSHA256(entries[0].Key))
	msgPath := filepath.Join(dir, "message")
	os.WriteFile(msgPath, []byte(msg), 0o644)
	for ns, want := range map[string]string{"pret-acces": "", "file": "bad-signature", "git": "bad-signature"} {
		os.Remove(msgPath + ".sig")
		if out, err := exec.Command(keygen, "-Y", "sign", "-n", ns, "-f", key, msgPath).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
		armour, err := os.ReadFile(msgPath + ".sig")
		if err != nil {
			t.Fatal(err)
		}
		file := msg + signing.SigMarker + "\n```\n" + string(armour) + "```\n"
		rl := rules
		rl.RequireSignature = true
		rl.Beside = &PubFile{Name: "id_ed25519_romeo.pub", Data: pubData}
		if got := strings.Join(codes(Validate([]byte(file), rl)), ","); got != want {
			t.Errorf("namespace %s: %q, want %q", ns, got, want)
		}
	}
}

// BenchmarkValidateSigned is the cost a signature adds to one file of a
// batch: compare with the same file unsigned.
func BenchmarkValidateSigned(b *testing.B) {
	s := fastSigner(b)
	for _, c := range []struct {
		name string
		data []byte
	}{{"unsigned", []byte(fileFor(s))}, {"signed", signed(b, s, fileFor(s))}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if r := Validate(c.data, rules); len(r.Problems) != 0 {
					b.Fatal(codes(r))
				}
			}
		})
	}
}

// FuzzValidateSigned mutates real signed files: a file is reported signed
// only when its signature verifies over the bytes before the marker;
// every signature problem names a line of the file; no message quotes the
// armour.
func FuzzValidateSigned(f *testing.F) {
	s := fastSigner(f)
	b := signed(f, s, fileFor(s))
	f.Add(b)
	f.Add(signed(f, fastSigner(f), fileFor(s)))
	// A few of the tamperings: the baseline run must fit CI's seconds.
	for _, name := range []string{"byte 3", "del 40", "line ending", "no marker", "armour truncated", "armour cut at END", "block gone, marker kept"} {
		f.Add(tamperings(b)[name])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := Validate(data, rules)
		sf := signing.SplitSigned(data)
		verified := sf.Claimed && sf.Verify() == nil
		if r.SignedBy != "" && (!verified || r.SignedBy != ssh.FingerprintSHA256(sf.Sig.PublicKey())) {
			t.Fatalf("reported signed by %s, but the signature does not hold", r.SignedBy)
		}
		if sf.Claimed && !verified && !has(r, "bad-signature") && !has(r, "too-large") {
			t.Fatalf("broken signature not reported: %v", codes(r))
		}
		for _, p := range r.Problems {
			if (p.Code == "bad-signature" || p.Code == "signature-key-mismatch") && (p.Line < 1 || p.Line > lines(data)) {
				t.Fatalf("%s at line %d of %d", p.Code, p.Line, lines(data))
			}
			for _, l := range armourLines(data, sf) {
				if strings.Contains(p.Message, l) {
					t.Fatalf("message quotes the block: %q", p.Message)
				}
			}
		}
	})
}

const base64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="

// armourLines are the long base64 lines of the block after the marker.
func armourLines(data []byte, sf *signing.SignedFile) []string {
	if sf.From == 0 {
		return nil
	}
	var out []string
	for i, l := range strings.Split(string(data), "\n") {
		// The armour's base64, not a line pret's advice names too ("<!-- pret:signat…", fuzzed).
		l = strings.TrimSpace(l)
		if i+1 > sf.From && i+1 <= sf.To && len(l) >= 16 && strings.Trim(l, base64Chars) == "" {
			out = append(out, l)
		}
	}
	return out
}
