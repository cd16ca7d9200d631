package keys

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/safefile"
)

// TestCheckName: a key name is a file name of its own: not a path, not
// a file OpenSSH reads for something else (any case), not a .pub. Create
// and RebuildPub refuse the same names before touching the folder.
func TestCheckName(t *testing.T) {
	refused := []string{"", ".", "..", "a/b", `a\b`, "config", "CONFIG", "known_hosts", "Known_Hosts2",
		"authorized_keys", "authorized_keys2", "environment", "rc", "id.pub", "id_ed25519_romeo.PUB", ".pub"}
	for _, n := range refused {
		err := CheckName(n)
		if err == nil || !strings.Contains(err.Error(), "nom de clé") {
			t.Errorf("%q: %v", n, err)
			continue
		}
		dir := filepath.Join(t.TempDir(), "ssh")
		s := Store{Dir: dir, Name: n, Comment: "c", Files: safefile.KeyFiles{}}
		if _, err := s.Create(rand.Reader, []byte("une passphrase solide")); err == nil {
			t.Errorf("%q: Create made a key", n)
		}
		if _, err := s.RebuildPub(&State{Private: &Private{}}); err == nil || !strings.Contains(err.Error(), "nom de clé") {
			t.Errorf("%q: RebuildPub: %v", n, err)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%q: the folder was made", n)
		}
	}
	for _, n := range []string{"id_ed25519_romeo", "config_romeo", "id_known_hosts", "pub", "id.pub.old", "mon.pubkey"} {
		if err := CheckName(n); err != nil {
			t.Errorf("%q refused: %v", n, err)
		}
	}
}

// TestCheckNameWords (issue 32): the refusal quotes the name with « »
// and gives no example of its own (the setting's form gives one, once).
func TestCheckNameWords(t *testing.T) {
	for _, n := range []string{"config", "id.pub", "a/b", ""} {
		err := CheckName(n)
		if err == nil || strings.Contains(err.Error(), "id_ed25519_romeo") || !strings.Contains(err.Error(), "« "+n+" »") || strings.Contains(err.Error(), `"`) {
			t.Errorf("CheckName(%q): %v", n, err)
		}
	}
	if err := CheckName("a/\x1b"); err == nil || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("a control character raw: %q", err)
	}
}
