package keys

import (
	"bytes"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"
)

// Private is what can be known of a private key file without its passphrase.
type Private struct {
	Public     ssh.PublicKey // nil only for a legacy encrypted PEM key
	Encrypted  bool
	Cipher     string // "aes256-ctr", "none", or the PEM DEK-Info cipher
	KDF        string // "bcrypt", "none"
	Rounds     uint32 // bcrypt rounds of an openssh-key-v1 key (ssh-keygen -a)
	Comment    string // known only when the key is not encrypted
	Format     string // "openssh" for openssh-key-v1, else the PEM block type
	LegacyType string // a legacy encrypted PEM key's type: "RSA", "EC", "DSA", "PKCS#8"
}

const opensshMagic = "openssh-key-v1\x00"

// ParsePrivate reads a key file's header: no passphrase, no key material.
func ParsePrivate(data []byte) (*Private, error) {
	if len(data) > MaxFileSize {
		return nil, ErrTooLarge
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, ErrNotKey
	}
	if block.Type == "OPENSSH PRIVATE KEY" {
		return parseOpenSSH(block.Bytes)
	}
	if !strings.HasSuffix(block.Type, "PRIVATE KEY") {
		return nil, ErrNotKey
	}
	p := &Private{Format: block.Type}
	raw, err := ssh.ParseRawPrivateKey(data)
	var missing *ssh.PassphraseMissingError
	switch {
	case errors.As(err, &missing):
		p.Encrypted = true
		p.Cipher, _, _ = strings.Cut(block.Headers["DEK-Info"], ",")
		p.Public = missing.PublicKey
		p.LegacyType = strings.TrimSpace(strings.TrimSuffix(block.Type, "PRIVATE KEY"))
		if p.LegacyType == "" || p.LegacyType == "ENCRYPTED" {
			p.LegacyType = "PKCS#8"
		}
		return p, nil
	case err != nil:
		return nil, fmt.Errorf("%w (%s)", ErrNotKey, block.Type)
	}
	signer, err := ssh.NewSignerFromKey(raw)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", ErrNotKey, block.Type)
	}
	p.Public = signer.PublicKey()
	p.Cipher, p.KDF = "none", "none"
	return p, nil
}

func parseOpenSSH(b []byte) (*Private, error) {
	bad := fmt.Errorf("%w : en-tête openssh-key-v1 invalide", ErrNotKey)
	if !bytes.HasPrefix(b, []byte(opensshMagic)) {
		return nil, bad
	}
	r := reader{b: b[len(opensshMagic):]}
	cipher, ok1 := r.str()
	kdf, ok2 := r.str()
	kdfOpts, ok3 := r.str() // salt and rounds: Decrypt needs the rounds
	n, ok4 := r.uint32()
	if !(ok1 && ok2 && ok3 && ok4) || n != 1 {
		return nil, bad
	}
	blob, _ := r.str()
	pub, err := ParsePublicKey(blob)
	section, ok := r.str()
	if err != nil || !ok {
		return nil, bad
	}
	p := &Private{
		Public:    pub,
		Cipher:    string(cipher),
		KDF:       string(kdf),
		Encrypted: string(cipher) != "none",
		Format:    "openssh",
	}
	if !p.Encrypted {
		p.Comment = clearComment(section)
	}
	if p.KDF == "bcrypt" {
		o := reader{b: kdfOpts}
		if _, ok := o.str(); ok {
			p.Rounds, _ = o.uint32()
		}
	}
	return p, nil
}

// clearComment reads an unencrypted section's comment, after the fields
// of its type; an unknown type gives none rather than a guess.
func clearComment(section []byte) string {
	r := reader{b: section}
	c1, ok1 := r.uint32()
	c2, ok2 := r.uint32()
	typ, ok3 := r.str()
	if !(ok1 && ok2 && ok3) || c1 != c2 {
		return ""
	}
	// The fields of each type: s a string, b a byte (a security key's flags).
	fields := map[string]string{
		ssh.KeyAlgoED25519: "ss", ssh.KeyAlgoRSA: "ssssss", ssh.KeyAlgoSKED25519: "ssbss", ssh.KeyAlgoSKECDSA256: "sssbss",
		ssh.KeyAlgoECDSA256: "sss", ssh.KeyAlgoECDSA384: "sss", ssh.KeyAlgoECDSA521: "sss",
		ssh.KeyAlgoDSA: "sssss", //nolint:staticcheck // reading, not using
	}[string(typ)]
	if fields == "" {
		return ""
	}
	for _, f := range fields {
		if f == 'b' {
			if len(r.b) == 0 {
				return ""
			}
			r.b = r.b[1:]
		} else if _, ok := r.str(); !ok {
			return ""
		}
	}
	c, _ := r.str()
	return string(c)
}

type PublicEntry struct {
	Key     ssh.PublicKey
	Comment string
}

// ParsePublic reads an authorized_keys-style file.
func ParsePublic(data []byte) ([]PublicEntry, error) {
	if len(data) > MaxFileSize {
		return nil, ErrTooLarge
	}
	var out []PublicEntry
	for rest := data; len(bytes.TrimSpace(rest)) > 0; {
		pub, comment, _, next, err := ssh.ParseAuthorizedKey(rest)
		if err != nil {
			break
		}
		out, rest = append(out, PublicEntry{Key: pub, Comment: comment}), next
	}
	if len(out) == 0 {
		return nil, ErrNotKey
	}
	return out, nil
}
