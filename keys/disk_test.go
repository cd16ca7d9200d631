package keys

import (
	"testing"

	"github.com/romeo-pret/pret/internal/safefile"
)

// disk is the Files pret gives keys; the tests of this package use it
// too, so they test the key rules over the real reader and writer.
var disk Files = safefile.KeyFiles{}

// TestKeyCapsAgree: safefile's cap for a key file (used where a key is
// read without keys, in the submissions walk) is keys' MaxFileSize.
func TestKeyCapsAgree(t *testing.T) {
	if safefile.Key.Max != MaxFileSize {
		t.Fatalf("safefile.Key.Max = %d, keys.MaxFileSize = %d", safefile.Key.Max, MaxFileSize)
	}
}
