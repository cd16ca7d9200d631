package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/onboarding"
)

// TestPassphraseFileHostile: a line too long, a file too large, a device,
// a folder or nothing where a passphrase file belongs ends quickly, with
// a French error that quotes nothing of it: exit 1, 2 for nothing there.
func TestPassphraseFileHostile(t *testing.T) {
	d := t.TempDir()
	secret := "motdepasse-secret"
	write := func(name, content string) string { return put(t, d, name, content) }
	cases := map[string]string{
		"ligne-4097":     write("long", strings.Repeat("a", 4097)+"\n"),
		"ligne-4097-nue": write("longnue", strings.Repeat("a", 4097)),
		"fichier-5Kio":   write("gros", secret+"\n"+strings.Repeat("b", 5000)),
		"dossier":        d,
		"absent":         filepath.Join(d, "absent"),
	}
	// A FIFO, a link to /dev/zero, a 3 GB sparse file: TestEveryReaderHostile,
	// through pret cle --passphrase-file.
	if runtime.GOOS != "windows" {
		cases["devzero"] = "/dev/zero"
	}
	for name, p := range cases {
		done := make(chan error, 1)
		go func() { _, err := passphraseFromFile(p, nil); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s : accepté", name)
				continue
			}
			// Only a path that is not there is usage (2); the rest, 1 (outside tester).
			want := exitFailed
			if name == "absent" {
				want = exitUsage
			}
			if exitCode(err, io.Discard) != want || strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "aaaa") {
				t.Errorf("%s : %v", name, err)
			}
			checkNoEnglish(t, err.Error())
		case <-time.After(10 * time.Second):
			t.Fatalf("%s : lecture bloquée", name)
		}
	}
}

// TestPassphraseFileLines: the first line, without its newline (LF or
// CRLF); 4096 bytes is accepted whole, never cut.
func TestPassphraseFileLines(t *testing.T) {
	d := t.TempDir()
	max := strings.Repeat("p", 4096)
	for content, want := range map[string]string{
		"une passphrase longue\n":          "une passphrase longue",
		"une passphrase longue\r\nsuite\n": "une passphrase longue",
		"sans fin de ligne":                "sans fin de ligne",
		max + "\n":                         max,
		max:                                max,
		"":                                 "",
		"\n":                               "",
	} {
		p := filepath.Join(d, "f")
		os.WriteFile(p, []byte(content), 0o600)
		for _, src := range []string{"fichier", "stdin"} {
			var got []byte
			var err error
			if src == "fichier" {
				got, err = passphraseFromFile(p, nil)
			} else {
				got, err = passphraseFromFile("-", strings.NewReader(content))
			}
			if err != nil || string(got) != want {
				t.Errorf("%s %q : %q, %v", src, content[:min(len(content), 30)], got[:min(len(got), 30)], err)
			}
		}
	}
	for _, content := range []string{strings.Repeat("p", 4097), strings.Repeat("p", 4097) + "\n", strings.Repeat("p", 10000)} {
		if _, err := passphraseFromFile("-", strings.NewReader(content)); err == nil {
			t.Errorf("entrée standard de %d octets acceptée", len(content))
		}
	}
}

// TestPassphraseStdinOpenPipe: a writer that keeps standard input open
// after the first line does not make pret wait.
func TestPassphraseStdinOpenPipe(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte("une passphrase longue\n"))
	done := make(chan []byte, 1)
	go func() { got, _ := passphraseFromFile("-", r); done <- got }()
	select {
	case got := <-done:
		if !bytes.Equal(got, []byte("une passphrase longue")) {
			t.Fatalf("%q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("bloqué en attendant la fin de l'entrée standard")
	}
}

// TestPassphraseFileUntypable: what passphraseFromFile returns from a file
// of NUL or control characters is refused by the passphrase rules.
func TestPassphraseFileUntypable(t *testing.T) {
	d := t.TempDir()
	for _, content := range []string{strings.Repeat("\x00", 32), "une pass\x00phrase longue\n", "une\tpassphrase longue", "une passphrase\x1b[2J longue", "une passphrase longue\r\r\n"} {
		p := filepath.Join(d, "f")
		os.WriteFile(p, []byte(content), 0o600)
		got, err := passphraseFromFile(p, nil)
		if err != nil {
			continue
		}
		if err := onboarding.CheckPassphrase(string(got)); err == nil {
			t.Errorf("%q acceptée", content)
		}
	}
}

// TestPassphraseFileInvisible: a passphrase file whose line holds a BOM
// or a character that shows as nothing is refused as untypable, exit 1
// (an action refused, cli.md), the character named by its code point and
// the passphrase never printed: pret cle makes no key, pret signer
// leaves acces.md as it is, from a file or from standard input.
func TestPassphraseFileInvisible(t *testing.T) {
	t.Parallel()
	notShort(t)
	h := signableHome(t, secretPass)
	before, _ := os.ReadFile(h.path("acces.md"))
	empty := newHome(t)
	for _, r := range []rune{0xfeff, 0x200b, 0x200e, 0x200f, 0x061c, 0x00ad, 0xe0001, 0xe0041, 0x2066} {
		code := fmt.Sprintf("%U", r)
		for i, line := range []string{string(r) + secretPass, secretPass[:5] + string(r) + secretPass[5:], secretPass + string(r)} {
			content := line + "\r\n"
			file := empty.path(fmt.Sprintf("pass-%d", i))
			os.WriteFile(file, []byte(content), 0o600)
			for _, run := range []result{
				empty.pret("", "cle", "--passphrase-file", file),
				empty.pret(content, "cle", "--passphrase-file", "-"),
				h.pret(content, "signer", "--passphrase-file", "-"),
			} {
				says(t, run, exitFailed, "("+code+")", "pret: conseil : ")
				// The advice names the fault: "sans BOM" for a BOM alone (issue 32).
				if strings.Contains(run.stderr, "BOM") != (r == 0xfeff) {
					t.Fatalf("%s: the BOM named for another character\n%s", code, run.stderr)
				}
				if strings.Contains(run.stdout+run.stderr, secretPass[:8]) || strings.ContainsRune(run.stdout+run.stderr, r) {
					t.Fatalf("%s: the passphrase or the character is printed\n%s", code, run.stderr)
				}
			}
			if _, err := os.Stat(empty.path(".ssh/id_ed25519_romeo")); err == nil {
				t.Fatalf("%s: a key was made", code)
			}
			if now, _ := os.ReadFile(h.path("acces.md")); !bytes.Equal(now, before) {
				t.Fatalf("%s: acces.md changed", code)
			}
		}
	}
}

// TestPassphraseFileSpaceTrap (issue 32): the passphrase of a new key,
// read from a file, that starts or ends with a space or holds a no-break
// space is refused (nothing can confirm it off a terminal), exit 1, the
// character named, the passphrase never printed, no key made. Signing
// with an existing key takes such a line as it is: it is that key's.
func TestPassphraseFileSpaceTrap(t *testing.T) {
	t.Parallel()
	empty := newHome(t)
	for line, named := range map[string]string{
		secretPass + " ": "finit par un espace (U+0020)",
		" " + secretPass: "commence par un espace (U+0020)",
		secretPass[:5] + "\u00a0" + secretPass[5:]: "contient un espace insécable (U+00A0)",
		secretPass + "\u00a0":                      "finit par un espace insécable (U+00A0)",
	} {
		file := empty.path("pass")
		os.WriteFile(file, []byte(line+"\n"), 0o600)
		for _, run := range []result{empty.pret("", "cle", "--passphrase-file", file), empty.pret(line+"\n", "cle", "--passphrase-file", "-")} {
			says(t, run, exitFailed, named, "pret: conseil : ")
			if strings.Contains(run.stdout+run.stderr, secretPass[:8]) {
				t.Fatalf("%q: the passphrase is printed\n%s", named, run.stderr)
			}
		}
		if _, err := os.Stat(empty.path(".ssh/id_ed25519_romeo")); err == nil {
			t.Fatalf("%q: a key was made", named)
		}
	}
	keygen := testenv.NeedTool(t, "ssh-keygen")
	h := newHome(t)
	os.MkdirAll(h.path(".ssh"), 0o700)
	if out, err := exec.Command(keygen, "-q", "-t", "ed25519", "-N", secretPass+" ", "-C", "seance-novembre", "-f", h.path(".ssh/id_ed25519_romeo")).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	h.must(exitOK, "", "acces", "--statut", "demande")
	h.must(exitOK, secretPass+" \n", "signer", "--passphrase-file", "-")
}
