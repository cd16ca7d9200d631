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
	key        *opensshKey
}

const opensshMagic = "openssh-key-v1\x00"

// ParsePrivate reads a key file's header: no passphrase, no key material.
func ParsePrivate(data []byte) (*Private, error) {
	if len(data) > MaxFileSize {
		return nil, ErrTooLarge
	}
	block, _ := pem.Decode(data)
	switch {
	case block == nil || !strings.HasSuffix(block.Type, "PRIVATE KEY"):
		return nil, ErrNotKey
	case block.Type == "OPENSSH PRIVATE KEY":
		return parseOpenSSH(block.Bytes)
	}
	p := &Private{Format: block.Type}
	signer, err := ssh.ParsePrivateKey(data)
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
	p.Public = signer.PublicKey()
	p.Cipher, p.KDF = "none", "none"
	return p, nil
}

// opensshKey is an openssh-key-v1 key (PROTOCOL.key) after its magic.
type opensshKey struct {
	Cipher, KDF     string
	KDFOpts         []byte // salt and rounds: Decrypt needs the rounds
	Keys            uint32
	Public, Section []byte
	Tag             []byte `ssh:"rest"` // an AEAD's tag follows the section
}

type kdfOpts struct {
	Salt   []byte
	Rounds uint32
	Rest   []byte `ssh:"rest"`
}

func parseOpenSSH(b []byte) (*Private, error) {
	bad := fmt.Errorf("%w : en-tête openssh-key-v1 invalide", ErrNotKey)
	k := &opensshKey{}
	if !bytes.HasPrefix(b, []byte(opensshMagic)) || ssh.Unmarshal(b[len(opensshMagic):], k) != nil || k.Keys != 1 {
		return nil, bad
	}
	pub, err := ParsePublicKey(k.Public)
	if err != nil {
		return nil, bad
	}
	p := &Private{Public: pub, Cipher: k.Cipher, KDF: k.KDF, Encrypted: k.Cipher != "none", Format: "openssh", key: k}
	if !p.Encrypted {
		p.Comment = clearComment(k.Section)
	}
	if p.KDF == "bcrypt" {
		var o kdfOpts
		ssh.Unmarshal(k.KDFOpts, &o)
		p.Rounds = o.Rounds
	}
	return p, nil
}

// clearComment reads a clear section's comment after its type's fields; an unknown type has none.
func clearComment(section []byte) string {
	var k struct {
		Check1, Check2 uint32
		Type           string
		Rest           []byte `ssh:"rest"`
	}
	if ssh.Unmarshal(section, &k) != nil || k.Check1 != k.Check2 {
		return ""
	}
	// The fields of each type: s a string, b a byte (a security key's flags); then the comment.
	fields := map[string]string{
		ssh.KeyAlgoED25519: "ss", ssh.KeyAlgoRSA: "ssssss", ssh.KeyAlgoSKED25519: "ssbss", ssh.KeyAlgoSKECDSA256: "sssbss",
		ssh.KeyAlgoECDSA256: "sss", ssh.KeyAlgoECDSA384: "sss", ssh.KeyAlgoECDSA521: "sss",
		ssh.KeyAlgoDSA: "sssss", //nolint:staticcheck // reading, not using
	}[k.Type]
	if fields == "" {
		return ""
	}
	var f struct {
		S    []byte
		Rest []byte `ssh:"rest"`
	}
	rest := k.Rest
	for _, c := range fields + "s" {
		switch {
		case c == 'b' && len(rest) > 0:
			rest = rest[1:]
		case c == 'b' || ssh.Unmarshal(rest, &f) != nil:
			return ""
		default:
			rest = f.Rest
		}
	}
	return string(f.S)
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
