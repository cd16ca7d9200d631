package signing

import (
	"bytes"
	"crypto/rand"
	"errors"
	"strings"
	"testing"
)

// TestWhatShowsNothingAfterTheBlock: text after the block is refused
// because it would look signed and is not; what the page shows no text
// of (HTML comments, a lone ">") stays, as signature.md says, and the
// recipe of signature.md (sed, then ssh-keygen -Y check-novalidate)
// accepts those files too. A marker or an armour line, even hidden in a
// comment, is still refused: another reader of the file would cut or
// read there.
func TestWhatShowsNothingAfterTheBlock(t *testing.T) {
	msg := []byte("# Accès\n\n- Date de la demande : 2026-10-16\n")
	sig, err := Sign(rand.Reader, ed25519Signer(), msg)
	if err != nil {
		t.Fatal(err)
	}
	a := string(sig.Armor())
	block := "```\n" + a + "```\n"
	for _, c := range []struct {
		name, after string
		want        error
		line        int // the line refused, counted in after; 0 when accepted
	}{
		{"comment", "<!-- fin -->\n", nil, 0},
		{"comment after a blank line", "\n<!-- fin -->\n", nil, 0},
		{"comment over lines", "<!--\nnote\n-->\n", nil, 0},
		{"two comments on a line", "<!-- a --> <!-- b -->\n", nil, 0},
		{"comment left open", "<!-- note\n\nsuite\n", nil, 0},
		{"lone >", ">\n", nil, 0},
		{"quote marks", ">\n> >\n", nil, 0},
		{"comment in a quote", "> <!-- fin -->\n", nil, 0},
		{"text after a comment on its line", "<!-- fin --> Merci.\n", ErrTrailing, 1},
		{"comment closed twice", "<!-- a --> b -->\n", ErrTrailing, 1},
		{"text after a comment", "<!-- fin -->\n\nMerci.\n", ErrTrailing, 3},
		{"text after a lone >", ">\nMerci.\n", ErrTrailing, 2},
		{"quote with text", "> Merci.\n", ErrTrailing, 1},
		{"tag", "<br>\n", ErrTrailing, 1},
		{"marker in a comment", "<!--\n" + SigMarker + "\n-->\n", ErrTrailing, 2},
		{"armour in a comment", "<!--\n" + a + "-->\n", ErrTrailing, 2},
	} {
		file := append(bytes.Clone(msg), SigMarker+"\n"+block+c.after...)
		f := SplitSigned(file)
		err := f.Verify()
		_, recipe := checkWithOpenSSH(t, t.TempDir(), file, SigNamespace)
		blockEnd := lineCount(msg) + 1 + lineCount([]byte(block))
		switch {
		case c.want == nil && (err != nil || recipe != nil):
			t.Errorf("%s: pret %v, recipe %v; want both to accept\n%s", c.name, err, recipe, file)
		case c.want == nil && f.To != blockEnd:
			t.Errorf("%s: block at lines %d-%d, want it to end at %d", c.name, f.From, f.To, blockEnd)
		case c.want == nil && string(f.Tail) != c.after:
			t.Errorf("%s: tail %q, want %q", c.name, f.Tail, c.after)
		case c.want != nil && (!errors.Is(err, c.want) || f.Line != blockEnd+c.line):
			t.Errorf("%s: pret %v at line %d, want %v at line %d", c.name, err, f.Line, c.want, blockEnd+c.line)
		}
		t.Logf("%s: recipe %v; pret %v", c.name, recipe, err)
	}
}

// TestSignFileKeepsWhatShowsNothing: signing again replaces the block and
// keeps a comment that followed it.
func TestSignFileKeepsWhatShowsNothing(t *testing.T) {
	msg := "# Accès\n\n- Date de la demande : 2026-10-16\n"
	signer := ed25519Signer()
	once, err := SignFile(rand.Reader, signer, []byte(msg))
	if err != nil {
		t.Fatal(err)
	}
	const tail = "\n<!-- relu le 20 octobre -->\n"
	again, err := SignFile(rand.Reader, signer, append(once, tail...))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(again), "```\n"+tail) || strings.Count(string(again), "BEGIN SSH SIGNATURE") != 1 || SplitSigned(again).Verify() != nil {
		t.Errorf("signed again:\n%s", again)
	}
}
