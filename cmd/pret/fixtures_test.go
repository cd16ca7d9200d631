package main

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/romeo-pret/pret/keys"
)

// sharedKey is one key, encrypted with testPass and commented as the
// default configuration comments it, made once for the package: bcrypt
// makes each key cost a tenth of a second or more, and most tests need a
// key to be there, not to watch pret make it (testdata/cle.txtar and the
// tests of pret cle do).
var sharedKey = sync.OnceValues(func() (keyPair, error) {
	priv, pub, err := keys.Generate(rand.Reader, "seance-novembre", []byte(testPass))
	return keyPair{priv, pub}, err
})

// putKey writes the shared key where pret cle would have made it in
// home (~/.ssh/id_ed25519_romeo, mode 0600, and its .pub), as pret cle
// writes them.
func putKey(t *testing.T, home string) keyPair {
	t.Helper()
	kp, err := sharedKey()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(home, ".ssh")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "id_ed25519_romeo"), kp.priv, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "id_ed25519_romeo.pub"), kp.pub, 0o644); err != nil {
		t.Fatal(err)
	}
	return kp
}
