// Package keys generates, parses and fingerprints the learner's ed25519
// key, and writes key files without ever replacing one (through Files).
package keys

import (
	"bytes"
	"cmp"
	"crypto/ed25519"
	"crypto/rsa"
	"encoding/base64"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/ssh"
)

// MaxFileSize bounds every key file read: a real key is a few hundred bytes.
const MaxFileSize = 64 << 10

var (
	ErrTooLarge = errors.New("fichier de clé trop grand (plus de 64 Kio) : ce n'est pas une clé SSH")
	ErrNotKey   = errors.New("aucune clé SSH lisible dans ce fichier")
)

// Generate makes an ed25519 key encrypted as ssh-keygen does, and its .pub line.
func Generate(random io.Reader, comment string, passphrase []byte) (privPEM, pubLine []byte, err error) {
	if err := CheckComment(comment); err != nil {
		return nil, nil, err
	}
	if len(passphrase) == 0 {
		// The course forbids an unencrypted key: refused here too.
		return nil, nil, errors.New("la passphrase est vide")
	}
	_, priv, err := ed25519.GenerateKey(random) // crypto/rand if nil
	if err != nil {
		return nil, nil, fmt.Errorf("génération de la clé : %w", err)
	}
	block, err := ssh.MarshalPrivateKeyWithPassphrase(priv, comment, passphrase)
	if err != nil {
		return nil, nil, fmt.Errorf("chiffrement de la clé : %w", err)
	}
	signer, _ := ssh.NewSignerFromKey(priv) // an ed25519 key always makes one
	return pem.EncodeToMemory(block), PublicLine(signer.PublicKey(), comment), nil
}

// MaxCommentLen bounds a key comment, printed on every fingerprint line.
const MaxCommentLen = 1024

// CheckComment refuses a comment that would break the .pub (a newline) or a terminal.
func CheckComment(c string) error {
	if len(c) > MaxCommentLen {
		return fmt.Errorf("commentaire de clé trop long (plus de %d octets)", MaxCommentLen)
	}
	if !utf8.ValidString(c) {
		return errors.New("commentaire de clé invalide : ce n'est pas du texte UTF-8")
	}
	for _, r := range c {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return fmt.Errorf("commentaire de clé invalide : il contient un caractère de contrôle (%U) ; un commentaire tient sur une ligne de texte", r)
		}
	}
	return nil
}

// PublicLine is the one-line public key file content, as ssh-keygen writes it.
func PublicLine(pub ssh.PublicKey, comment string) []byte {
	line := bytes.TrimRight(ssh.MarshalAuthorizedKey(pub), "\n")
	if comment != "" {
		line = append(append(line, ' '), comment...)
	}
	return append(line, '\n')
}

func TypeName(pub ssh.PublicKey) string {
	if t, ok := keyTypes[pub.Type()]; ok {
		return t.name
	}
	return strings.ToUpper(pub.Type())
}

// keyTypes are ssh-keygen's names and sizes of key types (bits 0: the key's own).
var keyTypes = map[string]struct {
	name string
	bits int
}{
	ssh.KeyAlgoED25519: {"ED25519", 256}, ssh.KeyAlgoSKED25519: {"ED25519-SK", 256}, ssh.KeyAlgoRSA: {"RSA", 0},
	ssh.KeyAlgoDSA:      {"DSA", 0}, //nolint:staticcheck // naming an old key is not using it
	ssh.KeyAlgoECDSA256: {"ECDSA", 256}, ssh.KeyAlgoECDSA384: {"ECDSA", 384}, ssh.KeyAlgoECDSA521: {"ECDSA", 521},
	ssh.KeyAlgoSKECDSA256: {"ECDSA-SK", 256},
}

// IsEd25519 reports a plain ed25519 key (not ed25519-sk).
func IsEd25519(pub ssh.PublicKey) bool { return pub.Type() == ssh.KeyAlgoED25519 }

func Bits(pub ssh.PublicKey) int {
	if bits := keyTypes[pub.Type()].bits; bits > 0 {
		return bits
	}
	switch k := pub.(type) {
	case *legacyKey:
		return k.bits
	case ssh.CryptoPublicKey:
		if rsa, ok := k.CryptoPublicKey().(*rsa.PublicKey); ok {
			return rsa.Size() * 8
		}
	}
	return 0
}

// FingerprintLine is what `ssh-keygen -lf` prints for one key.
func FingerprintLine(pub ssh.PublicKey, comment string) string {
	return fingerprintOf(pub, cmp.Or(comment, "no comment")).Line()
}

// LooksLikeFragment reports a base64 word that may be cut from a key body (keys/leak cannot
// decode it): 16 characters or more, mixed case, neither hex, a public key nor a fingerprint.
func LooksLikeFragment(s string) bool {
	notB64 := func(r rune) bool {
		return !('A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '+' || r == '/')
	}
	for _, w := range strings.FieldsFunc(s, notB64) {
		mixedCase := strings.ToLower(w) != w && strings.ToUpper(w) != w
		if len(w) >= 16 && mixedCase && !allHex(w) && !publicBlob(w) && !strings.Contains(s, "SHA256:"+w) {
			return true
		}
	}
	return false
}

// publicBlob reports an SSH public key, whole or cut.
func publicBlob(w string) bool {
	raw, _ := base64.StdEncoding.DecodeString(w[:len(w)/4*4])
	if len(raw) < 8 {
		return false
	}
	n := int(binary.BigEndian.Uint32(raw))
	if n >= 64 || 4+n > len(raw) {
		return false
	}
	name, _, dash := strings.Cut(string(raw[4:4+n]), "-")
	return dash && (name == "ssh" || name == "ecdsa" || name == "sk" || name == "rsa")
}

func allHex(s string) bool { return strings.Trim(s, "0123456789abcdefABCDEF") == "" }
