package keys

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"strings"

	"golang.org/x/crypto/ssh"
)

// Fingerprint is one line of `ssh-keygen -lf`: "256 SHA256:… comment
// (ED25519)". Comment is raw, as read from the file: whoever prints Line
// on a terminal escapes it (checklist.Escape).
type Fingerprint struct {
	Key     ssh.PublicKey // what the hash is of: the certified key for a certificate
	Bits    int
	Hash    string // "SHA256:…"
	Comment string // "no comment" when the file has none, as ssh-keygen says
	Type    string // "ED25519", "ED25519-CERT", "RSA", …
}

// Line is the fingerprint line without its newline.
func (f Fingerprint) Line() string {
	return fmt.Sprintf("%d %s %s (%s)", f.Bits, f.Hash, f.Comment, f.Type)
}

func fingerprintOf(pub ssh.PublicKey, comment string, hasComment bool) Fingerprint {
	key, typ := pub, TypeName(pub)
	switch cert := pub.(type) {
	case *ssh.Certificate:
		// ssh-keygen hashes the certified key, and names the type after
		// it with -CERT.
		key, typ = cert.Key, TypeName(cert.Key)+"-CERT"
	case *legacyKey:
		if cert.plain != nil {
			key, typ = cert.plain, "DSA-CERT"
		}
	}
	if !hasComment {
		comment = "no comment"
	}
	return Fingerprint{Key: key, Bits: Bits(key), Hash: ssh.FingerprintSHA256(key), Comment: comment, Type: typ}
}

// ErrNotPublicFile is what ssh-keygen -lf answers for a file where no line
// is a public key ("is not a public key file").
var ErrNotPublicFile = errors.New("aucune clé SSH lisible : aucune ligne de ce fichier n'est une clé publique")

// FingerprintFile reads a key file the way `ssh-keygen -lf FILE` does
// (OpenSSH 9, do_fingerprint) and returns its lines:
//   - a file whose first line holds "PRIVATE KEY" is a private key: the
//     public key and comment come from FILE.pub when it holds a key, even
//     one that does not match (its comment, or the name FILE.pub when it
//     has none); else from the private key itself, with its own comment
//     when it is not encrypted and "no comment" when it is; a legacy
//     encrypted PEM key or an encrypted PKCS#8 key without its .pub has
//     no readable public half: refused, as ssh-keygen does;
//   - any other file is read line by line as public keys, authorized_keys
//     or known_hosts: blank lines and "#" comments skipped, a leading
//     host name or option list allowed (it is the comment when the line
//     has none after the key), certificates fingerprinted by the key they
//     certify;
//   - "-" reads standard input, public keys only, as ssh-keygen does.
//
// Every read is bounded (MaxFileSize) and goes through ReadFileFollow: a
// named file may be a link, never a FIFO or a device.
func FingerprintFile(f Files, path string, stdin io.Reader) ([]Fingerprint, error) {
	var data []byte
	var err error
	if path == "-" {
		if stdin == nil {
			return nil, errors.New("pas d'entrée standard à lire")
		}
		data, err = io.ReadAll(io.LimitReader(stdin, MaxFileSize+1))
		if err != nil {
			return nil, fmt.Errorf("lecture de l'entrée standard : %w", err)
		}
		if len(data) > MaxFileSize {
			return nil, ErrTooLarge
		}
	} else if data, err = ReadFileFollow(f, path); err != nil {
		return nil, err
	}
	return fingerprintData(f, path, data)
}

func fingerprintData(f Files, path string, data []byte) ([]Fingerprint, error) {
	var out []Fingerprint
	for lnum, rest := 1, data; len(rest) > 0; lnum++ {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		cp := strings.TrimLeft(string(line), " \t")
		if cp == "" || cp[0] == '#' {
			continue
		}
		// ssh-keygen takes a file for a private key on its first line
		// only, and never on standard input.
		if lnum == 1 && path != "-" && strings.Contains(cp, "PRIVATE KEY") {
			return fingerprintPrivate(f, path, data)
		}
		if fp, ok := fingerprintLine(cp); ok {
			out = append(out, fp)
		}
	}
	if len(out) == 0 {
		return nil, ErrNotPublicFile
	}
	return out, nil
}

// fingerprintLine reads one line of a public key file: "type base64
// [comment]", or a first field (host names, options) then the key.
func fingerprintLine(cp string) (Fingerprint, bool) {
	comment, hasComment := "", false
	pub, after, ok := readKey(cp)
	if !ok {
		// SSH1 keys ("1024 35 …") are not read; anything else is a
		// leading field, quoted parts included, that may be the comment.
		if !ssh1Key.MatchString(cp) {
			i, quoted := 0, false
			for ; i < len(cp) && (quoted || cp[i] != ' ' && cp[i] != '\t'); i++ {
				if cp[i] == '\\' && i+1 < len(cp) && cp[i+1] == '"' {
					i++
				} else if cp[i] == '"' {
					quoted = !quoted
				}
			}
			if i >= len(cp) {
				return Fingerprint{}, false
			}
			comment, hasComment = cp[:i], true
			cp = cp[i+1:]
		}
		if pub, after, ok = readKey(cp); !ok {
			return Fingerprint{}, false
		}
	}
	after = strings.TrimLeft(after, " \t")
	if after != "" && after[0] != '#' {
		comment, hasComment = after, true
	}
	return fingerprintOf(pub, comment, hasComment), true
}

// ssh1Key is what strtol reads for OpenSSH's SSH1 key test: a number
// other than zero, then a blank ("1024 35 …").
var ssh1Key = regexp.MustCompile(`^[+-]?[0-9]*[1-9][0-9]*[ \t]`)

// readKey is sshkey_read: a key type name, white space, the base64 blob;
// the blob's type must be the name's. after is what follows the blob.
func readKey(cp string) (pub ssh.PublicKey, after string, ok bool) {
	sp := strings.IndexAny(cp, " \t")
	if sp <= 0 {
		return nil, "", false
	}
	name := cp[:sp]
	rest := strings.TrimLeft(cp[sp:], " \t")
	end := strings.IndexAny(rest, " \t")
	if end < 0 {
		end = len(rest)
	}
	// b64_pton ignores white space, a carriage return included.
	blob, err := base64.StdEncoding.DecodeString(strings.TrimRight(rest[:end], "\r\n\v\f"))
	if err != nil || len(blob) == 0 {
		return nil, "", false
	}
	pub, err = ParsePublicKey(blob)
	if err != nil || pub.Type() != name {
		return nil, "", false
	}
	return pub, rest[end:], true
}

// fingerprintPrivate is ssh-keygen's fingerprint_private: the .pub beside
// the file first, then the public half of the private key.
func fingerprintPrivate(f Files, path string, data []byte) ([]Fingerprint, error) {
	var pub ssh.PublicKey
	comment, hasComment := "", false
	if pubData, err := ReadFileFollow(f, path+".pub"); err == nil {
		if k, c, ok := firstPublic(pubData); ok {
			pub, comment, hasComment = k, c, true
			if comment == "" {
				comment = path + ".pub"
			}
		}
	}
	var priv *Private
	if pub == nil || comment == "" {
		p, err := ParsePrivate(data)
		if err != nil {
			first, _, _ := bytes.Cut(data, []byte("\n"))
			if bytes.Contains(first, []byte("ENCRYPTED")) {
				return nil, fmt.Errorf("clé PKCS#8 chiffrée : sa partie publique ne se lit pas sans la passphrase, et aucun %s.pub lisible n'est à côté ; placez le .pub à côté", baseName(path))
			}
			return nil, fmt.Errorf("%w : la clé privée est illisible et aucun %s.pub lisible n'est à côté", ErrNotKey, baseName(path))
		}
		priv = p
	}
	if pub == nil {
		if priv.Public == nil {
			return nil, fmt.Errorf("clé %s chiffrée : sa partie publique ne se lit pas sans la passphrase, et aucun %s.pub lisible n'est à côté ; placez le .pub à côté, ou « ssh-keygen -y -f %s » le recrée", priv.LegacyType, baseName(path), path)
		}
		pub = priv.Public
		// ssh-keygen reads the comment of an OpenSSH key it can open
		// without a passphrase, even an empty one; an encrypted key and a
		// PEM or PKCS#8 key have none: "no comment".
		if !priv.Encrypted && priv.Format == "openssh" {
			comment, hasComment = priv.Comment, true
		}
	}
	return []Fingerprint{fingerprintOf(pub, comment, hasComment)}, nil
}

// firstPublic is sshkey_try_load_public: the first line that is a key;
// lines starting with "#" or empty are skipped, a private key aborts.
func firstPublic(data []byte) (ssh.PublicKey, string, bool) {
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		s := string(line)
		if s == "" || s[0] == '#' {
			continue
		}
		if strings.HasPrefix(s, "-----BEGIN") || s == "SSH PRIVATE KEY FILE" {
			return nil, "", false
		}
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			continue
		}
		if k, after, ok := readKey(s); ok {
			after = strings.TrimLeft(after, " \t")
			if i := strings.IndexAny(after, "\r\n"); i >= 0 {
				after = after[:i]
			}
			return k, after, true
		}
	}
	return nil, "", false
}

func baseName(p string) string { return p[strings.LastIndexAny(p, `/\`)+1:] }

// legacyKey is a DSA key or certificate, which x/crypto/ssh no longer
// parses but ssh-keygen still fingerprints: pret names and hashes it,
// nothing more. plain is a certificate's certified key.
type legacyKey struct {
	typ   string
	blob  []byte
	bits  int
	plain *legacyKey
}

func (k *legacyKey) Type() string    { return k.typ }
func (k *legacyKey) Marshal() []byte { return k.blob }
func (k *legacyKey) Verify([]byte, *ssh.Signature) error {
	return errors.New("les clés DSA ne sont pas prises en charge")
}

// ParsePublicKey is ssh.ParsePublicKey, and DSA keys and certificates
// besides, which only need to be named and fingerprinted.
func ParsePublicKey(blob []byte) (ssh.PublicKey, error) {
	pub, err := ssh.ParsePublicKey(blob)
	if err == nil {
		return pub, nil
	}
	var dsa struct {
		Type       string
		P, Q, G, Y []byte
	}
	if ssh.Unmarshal(blob, &dsa) == nil && dsa.Type == "ssh-dss" {
		return &legacyKey{typ: dsa.Type, blob: blob, bits: new(big.Int).SetBytes(dsa.P).BitLen()}, nil
	}
	var cert struct {
		Type       string
		Nonce      []byte
		P, Q, G, Y []byte
		Rest       []byte `ssh:"rest"`
	}
	if ssh.Unmarshal(blob, &cert) == nil && cert.Type == "ssh-dss-cert-v01@openssh.com" {
		plain := ssh.Marshal(struct {
			Type       string
			P, Q, G, Y []byte
		}{"ssh-dss", cert.P, cert.Q, cert.G, cert.Y})
		k, _ := ParsePublicKey(plain)
		return &legacyKey{typ: cert.Type, blob: blob, plain: k.(*legacyKey)}, nil
	}
	return nil, err
}
