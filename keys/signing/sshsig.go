// Package signing makes and checks the SSHSIG signature of an acces.md
// (signature.md): the armour ssh-keygen writes, the signed block after
// the <!-- pret:signature --> marker, and the checks OpenSSH makes.
//
// It agrees with `ssh-keygen -Y check-novalidate` (sshsig.c), with the
// exceptions signature.md lists. Signing and the hash of what is signed
// come from github.com/hiddeco/sshsig: it writes the blob ssh-keygen
// writes, byte for byte. Reading a blob is done here on x/crypto/ssh,
// because sshsig.ParseSignature reads less than OpenSSH does: it drops
// the reserved field (so a blob that carries one cannot be told from one
// that does not), refuses version 0, and keeps the bytes after the
// signature's own fields, which OpenSSH refuses.
package signing

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// SigNamespace is the SSHSIG namespace of every signature pret makes or
// accepts. A namespace binds a signature to one use: a signature made for
// git commits or for `file` cannot be passed off as a signed acces.md.
const SigNamespace = "pret-acces"

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
	ErrBadArmor    = errors.New("bloc de signature illisible")
	ErrNamespace   = errors.New("signature faite pour un autre usage (espace de noms différent de pret-acces)")
	ErrSigMismatch = errors.New("la signature ne correspond pas au contenu signé")
	// ErrNoUserPresence: ssh-keygen -Y check-novalidate accepts a security
	// key's signature made without touching the key; pret, like sshd by
	// default, does not (signature.md).
	ErrNoUserPresence = errors.New("signature d'une clé de sécurité faite sans la toucher (présence de l'utilisateur absente)")
	// ErrNonCanonical: an ed25519 S not reduced is a valid signature
	// changed into another (malleability). OpenSSH accepts it; Go's
	// ed25519, and so pret, does not (signature.md).
	ErrNonCanonical = errors.New("signature ed25519 non canonique (S non réduit) : aucun outil de signature n'écrit cela")
)

// Signature is one SSHSIG signature, parsed as OpenSSH parses it.
type Signature struct {
	reserved  []byte
	version   uint32
	pub       ssh.PublicKey
	namespace string
	hash      string
	sig       *ssh.Signature
	blob      []byte // the wire form, exactly as read or made
}

// PublicKey is the key the signature names, a certificate included. It
// means nothing until Verify succeeds.
func (s *Signature) PublicKey() ssh.PublicKey { return s.pub }

// Key is the key that made the signature: PublicKey, or for a
// certificate the key it certifies. Its fingerprint is the one
// `ssh-keygen -Y check-novalidate` prints and `ssh-keygen -lf` prints for
// the certificate (sshkey_fingerprint reads a certificate's plain key).
func (s *Signature) Key() ssh.PublicKey {
	if c, ok := s.pub.(*ssh.Certificate); ok {
		return c.Key
	}
	return s.pub
}

// Namespace is the use the signature was made for.
func (s *Signature) Namespace() string { return s.namespace }

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
// the key it carries, as sshsig_wrap_verify does: the signed data has an
// empty reserved field whatever the blob holds, and the hash is the one
// the blob names (sha256 or sha512). The caller still compares the key
// with the one it expects: a valid signature by some other key proves
// nothing.
func (s *Signature) Verify(msg []byte) error {
	if s.namespace != SigNamespace {
		return ErrNamespace
	}
	switch s.sig.Format {
	case skEd25519, skECDSA, webauthnSK: // parseSig checked the flags are there
		if s.sig.Rest[0]&flagUserPresent == 0 {
			return ErrNoUserPresence
		}
	}
	var err error
	if s.sig.Format == webauthnSK {
		err = s.verifyWebAuthn(msg)
	} else {
		sig := &sshsig.Signature{Version: s.version, PublicKey: s.pub, Namespace: s.namespace,
			HashAlgorithm: sshsig.HashAlgorithm(s.hash), Signature: s.sig}
		err = sshsig.Verify(bytes.NewReader(msg), sig, s.pub, sig.HashAlgorithm, SigNamespace)
	}
	switch {
	case err == nil:
		return nil
	case nonCanonical(s.sig):
		return ErrNonCanonical
	}
	return ErrSigMismatch
}

// Signature types whose checks pret makes itself.
const (
	skEd25519  = "sk-ssh-ed25519@openssh.com"
	skECDSA    = "sk-ecdsa-sha2-nistp256@openssh.com"
	webauthnSK = "webauthn-sk-ecdsa-sha2-nistp256@openssh.com"

	flagUserPresent = 0x01
)

// textFields are the fields of the signature a signer may fill with any
// text.
func (s *Signature) textFields() []string {
	fields := []string{s.namespace, string(s.reserved)}
	if c, ok := s.pub.(*ssh.Certificate); ok {
		fields = append(fields, c.KeyId)
		fields = append(fields, c.ValidPrincipals...)
		for _, m := range []map[string]string{c.CriticalOptions, c.Extensions} {
			for k, v := range m {
				fields = append(fields, k, v)
			}
		}
	}
	if s.sig.Format == webauthnSK {
		var w webauthnFields
		if ssh.Unmarshal(s.sig.Rest, &w) == nil {
			fields = append(fields, w.Origin, string(w.ClientData), string(w.Extensions))
		}
	}
	return fields
}

// ParseArmor reads one armoured signature the way OpenSSH does
// (sshsig_dearmor in sshsig.c): the BEGIN and END lines, and between them
// base64 in lines of any width, whitespace ignored (b64_pton skips it),
// with or without the final newline. A signature re-wrapped by a mail
// client or an editor is the same signature. Characters outside base64,
// another header and a blob OpenSSH would not read are refused.
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

// wireSig is the SSHSIG blob (PROTOCOL.sshsig §2), and what follows it.
type wireSig struct {
	Magic     [6]byte
	Version   uint32
	PublicKey []byte
	Namespace string
	Reserved  []byte // ignored, as PROTOCOL.sshsig says
	Hash      string
	Signature []byte
	Rest      []byte `ssh:"rest"`
}

// parseBlob reads a blob as sshsig_wrap_verify does, refusing what it
// refuses, each with its cause.
func parseBlob(blob []byte) (*Signature, error) {
	bad := func(why string) (*Signature, error) { return nil, fmt.Errorf("%w : %s", ErrBadArmor, why) }
	if len(blob) > maxSigBlob {
		return bad("trop long")
	}
	var w wireSig
	switch err := ssh.Unmarshal(blob, &w); {
	case !bytes.HasPrefix(blob, []byte("SSHSIG")):
		return bad("ce n'est pas une signature SSHSIG")
	case err != nil:
		return bad("champs de la signature tronqués ou mal formés")
	case w.Version > 1:
		return bad(fmt.Sprintf("version %d de SSHSIG, plus récente que la version 1 qu'OpenSSH et pret lisent", w.Version))
	case len(w.Rest) > 0:
		return bad("des octets suivent la signature") // sshsig.c: "Signature contains trailing data"
	case w.Hash != "sha256" && w.Hash != "sha512":
		return bad("algorithme de hachage autre que sha256 ou sha512")
	}
	pub, err := ssh.ParsePublicKey(w.PublicKey)
	if err != nil {
		return bad("clé publique illisible")
	}
	sig, err := parseSig(pub, w.Signature)
	if err != nil {
		return nil, err
	}
	return &Signature{reserved: w.Reserved, version: w.Version, pub: pub, namespace: w.Namespace, hash: w.Hash, sig: sig, blob: bytes.Clone(blob)}, nil
}

// parseSig reads the signature field as OpenSSH's verify function for
// the key's type reads it: a signature of that type, its fields, then
// nothing ("unexpected bytes remain after decoding").
func parseSig(pub ssh.PublicKey, field []byte) (*ssh.Signature, error) {
	bad := func(why string) (*ssh.Signature, error) { return nil, fmt.Errorf("%w : %s", ErrBadArmor, why) }
	var sig ssh.Signature
	if err := ssh.Unmarshal(field, &sig); err != nil {
		return bad("champ de signature mal formé")
	}
	plain := pub
	if c, ok := pub.(*ssh.Certificate); ok {
		plain = c.Key
	}
	switch t := plain.Type(); {
	case t == ssh.KeyAlgoRSA && sig.Format == ssh.KeyAlgoRSA:
		return bad("signature RSA SHA-1 (ssh-rsa), refusée par OpenSSH : signez avec rsa-sha2-512")
	case t == ssh.KeyAlgoRSA && (sig.Format == ssh.KeyAlgoRSASHA256 || sig.Format == ssh.KeyAlgoRSASHA512),
		t == skECDSA && sig.Format == webauthnSK,
		t == sig.Format:
	default:
		return bad("le type de la signature n'est pas celui de sa clé")
	}
	// What follows the signature bytes, by type (PROTOCOL.u2f for
	// security keys): every byte read, none left.
	trailing := "des octets restent après la signature"
	switch sig.Format {
	case skEd25519, skECDSA: // flags, counter
		switch {
		case len(sig.Rest) < 5:
			return bad("champs de la clé de sécurité tronqués")
		case len(sig.Rest) > 5:
			return bad(trailing)
		}
	case webauthnSK:
		var f webauthnFields
		switch err := ssh.Unmarshal(sig.Rest, &f); {
		case err != nil:
			return bad("champs de la clé de sécurité tronqués")
		case len(f.Rest) > 0:
			return bad(trailing)
		}
	default:
		if len(sig.Rest) > 0 {
			return bad(trailing)
		}
	}
	// The inner ECDSA value (r, s) is read whole too.
	if strings.Contains(sig.Format, "ecdsa") {
		var rs struct {
			R, S *big.Int
			Rest []byte `ssh:"rest"`
		}
		switch err := ssh.Unmarshal(sig.Blob, &rs); {
		case err != nil:
			return bad("champ de signature mal formé")
		case len(rs.Rest) > 0:
			return bad(trailing)
		}
	}
	return &sig, nil
}

// webauthnFields follow a webauthn signature's bytes (PROTOCOL.u2f).
type webauthnFields struct {
	Flags      byte
	Counter    uint32
	Origin     string
	ClientData []byte
	Extensions []byte
	Rest       []byte `ssh:"rest"`
}

// verifyWebAuthn checks a signature made through a browser's WebAuthn,
// which x/crypto/ssh does not read, as ssh-ecdsa-sk.c does: the browser
// signed its clientData, which must begin with the type, the signed data
// as challenge and the origin, in that order (it is compared as bytes,
// not parsed as JSON); the key signed the application's hash, the flags,
// the counter, the extensions and the clientData's hash.
func (s *Signature) verifyWebAuthn(msg []byte) error {
	var f webauthnFields
	if err := ssh.Unmarshal(s.sig.Rest, &f); err != nil {
		return err
	}
	var key struct {
		Type, Curve string
		Q           []byte
		App         string
	}
	if err := ssh.Unmarshal(s.Key().Marshal(), &key); err != nil || key.Type != skECDSA {
		return errors.New("webauthn: not an sk-ecdsa key")
	}
	const attested, hasExtensions = 0x40, 0x80
	if strings.Contains(f.Origin, `"`) || f.Flags&attested != 0 || (f.Flags&hasExtensions != 0) != (len(f.Extensions) > 0) {
		return errors.New("webauthn: bad flags or origin")
	}
	hf := sshsig.HashAlgorithm(s.hash).Hash()
	hf.Write(msg)
	data := append([]byte("SSHSIG"), ssh.Marshal(struct {
		Namespace, Reserved, Hash string
		Digest                    []byte
	}{SigNamespace, "", s.hash, hf.Sum(nil)})...)
	prefix := `{"type":"webauthn.get","challenge":"` + base64.RawURLEncoding.EncodeToString(data) + `","origin":"` + f.Origin + `"`
	if !bytes.HasPrefix(f.ClientData, []byte(prefix)) {
		return errors.New("webauthn: clientData does not hold the signed data")
	}
	// An sk-ecdsa key (checked above): x/crypto/ssh read and checked its point.
	ec := s.Key().(ssh.CryptoPublicKey).CryptoPublicKey().(*ecdsa.PublicKey)
	var rs struct{ R, S *big.Int }
	if err := ssh.Unmarshal(s.sig.Blob, &rs); err != nil {
		return err
	}
	app, client := sha256.Sum256([]byte(key.App)), sha256.Sum256(f.ClientData)
	signed := append(app[:], f.Flags, byte(f.Counter>>24), byte(f.Counter>>16), byte(f.Counter>>8), byte(f.Counter))
	signed = append(append(signed, f.Extensions...), client[:]...)
	digest := sha256.Sum256(signed)
	if !ecdsa.Verify(ec, digest[:], rs.R, rs.S) {
		return errors.New("webauthn: signature did not verify")
	}
	return nil
}

// ed25519Order is L, the order of ed25519's base point, little-endian as
// S is written.
var ed25519Order = func() *big.Int {
	l, _ := new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)
	return l
}()

// nonCanonical reports an ed25519 signature (of a plain or security key)
// whose S is L or more: OpenSSH's ed25519 only checks S's top three bits,
// Go's wants S < L.
func nonCanonical(sig *ssh.Signature) bool {
	if sig.Format != ssh.KeyAlgoED25519 && sig.Format != skEd25519 || len(sig.Blob) != 64 {
		return false
	}
	s := slices.Clone(sig.Blob[32:])
	slices.Reverse(s)
	return new(big.Int).SetBytes(s).Cmp(ed25519Order) >= 0
}

// Sign signs msg for SigNamespace with sha512, as
// `ssh-keygen -Y sign -n pret-acces` does.
func Sign(random io.Reader, signer ssh.Signer, msg []byte) (*Signature, error) {
	return sign(random, signer, msg, sshsig.HashSHA512)
}

// sign is Sign with another hash: the tests make sha256 signatures for
// ssh-keygen to check.
func sign(random io.Reader, signer ssh.Signer, msg []byte, h sshsig.HashAlgorithm) (*Signature, error) {
	sig, err := sshsig.SignWithRand(bytes.NewReader(msg), random, signer, h, SigNamespace)
	if err != nil {
		return nil, fmt.Errorf("signature : %w", err)
	}
	return parseBlob(sig.Marshal())
}
