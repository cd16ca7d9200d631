package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/romeo-pret/pret/onboarding"
)

// TestPassphraseFileHostile: every kind of file where a passphrase file
// belongs ends quickly, with a French error that quotes nothing of it.
func TestPassphraseFileHostile(t *testing.T) {
	d := t.TempDir()
	secret := "motdepasse-secret"
	write := func(name, content string) string {
		p := filepath.Join(d, name)
		os.WriteFile(p, []byte(content), 0o600)
		return p
	}
	cases := map[string]string{
		"ligne-4097":     write("long", strings.Repeat("a", 4097)+"\n"),
		"ligne-4097-nue": write("longnue", strings.Repeat("a", 4097)),
		"fichier-5Kio":   write("gros", secret+"\n"+strings.Repeat("b", 5000)),
		"dossier":        d,
		"absent":         filepath.Join(d, "absent"),
	}
	if runtime.GOOS != "windows" {
		fifo := filepath.Join(d, "tube")
		makeFIFO(t, fifo)
		cases["fifo"] = fifo
		cases["devzero"] = "/dev/zero"
		link := filepath.Join(d, "lien")
		os.Symlink("/dev/zero", link)
		cases["lien-devzero"] = link
		sparse := filepath.Join(d, "creux")
		f, _ := os.Create(sparse)
		f.Truncate(3 << 30)
		f.Close()
		cases["creux-3Go"] = sparse
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
			var ue *usageErr
			if !errors.As(err, &ue) || strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "aaaa") {
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
