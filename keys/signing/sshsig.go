// Package signing makes and checks the SSHSIG signature of an acces.md
// (signature.md): the armour ssh-keygen writes, the signed block after
// the <!-- pret:signature --> marker, and the checks OpenSSH makes. It
// lives above keys so that keys keeps to x/crypto alone; the SSHSIG
// format comes from github.com/hiddeco/sshsig, here and nowhere else.
package signing

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// SigNamespace is the SSHSIG namespace of every signature pret makes or
// accepts. A namespace binds a signature to one use: a signature made for
// git commits or for `file` cannot be passed off as a signed acces.md.
const SigNamespace = "pret-acces"

// sigHash is the hash pret signs with; ssh-keygen's default too.
const sigHash = sshsig.HashSHA512

const (
	armorBegin = "-----BEGIN SSH SIGNATURE-----"
	armorEnd   = "-----END SSH SIGNATURE-----"
	// armorWidth is the line width of ssh-keygen's armour. pret writes the
	// same bytes ssh-keygen would; it reads any width, as OpenSSH does
	// (see ParseArmor).
	armorWidth = 70
	// maxSigBlob bounds a signature blob: an ed25519 SSHSIG is 147 bytes
	// and an RSA-8192 one about 2 KiB.
	maxSigBlob = 16 << 10
)

var (
	// ErrBadArmor is a signature block that is not an SSHSIG signature as
	// ssh-keygen writes it.
	ErrBadArmor = errors.New("bloc de signature illisible")
	// ErrNamespace is a signature made for another use than acces.md.
	ErrNamespace = errors.New("signature faite pour un autre usage (espace de noms différent de pret-acces)")
	// ErrSigMismatch is a signature that does not hold over the bytes.
	ErrSigMismatch = errors.New("la signature ne correspond pas au contenu signé")
)

// Signature is one SSHSIG signature, parsed and checked to be canonical.
type Signature struct {
	sig  *sshsig.Signature
	blob []byte // the wire form, exactly as read or made
}

// PublicKey is the key the signature claims to be made with. It means
// nothing until Verify succeeds.
func (s *Signature) PublicKey() ssh.PublicKey { return s.sig.PublicKey }

// Namespace is the use the signature was made for.
func (s *Signature) Namespace() string { return s.sig.Namespace }

// Armor is the signature as ssh-keygen writes it: BEGIN line, base64 in
// lines of 70 characters, END line, each ending in "\n".
func (s *Signature) Armor() []byte {
	enc := base64.StdEncoding.EncodeToString(s.blob)
	var b bytes.Buffer
	b.WriteString(armorBegin + "\n")
	for len(enc) > armorWidth {
		b.WriteString(enc[:armorWidth] + "\n")
		enc = enc[armorWidth:]
	}
	b.WriteString(enc + "\n")
	b.WriteString(armorEnd + "\n")
	return b.Bytes()
}

// Verify checks that the signature was made over msg for SigNamespace by
// the key it carries. The caller still compares that key with the one it
// expects: a valid signature by some other key proves nothing.
func (s *Signature) Verify(msg []byte) error {
	if s.sig.Namespace != SigNamespace {
		return ErrNamespace
	}
	// The hash the signature names, sha512 or sha256: both are what
	// `ssh-keygen -Y check-novalidate` accepts, and both are sound.
	if err := sshsig.Verify(bytes.NewReader(msg), s.sig, s.sig.PublicKey, s.sig.HashAlgorithm, SigNamespace); err != nil {
		return ErrSigMismatch
	}
	return nil
}

// ParseArmor reads one armoured signature the way OpenSSH does
// (sshsig_dearmor in sshsig.c): the BEGIN and END lines, and between them
// base64 in lines of any width, whitespace ignored (b64_pton skips it),
// with or without the final newline. A signature re-wrapped by a mail
// client or an editor is the same signature. What could hide anything is
// still refused: another header, characters outside base64, trailing
// data in the blob, a field the parsed form would drop.
func ParseArmor(b []byte) (*Signature, error) {
	if len(b) > 2*maxSigBlob {
		return nil, fmt.Errorf("%w : trop long", ErrBadArmor)
	}
	text := string(b)
	if len(text) > 0 && text[len(text)-1] == '\n' {
		text = text[:len(text)-1]
	}
	lines := strings.Split(text, "\n")
	if len(lines) < 3 || lines[0] != armorBegin || lines[len(lines)-1] != armorEnd {
		return nil, fmt.Errorf("%w : lignes BEGIN/END SSH SIGNATURE absentes ou altérées", ErrBadArmor)
	}
	enc := make([]byte, 0, len(text))
	for _, l := range lines[1 : len(lines)-1] {
		for i := 0; i < len(l); i++ {
			switch c := l[i]; c {
			case ' ', '\t', '\r', '\v', '\f': // C isspace, as b64_pton
			default:
				enc = append(enc, c)
			}
		}
	}
	blob, err := base64.StdEncoding.Strict().DecodeString(string(enc))
	if err != nil || len(blob) == 0 {
		return nil, fmt.Errorf("%w : base64 invalide", ErrBadArmor)
	}
	return parseBlob(blob)
}

func parseBlob(blob []byte) (*Signature, error) {
	if len(blob) > maxSigBlob {
		return nil, fmt.Errorf("%w : trop long", ErrBadArmor)
	}
	sig, err := sshsig.ParseSignature(blob)
	if err != nil {
		return nil, fmt.Errorf("%w : ce n'est pas une signature SSHSIG", ErrBadArmor)
	}
	// Re-encoding must give the same bytes: whatever the parser skipped
	// (trailing data, a non-empty reserved field) could carry anything,
	// and the block must be exactly what was verified.
	if !bytes.Equal(sig.Marshal(), blob) {
		return nil, fmt.Errorf("%w : champs inattendus dans la signature", ErrBadArmor)
	}
	return &Signature{sig: sig, blob: bytes.Clone(blob)}, nil
}

// Sign signs msg for SigNamespace with sha512, as
// `ssh-keygen -Y sign -n pret-acces` does.
func Sign(random io.Reader, signer ssh.Signer, msg []byte) (*Signature, error) {
	sig, err := sshsig.SignWithRand(bytes.NewReader(msg), random, signer, sigHash, SigNamespace)
	if err != nil {
		return nil, fmt.Errorf("signature : %w", err)
	}
	return parseBlob(sig.Marshal())
}
