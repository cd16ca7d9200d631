package acces

import (
	"encoding/base64"
	"math/rand/v2"
	"testing"
)

// TestValidFingerprintMatchesDecode: the copy-free check accepts exactly
// what base64.RawStdEncoding.Strict().DecodeString decodes to 32 bytes,
// stray bits in the last character included.
func TestValidFingerprintMatchesDecode(t *testing.T) {
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 200_000 {
		n := 40 + r.IntN(7)
		b := make([]byte, n)
		for k := range b {
			b[k] = b64[r.IntN(len(b64))]
		}
		s := string(b)
		raw, err := base64.RawStdEncoding.Strict().DecodeString(s)
		if want := err == nil && len(raw) == 32; validFingerprint(s) != want {
			t.Fatalf("case %d: validFingerprint(%q) = %v, DecodeString says %v", i, s, !want, want)
		}
	}
}
