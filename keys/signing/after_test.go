package signing

import (
	"bytes"
	"crypto/rand"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/romeo-pret/pret/internal/mdbounds"
)

// TestOnlyBlankLinesAfterTheBlock: text after the block would look
// signed and is not, and no line there can be judged invisible without
// reading what the signed part leaves open: a comment after the block
// ends a <script> left open above at its "</script>" and shows what
// follows (the outside tester's repro). Only blank lines may follow.
func TestOnlyBlankLinesAfterTheBlock(t *testing.T) {
	msg := []byte("# Accès\n\n- Date de la demande : 2026-10-16\n")
	sig, err := Sign(rand.Reader, ed25519Signer(), msg)
	if err != nil {
		t.Fatal(err)
	}
	a := string(sig.Armor())
	block := "```\n" + a + "```\n"
	blockEnd := lineCount(msg) + 1 + lineCount([]byte(block))
	for _, c := range []struct {
		name, after string
		line        int // the line refused, counted in after; 0 when accepted
	}{
		{"nothing", "", 0},
		{"blank lines", "\n  \n\t\n", 0},
		{"comment", "<!-- fin -->\n", 1},
		{"comment after a blank line", "\n<!-- fin -->\n", 2},
		{"comment over lines", "<!--\nnote\n-->\n", 1},
		{"lone >", ">\n", 1},
		{"comment in a quote", "> <!-- fin -->\n", 1},
		{"text", "Merci.\n", 1},
		{"tag", "<br>\n", 1},
		{"marker in a comment", "<!--\n" + SigMarker + "\n-->\n", 1},
		{"armour in a comment", "<!--\n" + a + "-->\n", 1},
	} {
		file := append(bytes.Clone(msg), SigMarker+"\n"+block+c.after...)
		f := SplitSigned(file)
		err := f.Verify()
		switch {
		case c.line == 0 && (err != nil || f.To != blockEnd):
			t.Errorf("%s: pret %v, block at lines %d-%d; want it accepted, ending at %d", c.name, err, f.From, f.To, blockEnd)
		case c.line != 0 && (!errors.Is(err, ErrTrailing) || f.Line != blockEnd+c.line):
			t.Errorf("%s: pret %v at line %d, want %v at line %d", c.name, err, f.Line, ErrTrailing, blockEnd+c.line)
		}
	}
}

// TestCommentAfterAnOpenScriptIsRefused is the outside tester's repro: a
// signed part ending in "<script>", then a comment after the block whose
// "</script>" ends the script, so that the page shows the date after it.
func TestCommentAfterAnOpenScriptIsRefused(t *testing.T) {
	msg := []byte("# Accès\n\n- Date de la demande : 2026-10-16\n\n<script>\n")
	sig, err := Sign(rand.Reader, ed25519Signer(), msg)
	if err != nil {
		t.Fatal(err)
	}
	file := AttachSignature(msg, sig)
	file = append(file, "<!--\n</script>\nDate de la demande : 2026-10-01\n<!-- -->\n"...)
	if page := render(t, file); !strings.Contains(page, "Date de la demande : 2026-10-01") {
		t.Fatalf("the repro no longer shows its text:\n%s", page)
	}
	if f := SplitSigned(file); !errors.Is(f.Verify(), ErrTrailing) || f.Line != lineCount(file)-3 {
		t.Errorf("pret %v at line %d, want %v at line %d", f.Verify(), f.Line, ErrTrailing, lineCount(file)-3)
	}
}

// TestSignableRefusesWhatIsLeftOpen: pret signer refuses a signed part
// that leaves a block open at its end, and only that: it accepts exactly
// the parts after which goldmark renders the marker as a comment of its
// own followed by the armour in a code block of its own.
func TestSignableRefusesWhatIsLeftOpen(t *testing.T) {
	base := "# Accès\n\n- Date de la demande : 2026-10-16\n"
	for _, c := range []struct {
		name, end string
		open      int // the line reported, counted from the end's first line; 0 when accepted
		// goldmark renders the block on its own, yet it is not the
		// signature block a reader sees: the marker's "-->" ends a comment
		// left open, or a browser hides the block.
		shownAnyway bool
	}{
		{"nothing open", "", 0, false},
		{"paragraph", "Merci.\n", 0, false},
		{"list", "- a\n- b\n", 0, false},
		{"quote", "> cité\n", 0, false},
		{"closed script", "<script>\n</script>\n", 0, false},
		{"closed fence", "```\ncode\n```\n", 0, false},
		{"comment", "<!-- fin -->\n", 0, false},
		{"script", "\n<script>\n", 2, false},
		{"style", "<style>\np { }\n", 1, false},
		{"textarea", "<textarea>\n", 1, false},
		{"pre", "<pre>\n", 1, false},
		{"backticks", "```\n", 1, false},
		{"four backticks", "````\n", 1, false},
		{"tildes", "x\n\n~~~\ncode\n", 3, false},
		{"fence in a list item", "- ```\n", 0, false}, // the marker's line ends the item and its fence
		{"comment left open", "<!--\n", 1, true},
		{"div", "<div>\n", 1, false},
		// Opened inline, or hiding what it holds: goldmark shows the block
		// on its own, a browser does not (outside tester, stop 40).
		{"script in a paragraph", "\nTexte <script>\n", 2, true},
		{"script in a list item", "\n- <script>\n", 2, true},
		{"style in a quote", "\n> <style>\n", 2, true},
		{"hidden div", "\n<div hidden>\n\n", 2, true},
		{"div not shown", "\n<div style=\"display: none\">\n\n", 2, true},
		{"template", "\n<template>\n\n", 2, true},
		{"closed details", "\n<details><summary>Signature</summary>\n\n", 2, true},
		{"open details", "\n<details open><summary>Signature</summary>\n\n", 0, false},
		{"dialog", "\nTexte <dialog>\n", 2, true},
		{"open dialog", "\nTexte <dialog open>\n", 0, false},
		{"select", "\n<select>\n\n", 2, true},
		{"datalist", "\n<datalist>\n\n", 2, true},
		{"rp", "\n<rp>\n\n", 2, true},
		{"closed span", "\nTexte <span hidden>caché</span>\n", 0, false},
	} {
		msg := base + c.end
		err := Signable([]byte(msg))
		sig, serr := Sign(rand.Reader, ed25519Signer(), []byte(msg))
		if serr != nil {
			t.Fatal(serr)
		}
		page := render(t, AttachSignature([]byte(msg), sig))
		shown := strings.Contains(page, SigMarker+"\n<pre><code>"+armorBegin+"\n")
		want := lineCount([]byte(base)) + c.open
		switch {
		case c.open == 0 && (err != nil || !shown):
			t.Errorf("%s: Signable %v, block shown on its own %v; want both\n%s", c.name, err, shown, page)
		case c.open != 0 && (!errors.Is(err, ErrLeftOpen) || !strings.HasSuffix(err.Error(), "(ligne "+strconv.Itoa(want)+")") || shown != c.shownAnyway):
			t.Errorf("%s: Signable %v (want %v at line %d), block shown on its own %v\n%s", c.name, err, ErrLeftOpen, want, shown, page)
		}
		if _, err2 := SignFile(rand.Reader, ed25519Signer(), []byte(msg)); (err2 == nil) != (err == nil) {
			t.Errorf("%s: SignFile %v, Signable %v", c.name, err2, err)
		}
		// A file signed elsewhere (ssh-keygen -Y sign) is judged as pret signer judges it (outside tester, stop 40).
		if v := SplitSigned(AttachSignature([]byte(msg), sig)).Verify(); (v == nil) != (err == nil) || err != nil && !errors.Is(v, ErrLeftOpen) {
			t.Errorf("%s: a good signature verifies as %v, Signable %v", c.name, v, err)
		}
	}
}

func render(t *testing.T, file []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := goldmark.New(goldmark.WithRendererOptions(html.WithUnsafe())).Convert(file, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// FuzzSignable: whatever the signed part, Signable accepts it exactly
// when goldmark renders the marker as a comment of its own followed by
// the armour in a code block of its own.
func FuzzSignable(f *testing.F) {
	for _, s := range []string{"# Accès\n", "<script>\n", "```\n", "~~~\nx\n", "<!--\n", "<div>\n", "- ```\n", "> a\n", "<pre>\n</pre>\n", ""} {
		f.Add([]byte(s))
	}
	sig, err := Sign(rand.Reader, ed25519Signer(), []byte("x\n"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		if len(msg) > 1024 || mdbounds.TooDeep(string(msg)) >= 0 || bytes.Contains(msg, []byte(SigMarker)) || bytes.Contains(msg, []byte("\r")) {
			return // goldmark's slow shapes; a marker above is ErrStray's; CR lines are ErrCRLF's
		}
		err := Signable(msg)
		page := render(t, AttachSignature(signedPart(msg), sig))
		shown := strings.Contains(page, "\n"+SigMarker+"\n<pre><code>"+armorBegin+"\n") || strings.HasPrefix(page, SigMarker+"\n<pre><code>"+armorBegin+"\n")
		if err == nil && !shown {
			t.Fatalf("Signable accepts %q, but the page shows no block of its own:\n%s", msg, page)
		}
		if err != nil && shown && !errors.Is(err, ErrLeftOpen) {
			t.Fatalf("Signable refuses %q with %v, the page shows the block", msg, err)
		}
	})
}

// BenchmarkSignable: a page of acces.md, and the largest part read (16 KiB).
func BenchmarkSignable(b *testing.B) {
	page := []byte("# Accès ROMEO\n\n- Date de demande : 2026-10-20\n- Clé : ~/.ssh/id_ed25519_romeo.pub\n\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n")
	for _, c := range []struct {
		name string
		msg  []byte
	}{{"page", page}, {"16KiB", bytes.Repeat([]byte("Remarque *sans* `importance`, <b>x</b>.\n"), (16<<10)/41)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Signable(c.msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
