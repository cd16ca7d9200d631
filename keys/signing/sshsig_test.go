package signing

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
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
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/keys/signing/signingtest"
)

const testPass = "correct horse battery"

// messages are the kinds of acces.md a learner may sign: pret's own,
// hand-written ones with CRLF, a BOM, no final newline, accents, nothing
// at all, trailing blank lines, and files that already carry a block.
func messages(t testing.TB, signer ssh.Signer) map[string][]byte {
	t.Helper()
	base := "# Accès ROMEO\n\n- Date de demande : 2026-10-20\n- Clé : ~/.ssh/id_ed25519_romeo.pub\n\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n"
	m := map[string][]byte{
		"pret":           []byte(base),
		"crlf":           []byte(strings.ReplaceAll(base, "\n", "\r\n")),
		"bom":            append([]byte("\xef\xbb\xbf"), base...),
		"no-final-nl":    []byte(strings.TrimSuffix(base, "\n")),
		"empty":          nil,
		"one-char":       []byte("x"),
		"trailing-blank": []byte(base + "\n\n   \n"),
		"mixed-endings":  []byte("a\r\nb\nc\r\n"),
	}
	signed, err := SignFile(rand.Reader, signer, []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	m["already-signed"] = signed
	m["signed-then-edited"] = append([]byte("Ajout\n"), signed...)
	return m
}

func testSigner(t testing.TB) (ssh.Signer, []byte) {
	t.Helper()
	priv, _, err := keys.Generate(rand.Reader, "seance-novembre", []byte(testPass))
	if err != nil {
		t.Fatal(err)
	}
	s, wipe, err := keys.Decrypt(priv, []byte(testPass))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(wipe)
	return s, priv
}

// checkWithOpenSSH runs the three commands of signature.md on the file,
// with the real sed and ssh-keygen, and returns their error.
func checkWithOpenSSH(t *testing.T, dir string, file []byte, namespace string) ([]byte, error) {
	t.Helper()
	sed := testenv.NeedTool(t, "sed")
	path := filepath.Join(dir, "acces.md")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	msg, err := exec.Command(sed, `/^<!-- pret:signature -->$/,$d`, path).Output()
	if err != nil {
		t.Fatal(err)
	}
	armor, err := exec.Command(sed, "-n", `/^-----BEGIN SSH SIGNATURE-----$/,/^-----END SSH SIGNATURE-----$/p`, path).Output()
	if err != nil {
		t.Fatal(err)
	}
	if ok, _, out := checkNovalidate(t, dir, armor, msg, namespace); !ok {
		return msg, errors.New(out)
	}
	return msg, nil
}

// Every file pret signs passes OpenSSH's own check, and OpenSSH's cut of
// the file is byte for byte the part pret signed.
func TestSignedFilePassesOpenSSHRecipe(t *testing.T) {
	signer, _ := testSigner(t)
	for name, data := range messages(t, signer) {
		t.Run(name, func(t *testing.T) {
			signed, err := SignFile(rand.Reader, signer, data)
			if err != nil {
				t.Fatal(err)
			}
			f := SplitSigned(signed)
			if err := f.Verify(); err != nil {
				t.Fatalf("pret rejects its own signature: %v", err)
			}
			msg, err := checkWithOpenSSH(t, t.TempDir(), signed, SigNamespace)
			if err != nil {
				t.Fatalf("ssh-keygen -Y check-novalidate: %v\n%s", err, signed)
			}
			if !bytes.Equal(msg, f.Message) {
				t.Fatalf("sed's signed part %q differs from pret's %q", msg, f.Message)
			}
			if _, err := checkWithOpenSSH(t, t.TempDir(), signed, "file"); err == nil {
				t.Fatal("ssh-keygen accepted the signature under another namespace")
			}
			// Signing again replaces the block, never stacks a second one.
			again, err := SignFile(rand.Reader, signer, signed)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(SplitSigned(again).Message, f.Message) || bytes.Count(again, []byte(SigMarker)) != 1 {
				t.Fatalf("re-signing changed the signed part or stacked blocks:\n%s", again)
			}
		})
	}
}

// sshKeygenSign signs msg with the real ssh-keygen, given opts (-O …),
// and returns the armour.
func sshKeygenSign(t *testing.T, dir, key, namespace string, msg []byte, opts ...string) []byte {
	t.Helper()
	path := filepath.Join(dir, "message")
	if err := os.WriteFile(path, msg, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(path + ".sig")
	args := append([]string{"-Y", "sign", "-n", namespace, "-f", key, "-P", testPass}, opts...)
	testenv.Run(t, testenv.NeedTool(t, "ssh-keygen"), append(args, path)...)
	armor, err := os.ReadFile(path + ".sig")
	if err != nil {
		t.Fatal(err)
	}
	return armor
}

// A block made by `ssh-keygen -Y sign -n pret-acces` over the same bytes
// is accepted, and is byte for byte the block pret makes: ed25519 and
// SSHSIG are deterministic, so the two implementations must agree exactly.
func TestSSHKeygenSignatureAccepted(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	dir := t.TempDir()
	key := testenv.SSHKeygen(t, dir, "id_ed25519_romeo", "-t", "ed25519", "-a", "4", "-N", testPass, "-C", "seance-novembre")
	priv, err := os.ReadFile(key)
	if err != nil {
		t.Fatal(err)
	}
	signer, wipe, err := keys.Decrypt(priv, []byte(testPass))
	if err != nil {
		t.Fatal(err)
	}
	defer wipe()
	for name, data := range messages(t, signer) {
		t.Run(name, func(t *testing.T) {
			msg := SplitSigned(data).Message
			if len(msg) > 0 && msg[len(msg)-1] != '\n' {
				msg = append(bytes.Clone(msg), '\n')
			}
			armor := sshKeygenSign(t, dir, key, SigNamespace, msg)
			file := append(append(bytes.Clone(msg), SigMarker+"\n```\n"...), armor...)
			file = append(file, "```\n"...)
			f := SplitSigned(file)
			if err := f.Verify(); err != nil {
				t.Fatalf("ssh-keygen's signature refused: %v\n%s", err, file)
			}
			if ssh.FingerprintSHA256(f.Sig.PublicKey()) != ssh.FingerprintSHA256(signer.PublicKey()) {
				t.Fatal("public key read from the signature is not the signer's")
			}
			if !bytes.Equal(f.Sig.Armor(), armor) {
				t.Fatalf("re-armoured block differs from ssh-keygen's:\n%s\n%s", f.Sig.Armor(), armor)
			}
			mine, err := SignFile(rand.Reader, signer, msg)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(mine, file) {
				t.Fatalf("pret's signed file differs from the one built with ssh-keygen:\n%s\n---\n%s", mine, file)
			}

			other := sshKeygenSign(t, dir, key, "file", msg)
			bad := append(append(bytes.Clone(msg), SigMarker+"\n```\n"...), other...)
			bad = append(bad, "```\n"...)
			if err := SplitSigned(bad).Verify(); !errors.Is(err, ErrNamespace) {
				t.Fatalf("namespace file: got %v, want ErrNamespace", err)
			}
		})
	}
}

// tampered lists every variant of a signed file that must not verify:
// each byte above the marker changed (two ways) or deleted, a byte added
// at each position, one line ending changed, the marker removed or
// altered, and the armour truncated at every line.
func tampered(signed []byte) map[string][]byte {
	out := map[string][]byte{}
	f := SplitSigned(signed)
	n := len(f.Message)
	for i := 0; i < n; i++ {
		for _, x := range []byte{0x01, 0x20} {
			v := bytes.Clone(signed)
			v[i] ^= x
			out[fmt.Sprintf("xor%#x@%d", x, i)] = v
		}
		out[fmt.Sprintf("del@%d", i)] = append(bytes.Clone(signed[:i]), signed[i+1:]...)
		out[fmt.Sprintf("ins@%d", i)] = append(append(bytes.Clone(signed[:i]), ' '), signed[i:]...)
	}
	if i := bytes.IndexByte(signed, '\n'); i >= 0 && i < n {
		out["crlf"] = append(append(bytes.Clone(signed[:i]), '\r'), signed[i:]...)
	}
	out["lf-everywhere-to-crlf"] = bytes.ReplaceAll(signed, []byte("\n"), []byte("\r\n"))
	out["no-marker"] = bytes.Replace(signed, []byte(SigMarker+"\n"), nil, 1)
	out["marker-crlf"] = bytes.Replace(signed, []byte(SigMarker+"\n"), []byte(SigMarker+"\r\n"), 1)
	out["marker-space"] = bytes.Replace(signed, []byte(SigMarker+"\n"), []byte(SigMarker+" \n"), 1)
	out["no-block"] = signed[:n+len(SigMarker)+1]
	lines := bytes.SplitAfter(signed[n:], []byte("\n"))
	// Up to the armour's END line: without its closing fence, the block
	// runs to the end of the file, as CommonMark says, and still holds
	// (TestFencesAgreeWithOpenSSH).
	for k := 1; k < len(lines)-2; k++ {
		cut := append(bytes.Clone(signed[:n]), bytes.Join(lines[:k], nil)...)
		out[fmt.Sprintf("truncated-after-line-%d", k)] = cut
		drop := append(bytes.Clone(signed[:n]), bytes.Join(append(append([][]byte{}, lines[:k]...), lines[k+1:]...), nil)...)
		out[fmt.Sprintf("line-%d-removed", k)] = drop
	}
	end := bytes.Index(signed, []byte(armorEnd))
	out["armour-last-char-cut"] = append(bytes.Clone(signed[:end-2]), signed[end-1:]...)
	return out
}

func TestTamperingBreaksSignature(t *testing.T) {
	signer, _ := testSigner(t)
	signed, err := SignFile(rand.Reader, signer, messages(t, signer)["pret"])
	if err != nil {
		t.Fatal(err)
	}
	variants := tampered(signed)
	if len(variants) < 4*len(SplitSigned(signed).Message) {
		t.Fatalf("only %d variants", len(variants))
	}
	for name, v := range variants {
		f := SplitSigned(v)
		if err := f.Verify(); err == nil || errors.Is(err, ErrUnsigned) {
			t.Errorf("%s: tampered file verifies or reads as unsigned (%v)", name, err)
		}
		if f.Line < 1 || f.Line > lineCount(v) {
			t.Errorf("%s: line %d outside the file (%d lines)", name, f.Line, lineCount(v))
		}
	}
}

func lineCount(b []byte) int {
	n := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// armourVariants re-wraps a signature's armour in the layouts a mail
// client, an editor or a person may give it, plus layouts that must stay
// refused: every width from 1 to past the whole body, one line, blank and
// indented lines, and damaged ones.
func armourVariants(a []byte) map[string]string {
	all := strings.Split(strings.TrimSuffix(string(a), "\n"), "\n")
	body := strings.Join(all[1:len(all)-1], "")
	wrap := func(w int, sep string) string {
		var b strings.Builder
		b.WriteString(armorBegin + "\n")
		for rest := body; rest != ""; {
			n := min(w, len(rest))
			b.WriteString(rest[:n] + sep)
			rest = rest[n:]
		}
		b.WriteString(armorEnd + "\n")
		return b.String()
	}
	v := map[string]string{}
	for w := 1; w <= len(body)+3; w += 1 + w/8 {
		v[fmt.Sprintf("width %d", w)] = wrap(w, "\n")
	}
	for _, w := range []int{64, 70, 76} {
		v[fmt.Sprintf("width %d", w)] = wrap(w, "\n")
		v[fmt.Sprintf("width %d crlf body", w)] = wrap(w, "\r\n")
		v[fmt.Sprintf("width %d trailing spaces", w)] = wrap(w, "  \n")
		v[fmt.Sprintf("width %d tabs", w)] = strings.ReplaceAll(wrap(w, "\n"), "\n"+body[w:w+1], "\n\t"+body[w:w+1])
	}
	v["one line"] = wrap(len(body), "\n")
	v["one line no final newline"] = strings.TrimSuffix(wrap(len(body), "\n"), "\n")
	v["blank line inside"] = strings.Replace(string(a), "\n", "\n\n", 2)
	v["no padding"] = strings.Replace(wrap(len(body), "\n"), "=", "", -1)
	v["extra padding"] = strings.Replace(string(a), "\n"+armorEnd, "=\n"+armorEnd, 1)
	v["header"] = strings.Replace(string(a), armorBegin+"\n", armorBegin+"\nComment: x\n\n", 1)
	v["crlf everywhere"] = strings.ReplaceAll(string(a), "\n", "\r\n")
	v["bad character"] = strings.Replace(string(a), "A", "*", 1)
	v["space after BEGIN"] = strings.Replace(string(a), armorBegin+"\n", armorBegin+" \n", 1)
	v["other header"] = strings.Replace(string(a), "SSH SIGNATURE", "PGP SIGNATURE", 2)
	v["truncated"] = wrap(len(body)-4, "\n")[:len(armorBegin)+1+len(body)-4+1] + armorEnd + "\n"
	v["empty body"] = armorBegin + "\n" + armorEnd + "\n"
	v["space after END"] = strings.Replace(string(a), armorEnd+"\n", armorEnd+" \n", 1)
	v["text after END"] = strings.Replace(string(a), armorEnd+"\n", armorEnd+" fin\nsuite\n", 1)
	v["END mid-line"] = strings.Replace(string(a), "\n"+armorEnd, armorEnd, 1)
	v["extra data"] = wrap(70, "\n")[:len(armorBegin)+1] + "AAAA" + wrap(70, "\n")[len(armorBegin)+1:]
	return v
}

// pret reads an armour exactly when OpenSSH does: the real
// `ssh-keygen -Y check-novalidate` is the judge, over generated widths
// and damaged layouts. A re-wrapped signature is the same signature; a
// damaged one is refused by both.
func TestParseArmorAgreesWithOpenSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	keygen := testenv.NeedTool(t, "ssh-keygen")
	signer, _ := testSigner(t)
	msg := []byte("# Accès\n- Date de demande : 2026-10-20\n")
	sig, err := Sign(rand.Reader, signer, msg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	accepted := 0
	for name, text := range armourVariants(sig.Armor()) {
		path := filepath.Join(dir, "s.sig")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(keygen, "-Y", "check-novalidate", "-n", SigNamespace, "-s", path)
		cmd.Stdin = bytes.NewReader(msg)
		openssh := cmd.Run() == nil
		parsed, perr := ParseArmor([]byte(text))
		mine := perr == nil && parsed.Verify(msg) == nil
		if mine != openssh {
			t.Errorf("%s: ssh-keygen accepts=%v, pret accepts=%v (%v)\n%s", name, openssh, mine, perr, text)
		}
		if perr != nil && !errors.Is(perr, ErrBadArmor) {
			t.Errorf("%s: refusal is not ErrBadArmor: %v", name, perr)
		}
		if mine {
			accepted++
			// Whatever the layout read, pret writes ssh-keygen's own.
			if !bytes.Equal(parsed.Armor(), sig.Armor()) {
				t.Errorf("%s: re-armoured differently", name)
			}
		}
	}
	if accepted < 10 {
		t.Fatalf("only %d layouts accepted: the generator lost its widths", accepted)
	}
}

// FuzzSplitSigned checks the parser against the sed cut of signature.md
// and its own writer: the signed part is exactly what
// `sed '/^<!-- pret:signature -->$/,$d'` keeps; only blank lines follow
// an accepted block; any accepted block
// re-armours to the same bytes; every reported line is in the file.
func FuzzSplitSigned(f *testing.F) {
	signer, _ := testSigner(f)
	for _, m := range messages(f, signer) {
		f.Add(m)
		if s, err := SignFile(rand.Reader, signer, m); err == nil {
			f.Add(s)
			f.Add(append(bytes.Clone(s), "<!-- fin -->\n>\n> <!--\n"...)) // refused: only blank lines may follow
			// A few tamperings: the baseline run must fit CI's seconds.
			for _, name := range []string{"xor0x1@5", "del@30", "crlf", "no-marker", "marker-crlf", "no-block", "truncated-after-line-3", "armour-last-char-cut"} {
				if v, ok := tampered(s)[name]; ok {
					f.Add(v)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sf := SplitSigned(data)
		if want := sedCut(data); !bytes.Equal(sf.Message, want) {
			t.Fatalf("signed part %q, sed keeps %q", sf.Message, want)
		}
		n := lineCount(data)
		if sf.Claimed && (sf.Line < 1 || sf.Line > n) || sf.From > n || sf.To > n || sf.To < sf.From {
			t.Fatalf("lines %d [%d,%d] outside a %d-line file", sf.Line, sf.From, sf.To, n)
		}
		if !sf.Claimed && (sf.Err != nil || sf.Sig != nil || !bytes.Equal(sf.Message, data)) {
			t.Fatal("unclaimed file with a signature or an error")
		}
		if sf.Sig == nil {
			if sf.Claimed && sf.Err == nil {
				t.Fatal("claimed signature with neither signature nor error")
			}
			return
		}
		if err := Signable(sf.Message); err != nil {
			t.Fatalf("accepted a signed part pret signer refuses: %v", err)
		}
		// Accepted: the file is the message, the marker, blank lines, an
		// opening fence, the armour holding exactly the blob's base64
		// (whitespace aside, as OpenSSH reads it), a closing fence unless
		// the block runs to the end, and blank lines.
		lines := strings.Split(string(data[len(sf.Message):]), "\n")
		k := sf.To - sf.From
		open := 1
		for open < k && strings.TrimSpace(lines[open]) == "" {
			open++
		}
		opening := fenceLine.FindStringSubmatch(lines[open])
		if lines[0] != SigMarker || opening == nil {
			t.Fatalf("accepted block is not marker, blank lines, fence: %q", lines)
		}
		body := lines[open+1 : k+1]
		if closing := fenceLine.FindStringSubmatch(lines[k]); closing != nil && closing[2] == "" && closing[1][0] == opening[1][0] && len(closing[1]) >= len(opening[1]) {
			body = lines[open+1 : k]
		} else if strings.TrimSpace(strings.Join(lines[k+1:], "")) != "" {
			t.Fatalf("accepted block neither closed nor at the end: %q", lines)
		}
		for len(body) > 0 && strings.TrimSpace(body[len(body)-1]) == "" {
			body = body[:len(body)-1]
		}
		for len(body) > 0 && strings.TrimSpace(body[0]) == "" {
			body = body[1:]
		}
		if got := armourBase64(t, strings.Join(body, "\n")); got != base64.StdEncoding.EncodeToString(sf.Sig.blob) {
			t.Fatalf("accepted armour holds %q, not the blob", got)
		}
		showsNothing(t, lines[k+1:])
		re := AttachSignature(sf.Message, sf.Sig)
		again := SplitSigned(re)
		if again.Sig == nil || !bytes.Equal(again.Sig.blob, sf.Sig.blob) || !bytes.Equal(again.Message, sf.Message) {
			t.Fatal("re-armoured file does not parse back to the same signature")
		}
	})
}

// showsNothing fails t unless lines, after an accepted block, are blank.
func showsNothing(t *testing.T, lines []string) {
	t.Helper()
	if text := strings.TrimSpace(strings.Join(lines, "")); text != "" {
		t.Fatalf("accepted file has text after its block: %q", text)
	}
}

// fenceLine is a CommonMark fence line: up to three spaces, three or
// more backticks or tildes, then the info string.
var fenceLine = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})(.*)$")

// armourBase64 is the base64 between the BEGIN and END lines of an
// accepted armour, whitespace removed; it fails when those lines are not
// exactly there.
func armourBase64(t *testing.T, a string) string {
	t.Helper()
	l := strings.Split(strings.TrimSuffix(a, "\n"), "\n")
	// The END line is read as sshsig_dearmor reads it: a line starting
	// with the marker; what follows the marker is not read (ParseArmor).
	if len(l) < 3 || l[0] != armorBegin || !strings.HasPrefix(l[len(l)-1], armorEnd) {
		t.Fatalf("accepted armour without its BEGIN/END lines: %q", a)
	}
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(" \t\r\v\f", r) {
			return -1
		}
		return r
	}, strings.Join(l[1:len(l)-1], ""))
}

// sedCut is `sed '/^<!-- pret:signature -->$/,$d'`, written the plain way.
func sedCut(data []byte) []byte {
	var out []byte
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		if string(bytes.TrimSuffix(l, []byte("\n"))) == SigMarker {
			break
		}
		out = append(out, l...)
	}
	if out == nil {
		return data[:0]
	}
	return out
}

func FuzzParseArmor(f *testing.F) {
	signer, _ := testSigner(f)
	sig, err := Sign(rand.Reader, signer, []byte("m\n"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sig.Armor())
	f.Add([]byte(armorBegin + "\nAAAA\n" + armorEnd + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseArmor(b)
		if err != nil {
			return
		}
		// Any layout OpenSSH reads, but nothing else: the text holds the
		// blob's base64 and whitespace only.
		if got := armourBase64(t, string(b)); got != base64.StdEncoding.EncodeToString(s.blob) {
			t.Fatalf("accepted armour %q holds %q, not the blob", b, got)
		}
	})
}

func BenchmarkSignFile(b *testing.B) {
	signer, _ := testSigner(b)
	msg := messages(b, signer)["pret"]
	for b.Loop() {
		if _, err := SignFile(rand.Reader, signer, msg); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSplitVerify(b *testing.B) {
	signer, _ := testSigner(b)
	signed, _ := SignFile(rand.Reader, signer, messages(b, signer)["pret"])
	for b.Loop() {
		if err := SplitSigned(signed).Verify(); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzParseBlob: a blob pret reads is read whole, as OpenSSH reads it:
// its fields written back give the same bytes (nothing skipped, nothing
// after), its hash is one OpenSSH knows, and its signature field is of
// its key's type with nothing after the fields that type has.
func FuzzParseBlob(f *testing.F) {
	signer, _ := testSigner(f)
	sig, err := Sign(rand.Reader, signer, []byte("m\n"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sig.blob)
	b := signingtest.Parse(sig.blob)
	b.Reserved = "x"
	f.Add(b.Marshal())
	b.Trailing = []byte{0}
	f.Add(b.Marshal())
	for _, kind := range []string{signingtest.SKEd25519, signingtest.SKECDSA, signingtest.WebAuthnSK} {
		s, pub := signingtest.SK(kind, []byte("m"), signingtest.FlagUserPresent)
		f.Add(signingtest.Blob{Version: 1, PublicKey: pub.Marshal(), Namespace: SigNamespace, Hash: "sha512", Signature: s}.Marshal())
	}
	f.Fuzz(func(t *testing.T, blob []byte) {
		s, err := parseBlob(blob)
		if err != nil {
			// A malformed field OpenSSH refuses too names its cause instead.
			if !errors.Is(err, ErrBadArmor) && !NamesItsCause(err) {
				t.Fatalf("refusal is neither ErrBadArmor nor a cause: %v", err)
			}
			return
		}
		again := signingtest.Blob{Version: s.w.Version, PublicKey: s.pub.Marshal(), Namespace: s.w.Namespace,
			Reserved: string(s.w.Reserved), Hash: s.w.Hash, Signature: ssh.Marshal(s.sig)}.Marshal()
		if !bytes.Equal(again, blob) {
			t.Fatalf("blob %x read as %x", blob, again)
		}
		if s.w.Hash != "sha256" && s.w.Hash != "sha512" || s.w.Version > 1 {
			t.Fatalf("hash %q, version %d accepted", s.w.Hash, s.w.Version)
		}
		sk := s.sig.Format == skEd25519 || s.sig.Format == skECDSA || s.sig.Format == webauthnSK
		if sk && len(s.sig.Rest) < 5 || !sk && len(s.sig.Rest) > 0 {
			t.Fatalf("signature fields %x after %q", s.sig.Rest, s.sig.Format)
		}
		_ = s.Verify([]byte("m\n")) // never panics, whatever it holds
	})
}

// checkNovalidate is the oracle: `ssh-keygen -Y check-novalidate -n
// namespace` on an armoured signature of msg. It returns whether
// ssh-keygen accepts, the fingerprint it names and what it printed.
func checkNovalidate(t *testing.T, dir string, armour, msg []byte, namespace string) (bool, string, string) {
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
	openssh, fp, out := checkNovalidate(t, dir, armour, msg, SigNamespace)
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
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	keygen := testenv.NeedTool(t, "ssh-keygen")
	dir := t.TempDir()
	msg := []byte("# Accès\n\n- Date de la demande : 2026-10-16\n\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n")
	keygenSign := func(t *testing.T, key, hash string) []byte {
		return sshKeygenSign(t, dir, key, SigNamespace, msg, "-O", "hashalg="+hash)
	}
	caPath, ca := makeKey(t, dir, "ca", "ed25519", "")
	// The whole matrix of key types when long (PRET_LONG=1); ed25519,
	// pret's own, on a plain run.
	for _, k := range keyKinds[:testenv.Scaled(1, len(keyKinds))] {
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
				if ok, _, out := checkNovalidate(t, dir, mine.Armor(), msg, SigNamespace); !ok {
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
			// Certificates OpenSSH refuses when it reads the key (cert_parse):
			// a false signature by the authority, an unknown type, a NUL in a name.
			resigned := func(edit func(*ssh.Certificate)) *ssh.Certificate {
				c := *cert
				edit(&c)
				if err := c.SignCert(rand.Reader, ca); err != nil {
					t.Fatal(err)
				}
				return &c
			}
			forged := *cert
			forged.Signature = &ssh.Signature{Format: cert.Signature.Format, Blob: bytes.Clone(cert.Signature.Blob)}
			forged.Signature.Blob[len(forged.Signature.Blob)-1] ^= 1
			for name, bad := range map[string]*ssh.Certificate{
				"false CA signature": &forged,
				"type 3":             resigned(func(c *ssh.Certificate) { c.CertType = 3 }),
				"NUL in the key id":  resigned(func(c *ssh.Certificate) { c.KeyId = "kim\x00x" }),
				"NUL in a principal": resigned(func(c *ssh.Certificate) { c.ValidPrincipals = []string{"kim\x00x"} }),
			} {
				badSigner, err := ssh.NewCertSigner(bad, signer)
				if err != nil {
					t.Fatal(err)
				}
				if k.typ == "rsa" {
					badSigner = rsaSHA512{badSigner.(ssh.AlgorithmSigner)}
				}
				raw, err := sshsig.SignWithRand(bytes.NewReader(msg), rand.Reader, badSigner, sshsig.HashSHA512, SigNamespace)
				if err != nil {
					t.Fatal(err)
				}
				armour := (&Signature{blob: raw.Marshal()}).Armor()
				agree(t, dir, name, armour, msg, nil)
				if _, err := pretAccepts(armour, msg); !errors.Is(err, ErrBadArmor) {
					t.Errorf("%s: %v, want %v", name, err, ErrBadArmor)
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
	s := new(big.Int).Add(new(big.Int).SetBytes(be), ed25519Order()).FillBytes(make([]byte, 32))
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
		{"40,000 blank lines after", "```\n" + a + "```\n" + strings.Repeat("\n", 40000), nil}, // outside tester, stop 40
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
		// The outside tester's: sed skips it, the page shows it in the block.
		{"text before BEGIN in the block", "```\nDate de la demande : 2026-10-01\n" + a + "```\n", ErrBeforeBegin},
		{"comment after the block", "```\n" + a + "```\n<!-- fin -->\n", ErrTrailing},
		{"backtick in a backtick info string", "``` a`b\n" + a + "```\n", ErrMisplacedMarker},
		// Fuzzed: the END line read as OpenSSH reads it (a prefix), then text the block shows.
		{"text after an END line with more on it", "```\n" + strings.TrimSuffix(a, "\n") + "`\n<\n", ErrAfterEnd},
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

// TestCRLFMarkerAtTheEnd: a marker line ending the file in "\r" is the
// CRLF case, read once (FuzzSplitSigned: the LF retry called itself on
// the same bytes until the stack ran out). Alone, with no LF, it is a
// file of CRs alone, read as its lines (ErrCR).
func TestCRLFMarkerAtTheEnd(t *testing.T) {
	for data, want := range map[string]error{SigMarker + "\r": ErrCR, "texte\r\n" + SigMarker + "\r": ErrCRLF, SigMarker + "\r\n": ErrCRLF} {
		if f := SplitSigned([]byte(data)); !errors.Is(f.Err, want) {
			t.Errorf("%q: %v, want %v", data, f.Err, want)
		}
	}
}
