package keys

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/des"
	"crypto/ed25519"
	"crypto/sha512"
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"

	"golang.org/x/crypto/blowfish"
	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/poly1305" //nolint:staticcheck // OpenSSH's chacha20-poly1305 is this construction, not the AEAD of RFC 8439
	"golang.org/x/crypto/ssh"
)

// An unencrypted key is refused: its signature would claim a passphrase.
var (
	ErrBadPassphrase = errors.New("passphrase incorrecte")
	ErrUnencrypted   = errors.New("la clé privée n'est pas protégée par une passphrase")
	ErrTooManyRounds = errors.New("la clé privée est chiffrée avec trop de tours de KDF bcrypt")
	ErrCipher        = errors.New("la clé privée est chiffrée d'une façon que pret ne sait pas ouvrir")
)

// MaxKDFRounds caps the file's bcrypt rounds (ssh-keygen -a), which could
// ask for months of CPU: 2048 is 128 times the default, a few seconds.
const MaxKDFRounds = 2048

// cipherSpec is a cipher of OpenSSH's cipher.c.
type cipherSpec struct {
	key, iv, block, tag int
	mode                byte // 'r' CTR, 'b' CBC, 'g' GCM, 'c' chacha20-poly1305
}

// ciphers are the ciphers `ssh-keygen -Z` writes (`ssh -Q cipher`).
var ciphers = map[string]cipherSpec{
	"aes128-ctr":                    {16, 16, 16, 0, 'r'},
	"aes192-ctr":                    {24, 16, 16, 0, 'r'},
	"aes256-ctr":                    {32, 16, 16, 0, 'r'},
	"aes128-cbc":                    {16, 16, 16, 0, 'b'},
	"aes192-cbc":                    {24, 16, 16, 0, 'b'},
	"aes256-cbc":                    {32, 16, 16, 0, 'b'},
	"3des-cbc":                      {24, 8, 8, 0, 'b'},
	"aes128-gcm@openssh.com":        {16, 12, 16, 16, 'g'},
	"aes256-gcm@openssh.com":        {32, 12, 16, 16, 'g'},
	"chacha20-poly1305@openssh.com": {64, 0, 8, 16, 'c'},
}

// Openable says, before any passphrase is typed, why Decrypt cannot open p.
func (p *Private) Openable() error {
	_, known := ciphers[p.Cipher]
	switch {
	case !p.Encrypted:
		return ErrUnencrypted
	case p.Format != "openssh":
		return fmt.Errorf("%w : format %s ; pret n'ouvre que le format OpenSSH, celui de ssh-keygen", ErrCipher, p.Format)
	case p.KDF != "bcrypt":
		return fmt.Errorf("%w : dérivation de clé %q", ErrCipher, p.KDF)
	case !known:
		return fmt.Errorf("%w : chiffrement %q", ErrCipher, p.Cipher)
	case p.Rounds > MaxKDFRounds:
		return fmt.Errorf("%w (%d, au plus %d)", ErrTooManyRounds, p.Rounds, MaxKDFRounds)
	}
	return nil
}

var errDamaged = errors.New("la clé privée n'a pas pu être déchiffrée : fichier abîmé")

// Decrypt opens an encrypted ed25519 key in memory, wipe zeroes it; errors hold neither
// passphrase nor key byte. Every ssh-keygen -Z cipher is read: x/crypto/ssh opens aes256 only.
func Decrypt(privPEM, passphrase []byte) (signer ssh.Signer, wipe func(), err error) {
	p, err := ParsePrivate(privPEM)
	if err != nil {
		return nil, nil, err
	}
	if err := p.Openable(); err != nil {
		return nil, nil, err
	}
	if len(passphrase) == 0 {
		return nil, nil, ErrBadPassphrase
	}
	defer clear(p.key.Section) // decrypted in place
	if err := p.key.open(passphrase); err != nil {
		return nil, nil, err
	}
	// Two check numbers (a wrong passphrase makes them differ), type, keys.
	var k struct {
		Check1, Check2 uint32
		Type           string
		Pub, Priv      []byte
		Rest           []byte `ssh:"rest"`
	}
	err = ssh.Unmarshal(p.key.Section, &k)
	switch {
	case len(p.key.Section) < 8 || k.Check1 != k.Check2:
		return nil, nil, ErrBadPassphrase
	case k.Type != ssh.KeyAlgoED25519:
		return nil, nil, errors.New("la clé privée n'est pas ed25519 : pret ne signe qu'avec une clé ed25519")
	case err != nil || len(k.Priv) != ed25519.PrivateKeySize || !bytes.Equal(k.Priv[32:], k.Pub):
		return nil, nil, errDamaged
	}
	key := ed25519.PrivateKey(bytes.Clone(k.Priv))
	signer, _ = ssh.NewSignerFromKey(key) // an ed25519 key always makes one
	return signer, func() { clear(key) }, nil
}

// open decrypts the section in place; a bad tag is a wrong passphrase, as for OpenSSH.
func (k *opensshKey) open(passphrase []byte) error {
	c := ciphers[k.Cipher]
	var o kdfOpts
	ssh.Unmarshal(k.KDFOpts, &o)
	section := k.Section
	if o.Rounds == 0 || len(k.Tag) < c.tag || len(section)%c.block != 0 {
		return errDamaged
	}
	dk := bcryptPBKDF(passphrase, o.Salt, int(o.Rounds), c.key+c.iv)
	defer clear(dk)
	key, iv := dk[:c.key], dk[c.key:]
	// The tag follows the section in the file, as the AEADs read them.
	sealed := section[:len(section)+c.tag]
	// The table's key sizes are right; chacha20 uses no block cipher.
	blk, _ := aes.NewCipher(key)
	if c.block == 8 { // 3des-cbc, the one cipher of 64-bit blocks
		blk, _ = des.NewTripleDESCipher(key)
	}
	switch c.mode {
	case 'r':
		cipher.NewCTR(blk, iv).XORKeyStream(section, section)
	case 'b':
		cipher.NewCBCDecrypter(blk, iv).CryptBlocks(section, section)
	case 'g':
		aead, _ := cipher.NewGCM(blk)
		if _, err := aead.Open(section[:0], iv, sealed, nil); err != nil {
			return ErrBadPassphrase
		}
	case 'c':
		// OpenSSH's chacha20-poly1305, sequence 0: keystream block 0 is
		// the Poly1305 key, the text starts at block 1.
		var nonce [chacha20.NonceSize]byte
		s, _ := chacha20.NewUnauthenticatedCipher(key[:32], nonce[:])
		var polyKey [32]byte
		s.XORKeyStream(polyKey[:], polyKey[:])
		tag := [16]byte(sealed[len(section):])
		if !poly1305.Verify(&tag, section, &polyKey) {
			return ErrBadPassphrase
		}
		s.SetCounter(1)
		s.XORKeyStream(section, section)
	}
	return nil
}

// bcryptPBKDF is OpenBSD's bcrypt_pbkdf(3) (x/crypto keeps its own internal).
func bcryptPBKDF(pass, salt []byte, rounds, n int) []byte {
	const size = 32
	blocks := (n + size - 1) / size
	key := make([]byte, blocks*size)
	shapass := sha512.Sum512(pass)
	defer clear(shapass[:])
	out, tmp := make([]byte, size), make([]byte, size)
	defer clear(out)
	defer clear(tmp)
	for b := 1; b <= blocks; b++ {
		shasalt := sha512.Sum512(append(slices.Clip(salt), byte(b>>24), byte(b>>16), byte(b>>8), byte(b)))
		bcryptHash(tmp, shapass[:], shasalt[:])
		copy(out, tmp)
		for i := 2; i <= rounds; i++ {
			s := sha512.Sum512(tmp)
			bcryptHash(tmp, shapass[:], s[:])
			subtle.XORBytes(out, out, tmp)
		}
		for i, v := range out {
			key[i*blocks+b-1] = v
		}
	}
	return key[:n]
}

func bcryptHash(out, shapass, shasalt []byte) {
	c, _ := blowfish.NewSaltedCipher(shapass, shasalt) // fails only for an empty key
	for range 64 {
		blowfish.ExpandKey(shasalt, c)
		blowfish.ExpandKey(shapass, c)
	}
	copy(out, "OxychromaticBlowfishSwatDynamite")
	for i := 0; i < 32; i += 8 {
		for range 64 {
			c.Encrypt(out[i:i+8], out[i:i+8])
		}
	}
	for i := 0; i < 32; i += 4 { // little-endian words
		out[i], out[i+1], out[i+2], out[i+3] = out[i+3], out[i+2], out[i+1], out[i]
	}
}
