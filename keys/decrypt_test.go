package keys

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/internal/testenv"
)

const testPass = "correct horse battery"

func TestDecryptRefusals(t *testing.T) {
	priv, _, err := Generate(rand.Reader, "c", []byte(testPass))
	if err != nil {
		t.Fatal(err)
	}
	for _, wrong := range []string{"", "correct horse batter", testPass + " ", "x"} {
		_, _, err := Decrypt(priv, []byte(wrong))
		if !errors.Is(err, ErrBadPassphrase) {
			t.Fatalf("passphrase %q: got %v", wrong, err)
		}
		if wrong != "" && strings.Contains(err.Error(), wrong) {
			t.Fatalf("error quotes the passphrase: %v", err)
		}
	}
	dir := t.TempDir()
	plain := testenv.SSHKeygen(t, dir, "plain", "-t", "ed25519", "-N", "")
	data, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Decrypt(data, []byte(testPass)); !errors.Is(err, ErrUnencrypted) {
		t.Fatalf("unencrypted key: got %v", err)
	}
}

// wipe really erases the key: a signer used after it no longer makes
// signatures that verify.
func TestWipeErasesKey(t *testing.T) {
	priv, _, err := Generate(rand.Reader, "c", []byte(testPass))
	if err != nil {
		t.Fatal(err)
	}
	signer, wipe, err := Decrypt(priv, []byte(testPass))
	if err != nil {
		t.Fatal(err)
	}
	pub := signer.PublicKey()
	wipe()
	sig, err := signer.Sign(rand.Reader, []byte("m"))
	if err == nil && pub.Verify([]byte("m"), sig) == nil {
		t.Fatal("the key still signs after wipe")
	}
}

// withRounds rewrites the bcrypt round count of an openssh-key-v1 key, as
// `ssh-keygen -a N` would have written it, without paying for N rounds.
func withRounds(t *testing.T, priv []byte, rounds uint32) []byte {
	t.Helper()
	block, _ := pem.Decode(priv)
	b := bytes.Clone(block.Bytes)
	off := len(opensshMagic)
	skip := func() int { // one SSH string; returns where its body starts
		n := int(binary.BigEndian.Uint32(b[off:]))
		off += 4
		start := off
		off += n
		return start
	}
	skip() // cipher
	skip() // kdf name
	opts := skip()
	salt := int(binary.BigEndian.Uint32(b[opts:]))
	binary.BigEndian.PutUint32(b[opts+4+salt:], rounds)
	return pem.EncodeToMemory(&pem.Block{Type: block.Type, Bytes: b})
}

// A key with more bcrypt rounds than x/crypto/ssh computes is sound
// (OpenSSH has no cap) but cannot be opened here: Decrypt says so, with
// the count, before any work and whatever the passphrase; at or under
// the cap the count is read and the key is opened as usual.
func TestDecryptTooManyRounds(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	priv, _, err := Generate(rand.Reader, "c", []byte(testPass))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePrivate(priv)
	if err != nil || p.Rounds == 0 || p.Rounds > MaxKDFRounds {
		t.Fatalf("rounds of pret's own key: %v %v", p, err)
	}
	if _, _, err := Decrypt(priv, []byte(testPass)); err != nil {
		t.Fatal(err)
	}
	over := []uint32{MaxKDFRounds + 1, 3000, 1 << 16, 1<<31 - 1, 1<<32 - 1}
	for i := 0; i < 8; i++ {
		var b [2]byte
		rand.Read(b[:])
		over = append(over, MaxKDFRounds+1+uint32(binary.BigEndian.Uint16(b[:])))
	}
	for _, n := range over {
		k := withRounds(t, priv, n)
		if p, err := ParsePrivate(k); err != nil || p.Rounds != n {
			t.Fatalf("%d rounds read as %v (%v)", n, p, err)
		}
		for _, pass := range []string{testPass, "wrong", ""} {
			_, _, err := Decrypt(k, []byte(pass))
			if !errors.Is(err, ErrTooManyRounds) || !strings.Contains(err.Error(), fmt.Sprint(n)) {
				t.Fatalf("%d rounds, passphrase %q: got %v", n, pass, err)
			}
			if pass != "" && strings.Contains(err.Error(), pass) {
				t.Fatalf("error quotes the passphrase: %v", err)
			}
		}
	}
	for _, n := range []uint32{1, 17, 40} { // 2048 rounds cost a minute here
		k := withRounds(t, priv, n)
		if p, err := ParsePrivate(k); err != nil || p.Rounds != n {
			t.Fatalf("%d rounds read as %v (%v)", n, p, err)
		}
		// Another count derives another key: the passphrase no longer
		// opens it, and that is what Decrypt must say.
		if _, _, err := Decrypt(k, []byte(testPass)); !errors.Is(err, ErrBadPassphrase) {
			t.Fatalf("%d rounds: got %v", n, err)
		}
	}
}

// TestDecryptEveryCipherOfSSHKeygen: a key made by the real
// `ssh-keygen -Z CIPHER -N …`, for each cipher this OpenSSH writes (its
// `ssh -Q cipher` list), is one Openable accepts before asking, opens
// with its passphrase in memory into the key `ssh-keygen -y -P` reads,
// and signs; a wrong passphrase is ErrBadPassphrase whatever the cipher
// (a tag or the check numbers refuse it). cmd/pret's
// TestSignerEveryCipher has ssh-keygen -Y verify the signatures.
func TestDecryptEveryCipherOfSSHKeygen(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	keygen := testenv.NeedTool(t, "ssh-keygen")
	list := strings.Fields(testenv.Run(t, testenv.NeedTool(t, "ssh"), "-Q", "cipher"))
	if len(list) < 10 {
		t.Fatalf("ssh -Q cipher: %v", list)
	}
	// The ciphers a learner is told about (cli.md) are tested whatever
	// this OpenSSH lists.
	for _, c := range []string{"aes128-ctr", "aes192-ctr", "aes256-ctr", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com"} {
		if !slices.Contains(list, c) {
			list = append(list, c)
		}
	}
	dir := t.TempDir()
	for _, c := range list {
		t.Run(c, func(t *testing.T) {
			path := testenv.SSHKeygen(t, dir, "k-"+c, "-t", "ed25519", "-a", "4", "-Z", c, "-N", testPass, "-C", "z")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := ParsePrivate(data)
			if err != nil || p.Cipher != c || p.Openable() != nil {
				t.Fatalf("%+v %v %v", p, err, p.Openable())
			}
			if _, _, err := Decrypt(data, []byte(testPass+"!")); !errors.Is(err, ErrBadPassphrase) {
				t.Fatalf("wrong passphrase: %v", err)
			}
			signer, wipe, err := Decrypt(data, []byte(testPass))
			if err != nil {
				t.Fatal(err)
			}
			defer wipe()
			pub, err := exec.Command(keygen, "-y", "-P", testPass, "-f", path).Output()
			if err != nil || !bytes.HasPrefix(pub, bytes.TrimSuffix(ssh.MarshalAuthorizedKey(signer.PublicKey()), []byte("\n"))) {
				t.Fatalf("ssh-keygen -y: %v %s", err, pub)
			}
			msg := []byte("acces.md\n")
			sig, err := signer.Sign(rand.Reader, msg)
			if err != nil || signer.PublicKey().Verify(msg, sig) != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestOpenableNamesWhatPretCannotOpen: a cipher or a KDF ssh-keygen does
// not write is refused before any passphrase, with its name.
func TestOpenableNamesWhatPretCannotOpen(t *testing.T) {
	priv, _, err := Generate(rand.Reader, "c", []byte(testPass))
	if err != nil {
		t.Fatal(err)
	}
	for old, new := range map[string]string{"aes256-ctr": "aes256-xts", "bcrypt": "scrypt"} {
		block, _ := pem.Decode(priv)
		block.Bytes = bytes.Replace(block.Bytes, []byte(old), []byte(new), 1)
		k := pem.EncodeToMemory(block)
		p, err := ParsePrivate(k)
		if err != nil {
			t.Fatal(err)
		}
		err = p.Openable()
		if !errors.Is(err, ErrCipher) || !strings.Contains(err.Error(), new) {
			t.Fatalf("%s: %v", new, err)
		}
		if _, _, err := Decrypt(k, []byte(testPass)); !errors.Is(err, ErrCipher) {
			t.Fatalf("%s: Decrypt %v", new, err)
		}
	}
}
