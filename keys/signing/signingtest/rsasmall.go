package signingtest

import (
	"crypto/rand"
	"crypto/sha512"
	"io"
	"math/big"

	"golang.org/x/crypto/ssh"
)

// RSASmall is an RSA key under OpenSSH's 1024-bit floor, made and used by
// hand: Go's crypto/rsa makes and uses none that small. It is an
// ssh.Signer that signs with rsa-sha2-512.
type RSASmall struct {
	n, e, d *big.Int
	pub     ssh.PublicKey
}

// NewRSASmall makes a key of exactly bits bits (even, 512 or more).
func NewRSASmall(bits int) *RSASmall {
	e, one := big.NewInt(65537), big.NewInt(1)
	for {
		p, _ := rand.Prime(rand.Reader, bits/2)
		q, _ := rand.Prime(rand.Reader, bits/2)
		n := new(big.Int).Mul(p, q)
		phi := new(big.Int).Mul(new(big.Int).Sub(p, one), new(big.Int).Sub(q, one))
		d := new(big.Int).ModInverse(e, phi)
		if d == nil || n.BitLen() != bits || p.Cmp(q) == 0 {
			continue
		}
		pub, err := ssh.ParsePublicKey(ssh.Marshal(struct {
			Name string
			E, N *big.Int
		}{ssh.KeyAlgoRSA, e, n}))
		if err != nil {
			panic(err) // x/crypto/ssh reads small RSA keys; Go refuses only to use them
		}
		return &RSASmall{n, e, d, pub}
	}
}

func (k *RSASmall) PublicKey() ssh.PublicKey { return k.pub }

// Sign is PKCS #1 v1.5 over SHA-512 (RFC 8332's rsa-sha2-512).
func (k *RSASmall) Sign(_ io.Reader, data []byte) (*ssh.Signature, error) {
	digest := sha512.Sum512(data)
	info := append([]byte{0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40}, digest[:]...)
	size := (k.n.BitLen() + 7) / 8
	em := make([]byte, size) // 00 01 FF…FF 00 DigestInfo
	em[1] = 1
	for i := 2; i < size-len(info)-1; i++ {
		em[i] = 0xff
	}
	copy(em[size-len(info):], info)
	s := new(big.Int).Exp(new(big.Int).SetBytes(em), k.d, k.n)
	return &ssh.Signature{Format: ssh.KeyAlgoRSASHA512, Blob: s.FillBytes(make([]byte, size))}, nil
}
