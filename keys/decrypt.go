package keys

import (
	"crypto/ed25519"
	"crypto/x509"
	"errors"
	"fmt"

	"golang.org/x/crypto/ssh"
)

// Decrypt's refusals. Opening a private key is key work, not signature
// work: it needs x/crypto/ssh and ParsePrivate only, and each refusal is
// about the key file; keys/signing signs with the signer it returns.
var (
	// ErrBadPassphrase is a passphrase that does not decrypt the key.
	ErrBadPassphrase = errors.New("passphrase incorrecte")
	// ErrUnencrypted is a key without passphrase: a signature made with it
	// would claim a passphrase that does not exist.
	ErrUnencrypted = errors.New("la clé privée n'est pas protégée par une passphrase")
	// ErrTooManyRounds is a key whose bcrypt KDF asks more rounds than
	// x/crypto/ssh agrees to compute (see MaxKDFRounds).
	ErrTooManyRounds = errors.New("la clé privée est chiffrée avec trop de tours de KDF bcrypt")
)

// MaxKDFRounds is the most bcrypt KDF rounds (ssh-keygen -a) a key may
// have for Decrypt to open it. The cap is x/crypto/ssh's
// (parseOpenSSHPrivateKey refuses more: a file could otherwise ask for
// months of CPU); its bcrypt_pbkdf is internal, so pret cannot lift it.
// OpenSSH has no cap, so such a key is sound: pret says why it cannot
// use it rather than calling it damaged.
const MaxKDFRounds = 2048

// Decrypt opens an encrypted private key with its passphrase, in memory
// only, and returns a signer with a wipe function that zeroes the key
// bytes it holds; call wipe as soon as the signature is made. The error
// never contains the passphrase nor any key byte.
func Decrypt(privPEM, passphrase []byte) (signer ssh.Signer, wipe func(), err error) {
	p, err := ParsePrivate(privPEM)
	if err != nil {
		return nil, nil, err
	}
	if !p.Encrypted {
		return nil, nil, ErrUnencrypted
	}
	if p.Rounds > MaxKDFRounds {
		return nil, nil, fmt.Errorf("%w (%d, au plus %d)", ErrTooManyRounds, p.Rounds, MaxKDFRounds)
	}
	if len(passphrase) == 0 {
		return nil, nil, ErrBadPassphrase
	}
	raw, err := ssh.ParseRawPrivateKeyWithPassphrase(privPEM, passphrase)
	if err != nil {
		if errors.Is(err, x509.IncorrectPasswordError) {
			return nil, nil, ErrBadPassphrase
		}
		// The library's text is English and may describe the key; say
		// only what the person can act on.
		return nil, nil, errors.New("la clé privée n'a pas pu être déchiffrée (format non pris en charge ou fichier abîmé)")
	}
	wipe = func() {}
	switch k := raw.(type) {
	case *ed25519.PrivateKey:
		wipe = func() { clear(*k) }
	case ed25519.PrivateKey:
		wipe = func() { clear(k) }
	}
	signer, err = ssh.NewSignerFromKey(raw)
	if err != nil {
		wipe()
		return nil, nil, errors.New("la clé privée n'a pas pu être déchiffrée (type de clé non pris en charge)")
	}
	return signer, wipe, nil
}
