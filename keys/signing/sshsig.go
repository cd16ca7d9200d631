// Package signing makes and checks an acces.md's SSHSIG signature as
// `ssh-keygen -Y check-novalidate` does, but for signature.md's exceptions.
// Blobs are parsed here: sshsig.ParseSignature differs from OpenSSH.
package signing

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
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

// SigNamespace binds a signature to one use (not, say, git commits).
const SigNamespace = "pret-acces"

const (
	armorBegin = "-----BEGIN SSH SIGNATURE-----"
	armorEnd   = "-----END SSH SIGNATURE-----"
	armorWidth = 70 // ssh-keygen's; any width is read
	// maxSigBlob bounds a blob: ed25519 makes 147 bytes, RSA-8192 about 2 KiB.
	maxSigBlob = 16 << 10
)

var (
	ErrBadArmor    = errors.New("bloc de signature illisible")
	ErrNamespace   = errors.New("signature faite pour un autre usage (espace de noms différent de pret-acces)")
	ErrSigMismatch = errors.New("la signature ne correspond pas au contenu signé")
	// Unlike check-novalidate, pret (like sshd) wants user presence.
	ErrNoUserPresence = errors.New("signature d'une clé de sécurité faite sans la toucher (présence de l'utilisateur absente)")
	// An unreduced ed25519 S: OpenSSH accepts it, Go's ed25519 does not.
	ErrNonCanonical = errors.New("signature ed25519 non canonique (S non réduit) : aucun outil de signature n'écrit cela")
	// Refused by OpenSSH for what they are, whatever bytes they sign: never
	// a file modified after its signature (signature.md).
	ErrKeyLength = errors.New("OpenSSH refuse les clés RSA de moins de 1024 bits")
	// OpenSSH accepts these; Go's reader (x/crypto/ssh) does not.
	ErrCertOrder      = errors.New("certificat dont les options ou les extensions ne sont pas dans l'ordre lexical que PROTOCOL.certkeys exige, ou se répètent : OpenSSH l'accepte, pret non, et ssh-keygen n'écrit jamais cela")
	ErrWebauthnFormat = errors.New("OpenSSH la refuse aussi (« invalid format »)")
	ErrSigLength      = errors.New("mal formée")
)

// NamesItsCause reports a refusal whose text names its cause whole, in
// OpenSSH's words where OpenSSH refuses too: shown as it is, never as a
// file modified after its signature. It holds numbers and fixed words only.
func NamesItsCause(err error) bool {
	return errors.Is(err, ErrKeyLength) || errors.Is(err, ErrWebauthnFormat) || errors.Is(err, ErrCertOrder) || errors.Is(err, ErrSigLength)
}

// minRSABits is OpenSSH's SSH_RSA_MINIMUM_MODULUS_SIZE.
const minRSABits = 1024

// Signature is one SSHSIG signature, parsed as OpenSSH parses it.
type Signature struct {
	w    wireSig
	pub  ssh.PublicKey
	sig  *ssh.Signature
	blob []byte // the wire form, exactly as read or made
}

// PublicKey is the key the signature names; it means nothing until Verify succeeds.
func (s *Signature) PublicKey() ssh.PublicKey { return s.pub }

// Key is PublicKey, or for a certificate the key it certifies (as -lf prints).
func (s *Signature) Key() ssh.PublicKey { return PlainKey(s.pub) }

// PlainKey is pub, or for a certificate the key it certifies: the one
// whose fingerprint `ssh-keygen -lf` prints for either.
func PlainKey(pub ssh.PublicKey) ssh.PublicKey {
	if c, ok := pub.(*ssh.Certificate); ok {
		return c.Key
	}
	return pub
}

// Armor is the signature as ssh-keygen writes it.
func (s *Signature) Armor() []byte {
	enc := base64.StdEncoding.EncodeToString(s.blob)
	b := []byte(armorBegin + "\n")
	for ; len(enc) > armorWidth; enc = enc[armorWidth:] {
		b = append(b, enc[:armorWidth]+"\n"...)
	}
	return append(b, enc+"\n"+armorEnd+"\n"...)
}

// Verify checks the signature over msg for SigNamespace by the key it
// carries, as sshsig_wrap_verify does; the caller still compares the key.
func (s *Signature) Verify(msg []byte) error {
	if s.w.Namespace != SigNamespace {
		return ErrNamespace
	}
	sk := strings.HasPrefix(s.sig.Format, "sk-") || s.sig.Format == webauthnSK
	if sk && s.sig.Rest[0]&flagUserPresent == 0 {
		return ErrNoUserPresence
	}
	ok := s.sig.Format == webauthnSK && s.webauthnOK(msg)
	if s.sig.Format != webauthnSK {
		sig := &sshsig.Signature{Version: s.w.Version, PublicKey: s.pub, Namespace: s.w.Namespace,
			HashAlgorithm: sshsig.HashAlgorithm(s.w.Hash), Signature: s.sig}
		ok = sshsig.Verify(bytes.NewReader(msg), sig, s.pub, sig.HashAlgorithm, SigNamespace) == nil
	}
	switch {
	case ok:
		return nil
	case nonCanonical(s.sig):
		return ErrNonCanonical
	}
	return ErrSigMismatch
}

const (
	skEd25519       = "sk-ssh-ed25519@openssh.com"
	skECDSA         = "sk-ecdsa-sha2-nistp256@openssh.com"
	webauthnSK      = "webauthn-sk-ecdsa-sha2-nistp256@openssh.com"
	flagUserPresent = 0x01
)

func (s *Signature) textFields() []string {
	fields := []string{s.w.Namespace, string(s.w.Reserved)}
	if c, ok := s.pub.(*ssh.Certificate); ok {
		fields = append(append(fields, c.KeyId, string(c.Nonce), string(c.Reserved)), c.ValidPrincipals...)
		for _, m := range []map[string]string{c.CriticalOptions, c.Extensions} {
			for k, v := range m {
				fields = append(fields, k, v)
			}
		}
	}
	// A security key's application ("ssh:") is text its owner chose.
	var ed struct{ Type, Key, App string }
	var ec struct{ Type, Curve, Q, App string }
	if k := s.Key().Marshal(); ssh.Unmarshal(k, &ed) == nil && ed.Type == skEd25519 {
		fields = append(fields, ed.App)
	} else if ssh.Unmarshal(k, &ec) == nil && ec.Type == skECDSA {
		fields = append(fields, ec.App)
	}
	if s.sig.Format == webauthnSK {
		var w webauthnFields
		ssh.Unmarshal(s.sig.Rest, &w) // parseSig read them
		fields = append(fields, w.Origin, string(w.ClientData), string(w.Extensions))
	}
	return fields
}

// ParseArmor reads one armoured signature as sshsig_dearmor does: the
// BEGIN line exactly, base64 in lines of any width, white space ignored,
// up to the first line starting with the END marker; what follows the
// marker is not read.
func ParseArmor(b []byte) (*Signature, error) {
	if len(b) > 2*maxSigBlob {
		return nil, bad("trop long")
	}
	body, begins := strings.CutPrefix(string(b), armorBegin+"\n")
	body, _, ends := strings.Cut("\n"+body, "\n"+armorEnd) // at a line's start
	if !begins || !ends {
		return nil, bad("lignes BEGIN/END SSH SIGNATURE absentes ou altérées")
	}
	enc := strings.Map(func(r rune) rune {
		if strings.ContainsRune(" \t\n\r\v\f", r) { // C isspace
			return -1
		}
		return r
	}, body)
	blob, err := base64.StdEncoding.Strict().DecodeString(enc)
	if err != nil || len(blob) == 0 {
		return nil, bad("base64 invalide")
	}
	return parseBlob(blob)
}

// wireSig is the SSHSIG blob (PROTOCOL.sshsig §2).
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

func bad(why string) error { return fmt.Errorf("%w : %s", ErrBadArmor, why) }

// parseBlob reads a blob as sshsig_wrap_verify does, naming each refusal.
func parseBlob(blob []byte) (*Signature, error) {
	if len(blob) > maxSigBlob {
		return nil, bad("trop long")
	}
	blob = bytes.Clone(blob)
	var w wireSig
	switch err := ssh.Unmarshal(blob, &w); {
	case !bytes.HasPrefix(blob, []byte("SSHSIG")):
		return nil, bad("ce n'est pas une signature SSHSIG")
	case err != nil:
		return nil, bad("champs de la signature tronqués ou mal formés")
	case w.Version > 1:
		return nil, bad(fmt.Sprintf("version %d de SSHSIG, plus récente que la version 1 qu'OpenSSH et pret lisent",
			w.Version))
	case len(w.Rest) > 0:
		return nil, bad("des octets suivent la signature") // sshsig.c: "Signature contains trailing data"
	case w.Hash != "sha256" && w.Hash != "sha512":
		return nil, bad("algorithme de hachage autre que sha256 ou sha512")
	}
	pub, err := ssh.ParsePublicKey(w.PublicKey)
	if err != nil && strings.Contains(err.Error(), "not in lexical order") { // x/crypto/ssh's parseTuples
		return nil, ErrCertOrder
	} else if err != nil {
		return nil, bad("clé publique illisible")
	}
	if err := keyLength(pub); err != nil {
		return nil, err
	}
	if c, ok := pub.(*ssh.Certificate); ok && !certified(c) {
		return nil, bad("certificat refusé par OpenSSH : type inconnu, nom avec un octet nul, ou signature par l'autorité fausse")
	}
	sig, err := parseSig(pub, w.Signature)
	if err != nil {
		return nil, err
	}
	return &Signature{w: w, pub: pub, sig: sig, blob: blob}, nil
}

// keyLength refuses an RSA key, or a certificate's key or authority, under
// 1024 bits, as OpenSSH does on reading it.
func keyLength(pub ssh.PublicKey) error {
	short := func(k ssh.PublicKey) int {
		if ck, ok := k.(ssh.CryptoPublicKey); ok {
			if r, ok := ck.CryptoPublicKey().(*rsa.PublicKey); ok && r.N.BitLen() < minRSABits {
				return r.N.BitLen()
			}
		}
		return 0
	}
	c, cert := pub.(*ssh.Certificate)
	switch {
	case cert && short(c.SignatureKey) > 0:
		return fmt.Errorf("certificat signé par une clé RSA de %d bits : %w (« invalid certificate signing key »)", short(c.SignatureKey), ErrKeyLength)
	case short(PlainKey(pub)) > 0:
		return fmt.Errorf("signature par une clé RSA de %d bits : %w (« Invalid key length »)", short(PlainKey(pub)), ErrKeyLength)
	}
	return nil
}

// certified checks a certificate's type, names and signature by its authority, as OpenSSH's
// cert_parse does on reading it (x/crypto/ssh leaves it to CertChecker, with dates and principals).
func certified(c *ssh.Certificate) bool {
	if c.CertType != ssh.UserCert && c.CertType != ssh.HostCert || strings.ContainsRune(c.KeyId+strings.Join(c.ValidPrincipals, ""), 0) {
		return false
	}
	unsigned := *c
	unsigned.Signature = nil
	b := unsigned.Marshal() // ends with the empty signature's length: not signed
	return c.SignatureKey.Verify(b[:len(b)-4], c.Signature) == nil
}

// parseSig reads the signature field as OpenSSH does: the key's type, its fields, nothing more.
func parseSig(pub ssh.PublicKey, field []byte) (*ssh.Signature, error) {
	var sig ssh.Signature
	if err := ssh.Unmarshal(field, &sig); err != nil {
		return nil, bad("champ de signature mal formé")
	}
	switch t := PlainKey(pub).Type(); {
	case t == ssh.KeyAlgoRSA && sig.Format == ssh.KeyAlgoRSA:
		return nil, bad("signature RSA SHA-1 (ssh-rsa), refusée par OpenSSH : signez avec rsa-sha2-512")
	case t == ssh.KeyAlgoRSA && (sig.Format == ssh.KeyAlgoRSASHA256 || sig.Format == ssh.KeyAlgoRSASHA512),
		t == skECDSA && sig.Format == webauthnSK,
		t == sig.Format:
	default:
		return nil, bad("le type de la signature n'est pas celui de sa clé")
	}
	if err := sigLength(pub, &sig); err != nil {
		return nil, err
	}
	// What follows the signature (PROTOCOL.u2f) and an ECDSA (r, s) are read whole.
	var w webauthnFields
	var rs struct {
		R, S *big.Int
		Rest []byte `ssh:"rest"`
	}
	sk, webauthn := sig.Format == skEd25519 || sig.Format == skECDSA, sig.Format == webauthnSK
	switch {
	case sk && len(sig.Rest) < 5, webauthn && ssh.Unmarshal(sig.Rest, &w) != nil:
		return nil, bad("champs de la clé de sécurité tronqués")
	case sk && len(sig.Rest) > 5, len(w.Rest) > 0, !sk && !webauthn && len(sig.Rest) > 0:
		return nil, bad("des octets restent après la signature")
	case strings.Contains(sig.Format, "ecdsa") && ssh.Unmarshal(sig.Blob, &rs) != nil:
		return nil, bad("champ de signature mal formé")
	case len(rs.Rest) > 0:
		return nil, bad("des octets restent après la signature")
	case webauthn:
		if why := webauthnMalformed(w); why != "" {
			return nil, fmt.Errorf("signature webauthn mal formée (%s) : %w", why, ErrWebauthnFormat)
		}
	}
	return &sig, nil
}

// sigLength refuses an ed25519 signature that is not 64 bytes and an RSA
// one longer than its key: malformed whatever they sign, never a file
// modified. OpenSSH says "invalid format" past 64 bytes and "key bits do
// not match" for RSA; under 64 bytes it says "incorrect signature", but
// no signer makes one. A shorter RSA signature is padded, as OpenSSH does.
func sigLength(pub ssh.PublicKey, sig *ssh.Signature) error {
	n := len(sig.Blob)
	switch sig.Format {
	case ssh.KeyAlgoED25519, skEd25519:
		if n > ed25519.SignatureSize {
			return fmt.Errorf("signature ed25519 %w : %d octets au lieu de 64 (OpenSSH la refuse aussi : « invalid format »)", ErrSigLength, n)
		} else if n < ed25519.SignatureSize {
			return fmt.Errorf("signature ed25519 %w : %d octets au lieu de 64", ErrSigLength, n)
		}
	case ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSASHA512:
		// parseSig let these formats through for an RSA key only, which x/crypto/ssh read.
		if r := PlainKey(pub).(ssh.CryptoPublicKey).CryptoPublicKey().(*rsa.PublicKey); n > r.Size() {
			return fmt.Errorf("signature RSA %w : %d octets pour une clé de %d (OpenSSH la refuse aussi : « key bits do not match »)", ErrSigLength, n, r.Size())
		}
	}
	return nil
}

// webauthnMalformed names what makes ssh-ecdsa-sk.c refuse a webauthn
// signature whatever it signs: its flags, its origin, a clientData that
// is not an authentication's for that origin. Only the challenge, the
// message's hash, is left to Verify: it alone says the file changed.
func webauthnMalformed(w webauthnFields) string {
	const attested, hasExtensions = 0x40, 0x80
	const get = `{"type":"webauthn.get","challenge":"`
	client := string(w.ClientData)
	rest, isGet := strings.CutPrefix(client, get)
	_, afterChallenge, _ := strings.Cut(rest, `"`)
	switch {
	case strings.Contains(w.Origin, `"`):
		return "son origine contient un guillemet"
	case w.Flags&attested != 0:
		return "drapeau des données attestées levé"
	case w.Flags&hasExtensions == 0 && len(w.Extensions) > 0:
		return "des extensions sans leur drapeau"
	case w.Flags&hasExtensions != 0 && len(w.Extensions) == 0:
		return "le drapeau des extensions sans extensions"
	case strings.HasPrefix(client, `{"type":"webauthn.create"`):
		return "clientData de type webauthn.create : l'enregistrement d'une clé, pas une signature"
	case !isGet:
		return `clientData ne commence pas par {"type":"webauthn.get","challenge":"`
	case !strings.HasPrefix(afterChallenge, `,"origin":"`+w.Origin+`"`):
		return "l'origine de clientData n'est pas celle de la signature"
	}
	return ""
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

// webauthnOK checks a WebAuthn signature (x/crypto/ssh does not) as ssh-ecdsa-sk.c
// does, clientData's prefix compared as bytes; parseSig read its fields and
// refused the shapes webauthnMalformed names.
func (s *Signature) webauthnOK(msg []byte) bool {
	var f webauthnFields
	var rs struct{ R, S *big.Int }
	var key struct {
		Type, Curve string
		Q           []byte
		App         string
	}
	ssh.Unmarshal(s.sig.Rest, &f)
	ssh.Unmarshal(s.sig.Blob, &rs)
	ssh.Unmarshal(s.Key().Marshal(), &key)
	hf := sshsig.HashAlgorithm(s.w.Hash).Hash()
	hf.Write(msg)
	data := append([]byte("SSHSIG"), ssh.Marshal(struct {
		Namespace, Reserved, Hash string
		Digest                    []byte
	}{SigNamespace, "", s.w.Hash, hf.Sum(nil)})...)
	prefix := `{"type":"webauthn.get","challenge":"` + base64.RawURLEncoding.EncodeToString(data) + `","origin":"` + f.Origin + `"`
	// x/crypto/ssh read and checked the key's point.
	ec := s.Key().(ssh.CryptoPublicKey).CryptoPublicKey().(*ecdsa.PublicKey)
	app, client := sha256.Sum256([]byte(key.App)), sha256.Sum256(f.ClientData)
	signed := append(app[:], f.Flags, byte(f.Counter>>24), byte(f.Counter>>16), byte(f.Counter>>8), byte(f.Counter))
	signed = append(append(signed, f.Extensions...), client[:]...)
	digest := sha256.Sum256(signed)
	return bytes.HasPrefix(f.ClientData, []byte(prefix)) && ecdsa.Verify(ec, digest[:], rs.R, rs.S)
}

// ed25519Order is L, the base point's order (parsed when needed, not at start-up).
func ed25519Order() *big.Int {
	l, _ := new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)
	return l
}

// nonCanonical reports an ed25519 S >= L, the base point's order.
func nonCanonical(sig *ssh.Signature) bool {
	if sig.Format != ssh.KeyAlgoED25519 && sig.Format != skEd25519 || len(sig.Blob) != 64 {
		return false
	}
	s := slices.Clone(sig.Blob[32:])
	slices.Reverse(s)
	return new(big.Int).SetBytes(s).Cmp(ed25519Order()) >= 0
}

// Sign signs msg as `ssh-keygen -Y sign -n pret-acces` does.
func Sign(random io.Reader, signer ssh.Signer, msg []byte) (*Signature, error) {
	return sign(random, signer, msg, sshsig.HashSHA512)
}

// sign takes a hash: the tests make sha256 signatures too.
func sign(random io.Reader, signer ssh.Signer, msg []byte, h sshsig.HashAlgorithm) (*Signature, error) {
	sig, err := sshsig.SignWithRand(bytes.NewReader(msg), random, signer, h, SigNamespace)
	if err != nil {
		return nil, fmt.Errorf("signature : %w", err)
	}
	return parseBlob(sig.Marshal())
}
