package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/termtext"
)

// TestEmpreinteMatchesSSHKeygen runs `pret empreinte` and the real
// `ssh-keygen -lf` on the cases issue 10 lists (certificates, DSA, legacy
// encrypted PEM with its .pub, control characters in comments, a private
// key beside another key's .pub, "-" for standard input) and more: the
// output is ssh-keygen's byte for byte, where the comment holds what
// ssh-keygen lets through raw but pret escapes (tab, carriage return,
// bidi controls: termtext.Escape) escaped as well. A file ssh-keygen
// refuses, pret refuses with exit 1 and a French reason.
func TestEmpreinteMatchesSSHKeygen(t *testing.T) {
	notShort(t)
	keygen, err := exec.LookPath("ssh-keygen")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("ssh-keygen is required in CI")
		}
		t.Skip("ssh-keygen not installed")
	}
	home := testEnv(t)
	gen := func(name string, args ...string) string {
		p := filepath.Join(home, name)
		if out, err := exec.Command(keygen, append([]string{"-q", "-f", p}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen %v: %v\n%s", args, err, out)
		}
		return p
	}
	pub := func(p string) string {
		b := readFile(t, p+".pub")
		return strings.TrimSpace(string(b))
	}
	write := func(name, s string) string { return put(t, home, name, s) }
	type tc struct{ path, stdin string }
	var cases []tc
	ed := gen("ed", "-t", "ed25519", "-N", "", "-C", "kim")
	ca := gen("ca", "-t", "ed25519", "-N", "", "-C", "ca")
	dsa := gen("dsa", "-t", "dsa", "-N", "", "-C", "dsa")
	rsa := gen("rsa", "-t", "rsa", "-b", "1024", "-N", "", "-C", "rsa")
	for _, k := range []string{ed, dsa, rsa} {
		if out, err := exec.Command(keygen, "-q", "-s", ca, "-I", "id", "-n", "kim", k+".pub").CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		cases = append(cases, tc{path: k + "-cert.pub"}, tc{path: k + ".pub"}, tc{path: k})
	}
	pem := gen("pem", "-t", "rsa", "-b", "1024", "-m", "PEM", "-N", "secretpass", "-C", "pem")
	pemAlone := gen("pemseul", "-t", "rsa", "-b", "1024", "-m", "PEM", "-N", "secretpass")
	os.Remove(pemAlone + ".pub")
	other := gen("autre", "-t", "ed25519", "-N", "", "-C", "autre")
	mine := gen("moi", "-t", "ed25519", "-N", "une passphrase", "-C", "moi")
	write("moi.pub", pub(other)+"\n")
	ctlPriv := gen("ctl", "-t", "ed25519", "-N", "", "-C", "a\x1b[2Jb\u009bc\u202ed\te\x7f")
	os.Remove(ctlPriv + ".pub")
	blob := strings.Fields(pub(ed))[1]
	cases = append(cases, tc{path: pem}, tc{path: pemAlone}, tc{path: mine}, tc{path: ctlPriv},
		tc{path: write("ctl.pub", "ssh-ed25519 "+blob+" x\x1b]0;titre\x07y\u0085z\xff\u2066w\tv\r\n")},
		tc{path: write("forge.pub", "ssh-ed25519 "+blob+" a\rRésumé : 99 fichiers\n")},
		tc{path: "-", stdin: pub(ed) + "\n" + pub(dsa) + "\n"},
		tc{path: "-", stdin: "pas une clé\n"},
		tc{path: write("vide.pub", "")})
	for _, c := range cases {
		for _, art := range []bool{false, true} {
			checkEmpreinte(t, keygen, c.path, c.stdin, art)
		}
	}
}

// checkEmpreinte compares pret empreinte [--art] with ssh-keygen -l[v]f.
func checkEmpreinte(t *testing.T, keygen, path, stdin string, art bool) {
	t.Helper()
	flag, args := "-lf", []string{"empreinte", path}
	if art {
		flag, args = "-lvf", []string{"empreinte", "--art", path}
	}
	cmd := exec.Command(keygen, flag, path)
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	kerr := cmd.Run()
	r := pretIn(t, stdin, args...)
	if kerr != nil {
		must(t, r, 1, args...)
		if !strings.HasPrefix(r.stderr, "pret: erreur : ") || r.stdout != "" {
			t.Errorf("%s: ssh-keygen refuses (%s); pret should refuse in French:\n%s%s", path, strings.TrimSpace(stderr.String()), r.stdout, r.stderr)
		}
		return
	}
	must(t, r, 0, args...)
	var want strings.Builder
	for _, l := range strings.SplitAfter(stdout.String(), "\n") {
		if l != "" {
			want.WriteString(termtext.Escape(strings.TrimSuffix(l, "\n")) + "\n")
		}
	}
	if r.stdout != want.String() {
		t.Errorf("%s %s:\npret       %q\nssh-keygen %q (escaped %q)", flag, path, r.stdout, stdout.String(), want.String())
	}
}
