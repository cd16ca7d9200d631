package main

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/romeo-pret/pret/keys"
)

// sharedKeys are keys commented as the default configuration comments
// them, one per passphrase, made once for the package: bcrypt makes each
// key cost a tenth of a second or more, and most tests need a key to be
// there, not to watch pret make it (testdata/cle.txtar and the tests of
// pret cle do).
var sharedKeys sync.Map // passphrase -> func() (keyPair, error)

// putKey writes the shared key of testPass where pret cle would have
// made it in home (~/.ssh/id_ed25519_romeo, mode 0600, and its .pub), as
// pret cle writes them.
func putKey(t *testing.T, home string) keyPair { return putKeyWith(t, home, testPass) }

// keyPair is a private key file and its .pub, as pret cle writes them.
type keyPair struct{ priv, pub []byte }

// sharedKey is the shared key encrypted with pass.
func sharedKey(t *testing.T, pass string) keyPair {
	t.Helper()
	made, _ := sharedKeys.LoadOrStore(pass, sync.OnceValues(func() (keyPair, error) {
		priv, pub, err := keys.Generate(rand.Reader, "seance-novembre", []byte(pass))
		return keyPair{priv, pub}, err
	}))
	kp, err := made.(func() (keyPair, error))()
	if err != nil {
		t.Fatal(err)
	}
	return kp
}

// putKeyWith is putKey for a key encrypted with pass.
func putKeyWith(t *testing.T, home, pass string) keyPair {
	t.Helper()
	kp := sharedKey(t, pass)
	dir := filepath.Join(home, ".ssh")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "id_ed25519_romeo"), kp.priv, 0o600)
	if err := os.WriteFile(filepath.Join(dir, "id_ed25519_romeo.pub"), kp.pub, 0o644); err != nil {
		t.Fatal(err)
	}
	return kp
}

// peakUnder runs pret under /usr/bin/time until its peak resident memory
// is at most limit KiB, three times at most, and returns the least peak
// seen. Noise only ever adds (peakKiB), so the verdict is that of the
// least of three runs, and a pret within its limit is run once.
func (h *home) peakUnder(limit int64, args ...string) int64 {
	kib, _ := h.peakRun(limit, args...)
	return kib
}

// peakRun is peakUnder and the result of its first run: a scale test
// checks the report of the run it measures, instead of running twice.
func (h *home) peakRun(limit int64, args ...string) (int64, result) {
	h.t.Helper()
	runtime.GC()
	debug.FreeOSMemory()
	best, first := h.peakOnce(args...)
	for range 2 {
		if best <= limit {
			break
		}
		kib, _ := h.peakOnce(args...)
		best = min(best, kib)
	}
	return best, first
}

// stateFile is where pret keeps its state in home.
func stateFile(home string) string {
	return filepath.Join(home, ".local", "state", "pret", "etat.yaml")
}

// noTempFiles fails the test if a writer left a temporary file
// (.NAME.tmp-…) in one of dirs.
func noTempFiles(t *testing.T, dirs ...string) {
	t.Helper()
	for _, dir := range dirs {
		if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*")); len(left) > 0 {
			t.Fatalf("temporary files left: %v", left)
		}
	}
}

// dirSnapshot is every name below dir (links not followed) with its mode
// and, for a regular file, the hash of its content: two equal snapshots
// are the same folder. A FIFO or a device is never opened.
func dirSnapshot(dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fmt.Fprintf(&b, "%s erreur\n", p)
			return nil
		}
		info, _ := d.Info()
		fmt.Fprintf(&b, "%s %v", p, info.Mode())
		if info.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, " %x", sha256.Sum256(data))
		}
		b.WriteByte('\n')
		return nil
	})
	return b.String()
}

// notShort skips a test of more than a second under -short.
func notShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
}

// put writes content at rel below dir, making the folders between, and
// returns its path.
func put(t testing.TB, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, []byte(content), 0o600)
	return p
}

// readFile is os.ReadFile that fails the test.
func readFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// writeFile is os.WriteFile that fails the test.
func writeFile(t testing.TB, name string, data []byte, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(name, data, perm); err != nil {
		t.Fatal(err)
	}
}
