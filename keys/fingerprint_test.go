package keys

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/testenv"
)

// vis escapes a line as ssh-keygen's mprintf does in a UTF-8 locale:
// each byte of an invalid or unprintable character (C0 but tab, DEL,
// C1) as \ooo; everything else as it is.
func vis(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r >= 0x7f && r <= 0x9f {
			for _, c := range []byte(s[i : i+n]) {
				fmt.Fprintf(&b, "\\%03o", c)
			}
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

type keygenCase struct {
	name  string
	path  string // "-" reads stdin
	stdin string
}

// makeKeygenCases writes, with the real ssh-keygen, every kind of file
// ssh-keygen -lf reads: public keys of four types with every kind of
// comment, certificates, authorized_keys and known_hosts lines, private
// keys in OpenSSH, PEM and PKCS#8 form, clear or encrypted, with or
// without a .pub, with a .pub of another key, and standard input.
func makeKeygenCases(t *testing.T, keygen string) []keygenCase {
	dir := t.TempDir()
	gen := func(name string, args ...string) string { return testenv.SSHKeygen(t, dir, name, args...) }
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pubLine := func(p string) string {
		b, err := os.ReadFile(p + ".pub")
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(b))
	}
	blob := func(p string) string { return strings.Fields(pubLine(p))[1] }
	typ := func(p string) string { return strings.Fields(pubLine(p))[0] }

	var cs []keygenCase
	add := func(name, path string) { cs = append(cs, keygenCase{name: name, path: path}) }

	ed := gen("ed", "-t", "ed25519", "-N", "", "-C", "kim@portable")
	ec := gen("ec", "-t", "ecdsa", "-b", "384", "-N", "", "-C", "ecdsa key")
	rsa := gen("rsa", "-t", "rsa", "-b", "1024", "-N", "", "-C", "")
	dsa := gen("dsa", "-t", "dsa", "-N", "", "-C", "old dsa")
	for _, k := range []string{ed, ec, rsa, dsa} {
		add("pub "+filepath.Base(k), k+".pub")
		add("private beside its pub "+filepath.Base(k), k)
	}
	edEnc := gen("edenc", "-t", "ed25519", "-N", "une passphrase", "-C", "chiffrée")
	add("encrypted openssh with pub", edEnc)
	edEncAlone := gen("edencalone", "-t", "ed25519", "-N", "une passphrase", "-C", "perdue")
	os.Remove(edEncAlone + ".pub")
	add("encrypted openssh alone", edEncAlone)
	edAlone := gen("edalone", "-t", "ed25519", "-N", "", "-C", "seule")
	os.Remove(edAlone + ".pub")
	add("clear openssh alone", edAlone)
	edEmpty := gen("edempty", "-t", "ed25519", "-N", "", "-C", "")
	os.Remove(edEmpty + ".pub")
	add("clear openssh alone, empty comment", edEmpty)
	ctl := gen("edctl", "-t", "ed25519", "-N", "", "-C", "a\x1b[31mb\u009bc\x7fd\u202ee\tf")
	os.Remove(ctl + ".pub")
	add("clear openssh alone, control characters in its comment", ctl)

	// Another key's .pub beside: ssh-keygen believes the .pub.
	other := gen("other", "-t", "ed25519", "-N", "", "-C", "autre")
	mismatch := gen("mismatch", "-t", "ed25519", "-N", "", "-C", "moi")
	write("mismatch.pub", pubLine(other)+"\n")
	add("private beside another key's pub", mismatch)
	noComment := gen("nocomment", "-t", "ed25519", "-N", "", "-C", "x")
	write("nocomment.pub", typ(noComment)+" "+blob(noComment)+"\n")
	add("pub without comment beside its private key", noComment)

	pemClear := gen("pemclear", "-t", "rsa", "-b", "1024", "-m", "PEM", "-N", "", "-C", "pem")
	os.Remove(pemClear + ".pub")
	add("clear PEM alone", pemClear)
	pemEnc := gen("pemenc", "-t", "rsa", "-b", "1024", "-m", "PEM", "-N", "secretpass", "-C", "pem")
	add("encrypted PEM with its pub", pemEnc)
	pemEncAlone := gen("pemencalone", "-t", "ecdsa", "-m", "PEM", "-N", "secretpass")
	os.Remove(pemEncAlone + ".pub")
	add("encrypted PEM alone", pemEncAlone)
	p8 := gen("p8", "-t", "ecdsa", "-m", "PKCS8", "-N", "", "-C", "p8")
	os.Remove(p8 + ".pub")
	add("clear PKCS#8 alone", p8)
	dsaAlone := gen("dsaalone", "-t", "dsa", "-N", "", "-C", "dsa seule")
	os.Remove(dsaAlone + ".pub")
	add("clear DSA alone", dsaAlone)

	ca := gen("ca", "-t", "ed25519", "-N", "", "-C", "ca")
	for _, k := range []string{ed, ec, rsa, dsa} {
		testenv.Run(t, keygen, "-q", "-s", ca, "-I", "id", "-n", "kim", k+".pub")
		add("certificate "+filepath.Base(k), k+"-cert.pub")
	}

	b := blob(ed)
	for i, content := range []string{
		"ssh-ed25519 " + b + " a\x1b[31mb\u009bc\x7fd\u202ee\xffg\th\n",
		"ssh-ed25519 " + b + "\n",
		"ssh-ed25519 " + b + "   plusieurs   mots  \n",
		"# un commentaire\n\n  ssh-ed25519 " + b + " indentée\n" + pubLine(ec) + "\n" + pubLine(rsa) + " rsa\n",
		"romeo,10.0.0.1 ssh-ed25519 " + b + "\n",
		"romeo,10.0.0.1 ssh-ed25519 " + b + " et un commentaire\n",
		`command="echo a b",no-pty ssh-ed25519 ` + b + " options\n",
		`from="10.0.0.*" ssh-ed25519 ` + b + "\n",
		"ssh-rsa " + b + " type menteur\nssh-ed25519 " + b + " la bonne\n",
		"ssh-ed25519 " + b + " # pas un commentaire\n",
		"ssh-ed25519 " + b + " #commentaire\n",
		"1024 35 12345 vieille clé ssh1\nssh-ed25519 " + b + " après\n",
		"ssh-ed25519 " + b + " crlf\r\n",
		"texte\nsans clé\n",
		"",
		"ssh-ed25519 AAAA" + " cassée\n",
		"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n",
		"\n-----BEGIN OPENSSH PRIVATE KEY-----\n",
	} {
		add(fmt.Sprintf("public file %d %q", i, content), write(fmt.Sprintf("f%d.pub", i), content))
	}
	cs = append(cs, keygenCase{name: "stdin public", path: "-", stdin: pubLine(ed) + "\n" + pubLine(dsa) + "\n"})
	priv, _ := os.ReadFile(ed)
	cs = append(cs, keygenCase{name: "stdin private", path: "-", stdin: string(priv)})
	return cs
}

// TestFingerprintFileMatchesSSHKeygen: for every kind of file, pret reads
// the same keys and comments as `ssh-keygen -lf` (byte for byte once the
// comment is escaped the way ssh-keygen does), and refuses exactly the
// files ssh-keygen refuses.
func TestFingerprintFileMatchesSSHKeygen(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	keygen := testenv.NeedTool(t, "ssh-keygen")
	compared := 0
	for _, c := range makeKeygenCases(t, keygen) {
		cmd := exec.Command(keygen, "-lf", c.path)
		cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
		cmd.Stdin = strings.NewReader(c.stdin)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		kerr := cmd.Run()
		fps, err := FingerprintFile(disk, c.path, strings.NewReader(c.stdin))
		if kerr != nil {
			if err == nil {
				t.Errorf("%s: ssh-keygen refuses (%s) but pret reads %v", c.name, strings.TrimSpace(stderr.String()), fps)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: pret refuses (%v) what ssh-keygen reads:\n%s", c.name, err, stdout.String())
			continue
		}
		var got strings.Builder
		for _, f := range fps {
			got.WriteString(vis(f.Line()) + "\n")
		}
		if got.String() != stdout.String() {
			t.Errorf("%s:\npret       %q\nssh-keygen %q", c.name, got.String(), stdout.String())
		}
		compared++
	}
	// Refusing alike proves little: most files must be read by both.
	if compared < 30 { // 37 with OpenSSH 9.2
		t.Fatalf("only %d files read by both pret and ssh-keygen", compared)
	}
}
