package signingtest

import (
	"crypto/rand"
	"crypto/rsa"
	"testing"

	"golang.org/x/crypto/ssh"
)

// NewRSASmall makes an RSA key of bits bits, under OpenSSH's 1024-bit
// floor, that signs with rsa-sha2-512: Go makes and uses one only with
// GODEBUG=rsa1024min=0, set for the rest of t.
func NewRSASmall(t testing.TB, bits int) ssh.Signer {
	t.Setenv("GODEBUG", "rsa1024min=0")
	key, err := rsa.GenerateKey(rand.Reader, bits)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(key)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerWithAlgorithms(signer.(ssh.AlgorithmSigner), []string{ssh.KeyAlgoRSASHA512})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
