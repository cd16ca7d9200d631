package signingtest

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/testenv"
)

// ProtocolExample is the armoured signature PROTOCOL.sshsig (OpenSSH)
// shows as its example, copied from the protocol's text. Its blob
// predates the hash_algorithm field, so pret (as OpenSSH today) refuses
// to read it: it pins the armour only. Signature.Armor is held to
// ssh-keygen's output by keys/signing's TestSSHKeygenSignatureAccepted.
const ProtocolExample = `-----BEGIN SSH SIGNATURE-----
U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgJKxoLBJBivUPNTUJUSslQTt2hD
jozKvHarKeN8uYFqgAAAADZm9vAAAAAAAAAFMAAAALc3NoLWVkMjU1MTkAAABAKNC4IEbt
Tq0Fb56xhtuE1/lK9H9RZJfON4o6hE9R4ZGFX98gy0+fFJ/1d2/RxnZky0Y7GojwrZkrHT
FgCqVWAQ==
-----END SSH SIGNATURE-----
`

// dearmour is the base64 between the markers, decoded.
func dearmour(t *testing.T, armour string) []byte {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(armour), "\n")
	blob, err := base64.StdEncoding.DecodeString(strings.Join(lines[1:len(lines)-1], ""))
	if err != nil {
		t.Fatalf("%v\n%s", err, armour)
	}
	return blob
}

// TestArmorIsOpenSSHs: at width 70, Armor writes the protocol's example
// and ssh-keygen -Y sign's signatures byte for byte; at any width, every
// line but the last is full and the base64 reads back to the blob.
func TestArmorIsOpenSSHs(t *testing.T) {
	if got := Armor(dearmour(t, ProtocolExample), 70); got != ProtocolExample {
		t.Fatalf("the protocol's example re-armoured:\n%s\nwant:\n%s", got, ProtocolExample)
	}
	dir := t.TempDir()
	keygen := testenv.NeedTool(t, "ssh-keygen")
	msg := filepath.Join(dir, "acces.md")
	if err := os.WriteFile(msg, []byte("Date de la demande : 2026-10-20\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	signed := 0
	for _, kind := range [][]string{{"ed25519"}, {"ecdsa", "-b", "384"}, {"rsa", "-b", "1024"}} {
		key := testenv.SSHKeygen(t, dir, "id_"+kind[0], append([]string{"-N", "", "-t"}, kind...)...)
		os.Remove(msg + ".sig")
		testenv.Run(t, keygen, "-Y", "sign", "-q", "-f", key, "-n", "pret-acces", msg)
		want, err := os.ReadFile(msg + ".sig")
		if err != nil {
			t.Fatal(err)
		}
		if got := Armor(dearmour(t, string(want)), 70); got != string(want) {
			t.Errorf("%s: ssh-keygen's signature re-armoured:\n%s\nwant:\n%s", kind[0], got, want)
		}
		signed++
	}
	blob := dearmour(t, ProtocolExample)
	for _, width := range []int{1, 4, 64, 70, 76, len(blob) * 2} {
		lines := strings.Split(strings.TrimSuffix(Armor(blob, width), "\n"), "\n")
		for _, l := range lines[1 : len(lines)-2] {
			if len(l) != width {
				t.Fatalf("width %d: a line of %d", width, len(l))
			}
		}
		if got := dearmour(t, Armor(blob, width)); string(got) != string(blob) {
			t.Fatalf("width %d: the blob does not read back", width)
		}
	}
	if signed != 3 {
		t.Fatalf("%d signatures compared", signed)
	}
}
