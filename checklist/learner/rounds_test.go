//go:build unix

package learner

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/pem"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
)

// setRounds rewrites the bcrypt round count of an openssh-key-v1 key in
// place, as `ssh-keygen -a N` would have written it.
func setRounds(t *testing.T, path string, rounds uint32) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(data)
	b := bytes.Clone(block.Bytes)
	off := len("openssh-key-v1\x00")
	skip := func() int {
		n := int(binary.BigEndian.Uint32(b[off:]))
		off += 4
		start := off
		off += n
		return start
	}
	skip() // cipher
	skip() // kdf
	opts := skip()
	salt := int(binary.BigEndian.Uint32(b[opts:]))
	binary.BigEndian.PutUint32(b[opts+4+salt:], rounds)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: block.Type, Bytes: b}), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestKeyRoundsSaidLikeSigner: pret verifier agrees with pret signer on a
// key with more bcrypt rounds than pret can open: a warning that names
// the count and the ssh-keygen -p -a fix, not a clean pass; at or under
// the cap, a pass.
func TestKeyRoundsSaidLikeSigner(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	for _, n := range []uint32{16, keys.MaxKDFRounds, keys.MaxKDFRounds + 1, 3000, 1 << 20, 1<<32 - 1} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			st := keys.Store{Files: safefile.KeyFiles{}, Dir: t.TempDir(), Name: "id_ed25519_romeo"}
			if _, err := st.Create(rand.Reader, []byte("une passphrase")); err != nil {
				t.Fatal(err)
			}
			setRounds(t, st.PrivatePath(), n)
			l := Learner{Store: st, AccessFile: st.Dir + "/acces.md",
				SessionDay: time.Date(2026, 11, 5, 0, 0, 0, 0, time.UTC), Today: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)}
			for _, c := range l.Check().Checks {
				if c.ID != "key-encrypted" {
					continue
				}
				over := n > keys.MaxKDFRounds
				switch {
				case over && (c.Status != checklist.Warn || !strings.Contains(c.Message, fmt.Sprint(n)) || !strings.Contains(c.Fix, "ssh-keygen -p -a")):
					t.Fatalf("%d rounds: %+v", n, c)
				case !over && c.Status != checklist.Pass:
					t.Fatalf("%d rounds: %+v", n, c)
				}
				return
			}
			t.Fatal("no key-encrypted check")
		})
	}
}
