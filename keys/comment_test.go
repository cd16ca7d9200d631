package keys

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommentNeverBreaksThePub: every control character, line separator
// and invalid UTF-8 in a comment is refused before any key is made; any
// other comment gives a .pub of exactly one line.
func TestCommentNeverBreaksThePub(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	var bad []string
	for r := rune(0); r < 0x20; r++ {
		bad = append(bad, "avant"+string(r)+"apres", string(r))
	}
	for r := rune(0x7f); r <= 0x9f; r++ {
		bad = append(bad, "x"+string(r))
	}
	bad = append(bad, "a\u2028b", "a\u2029b", "a\xffb", "\xc3", strings.Repeat("c", MaxCommentLen+1))
	for _, c := range bad {
		if err := CheckComment(c); err == nil {
			t.Errorf("%q accepté", c)
		}
		dir := t.TempDir()
		s := Store{Files: disk, Dir: dir, Name: "id", Comment: c}
		if _, err := s.Create(nil, []byte("une passphrase longue")); err == nil {
			t.Errorf("%q : clé créée", c)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%q : des fichiers restent : %v", c, entries)
		}
	}
	for _, c := range []string{"", "seance-novembre", "kim@portable", "Kim Lê — séance 🙂", "avec des espaces", strings.Repeat("c", MaxCommentLen)} {
		if err := CheckComment(c); err != nil {
			t.Errorf("%q refusé : %v", c, err)
		}
		_, pub, err := Generate(nil, c, []byte("une passphrase longue"))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Count(pub, []byte("\n")) != 1 || !bytes.HasSuffix(pub, []byte("\n")) {
			t.Errorf("%q : .pub de plusieurs lignes : %q", c, pub)
		}
	}
}

// TestRebuildPubDropsBadComment: a comment read from an unencrypted key
// with a newline in it does not reach the rebuilt .pub.
func TestRebuildPubDropsBadComment(t *testing.T) {
	dir := t.TempDir()
	s := Store{Files: disk, Dir: dir, Name: "id", Comment: "seance"}
	st, err := s.Create(nil, []byte("une passphrase longue"))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(s.PublicPath())
	st.Private.Comment = "x\nssh-ed25519 AAAA intrus"
	st, err = s.RebuildPub(st)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "id.pub"))
	if bytes.Count(data, []byte("\n")) != 1 || !strings.HasSuffix(string(data), " seance\n") {
		t.Errorf(".pub reconstruit : %q", data)
	}
}
