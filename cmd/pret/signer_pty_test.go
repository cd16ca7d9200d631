//go:build unix

package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/keys/signing"
)

// refusedThrice checks the end of a session after three wrong
// passphrases: the refusal said, exit 1, the terminal echoing again, and
// acces.md as it was before.
func refusedThrice(t *testing.T, s *session, h *home, before []byte) {
	t.Helper()
	s.expect("passphrase incorrecte")
	s.exit(1)
	if !s.echoOn() {
		t.Fatal("terminal left without echo")
	}
	if after, _ := os.ReadFile(h.path("acces.md")); !bytes.Equal(after, before) {
		t.Fatal("acces.md touched after three wrong passphrases")
	}
}

// TestSignerWrongPassphraseInTerminal: on a real terminal, whatever is
// typed at the passphrase prompt — any length, accents, spaces, a
// Backspace — nothing reaches the screen between the prompt and Enter,
// not even one '*' per character (the help says "rien ne s'affiche").
// Three wrong passphrases end the run: exit 1, acces.md untouched, the
// terminal echoing again. Ctrl-D on the empty prompt cancels (exit 130,
// like Ctrl-C) instead of counting as a wrong passphrase; then the
// right one signs.
func TestSignerWrongPassphraseInTerminal(t *testing.T) {
	t.Parallel()
	notShort(t)
	sgr := regexp.MustCompile("\x1b\\[[0-9;]*m")
	h := signableHome(t, ptyPass)
	before := readFile(t, h.path("acces.md"))
	// Two runs of three wrong tries each.
	typed := []string{"x", "é", "deux mots", strings.Repeat("a", 40), "mauvaise\bE", "àç ñ ü 42 !"}
	var s *session
	for i, w := range typed {
		if i%3 == 0 {
			s = startPTY(t, h.dir, "signer")
		}
		s.answer("pour l'aide]", w+"\r")
		s.expect("\n")
		// What the screen got between the prompt and the end of its
		// line: colour resets and spaces only.
		raw := s.raw.String()
		rest := raw[strings.LastIndex(raw, "pour l'aide]")+len("pour l'aide]"):]
		rest = rest[:strings.IndexByte(rest, '\n')]
		if seg := strings.Trim(sgr.ReplaceAllString(rest, ""), " \r"); seg != "" {
			t.Fatalf("typing %q showed %q", w, seg)
		}
		if i%3 < 2 {
			s.expect("Passphrase incorrecte (essai")
			continue
		}
		refusedThrice(t, s, h, before)
		if n := strings.Count(s.raw.String(), "Passphrase de la clé"); n != 3 {
			t.Fatalf("asked %d times, want 3", n)
		}
		for _, w := range typed[i-2 : i+1] { // shorter ones could be any text
			if len(w) >= 8 && strings.Contains(s.raw.String(), w) {
				t.Fatalf("a passphrase appeared on the screen: %q", w)
			}
		}
		noTempFiles(t, h.dir)
	}

	s = startPTY(t, h.dir, "signer")
	s.answer("pour l'aide]", "\x04")
	s.exit(130) // Ctrl-D
	if n := strings.Count(s.raw.String(), "Passphrase de la clé"); n != 1 || strings.Contains(s.raw.String(), "Passphrase incorrecte") {
		t.Fatalf("Ctrl-D counted as a try:\n%s", s.raw.String())
	}
	if !s.echoOn() {
		t.Fatal("terminal left without echo")
	}

	s = startPTY(t, h.dir, "signer")
	s.answer("Passphrase de la clé", ptyPass+"\r")
	s.expect("signé avec la clé")
	s.exit(0)
	if strings.Contains(s.raw.String(), ptyPass) {
		t.Fatal("the passphrase appeared on the screen")
	}
	after, _ := os.ReadFile(h.path("acces.md"))
	if f := signing.SplitSigned(after); f.Verify() != nil || !bytes.Equal(f.Message, before) {
		t.Fatal("the right passphrase did not sign the file as it was")
	}
}

// TestWizardSignatureWrongPassphrase: a later run of the wizard, on a
// real terminal, offers to sign the unsigned acces.md; three wrong
// passphrases end it with exit 1 and the file as it was.
func TestWizardSignatureWrongPassphrase(t *testing.T) {
	t.Parallel()
	notShort(t)
	h := signableHome(t, ptyPass)
	before := readFile(t, h.path("acces.md"))
	s := startPTY(t, h.dir)
	s.expect("Clé existante conservée")
	s.answer("Où en est votre compte d'accès ?", "\r") // the recorded request: the same acces.md as before
	s.answer("Date de la demande du compte", "\r")
	s.answer("Écrire acces.md à cet endroit ?", "\r")
	s.answer("Signer acces.md ? Cela prouve aux organisateurs", "\r") // the default: "Oui"
	for i := 0; i < 3; i++ {
		s.answer("Passphrase de la clé", "pas-la-bonne-"+string(rune('a'+i))+"\r")
	}
	refusedThrice(t, s, h, before)
	if strings.Contains(s.raw.String(), "pas-la-bonne") {
		t.Fatal("a passphrase appeared on the screen")
	}
}
