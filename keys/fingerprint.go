package keys

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/crypto/ssh"
)

// Fingerprint is one line of `ssh-keygen -lf`, its comment raw: a terminal's printer escapes it.
type Fingerprint struct {
	Key     ssh.PublicKey // what the hash is of: the certified key for a certificate
	Comment string        // "no comment" when the file has none, as ssh-keygen says
	Type    string        // "ED25519", "ED25519-CERT", "RSA", …
}

func (f Fingerprint) Line() string {
	return fmt.Sprintf("%d %s %s (%s)", Bits(f.Key), ssh.FingerprintSHA256(f.Key), f.Comment, f.Type)
}

// fingerprintOf takes "no comment" when the file has none, as ssh-keygen says.
func fingerprintOf(pub ssh.PublicKey, comment string) Fingerprint {
	key, typ := pub, TypeName(pub)
	switch cert := pub.(type) {
	case *ssh.Certificate: // ssh-keygen hashes the certified key
		key, typ = cert.Key, TypeName(cert.Key)+"-CERT"
	case *legacyKey:
		if cert.plain != nil {
			key, typ = cert.plain, "DSA-CERT"
		}
	}
	return Fingerprint{Key: key, Comment: comment, Type: typ}
}

// ErrNotPublicFile is ssh-keygen's "is not a public key file".
var ErrNotPublicFile = errors.New("aucune clé SSH lisible : aucune ligne de ce fichier n'est une clé publique")

// FingerprintFile reads a key file as `ssh-keygen -lf FILE` does
// (OpenSSH 9, do_fingerprint): a private key (first line) through FILE.pub
// first; else public keys line by line, a leading host name or option list
// being the comment when none follows; "-" is stdin, public keys only.
// Reads are bounded; a link is followed, never to a FIFO or a device.
func FingerprintFile(f Files, path string, stdin io.Reader) ([]Fingerprint, error) {
	var data []byte
	var err error
	if path == "-" {
		if stdin == nil {
			return nil, errors.New("pas d'entrée standard à lire")
		}
		if data, err = io.ReadAll(io.LimitReader(stdin, MaxFileSize+1)); err != nil {
			return nil, fmt.Errorf("lecture de l'entrée standard : %w", err)
		}
		if len(data) > MaxFileSize {
			return nil, ErrTooLarge
		}
	} else if data, err = readFile(f, path, true); err != nil {
		return nil, err
	}
	var out []Fingerprint
	for i, line := range strings.Split(string(data), "\n") {
		cp := strings.TrimLeft(line, " \t")
		if cp == "" || cp[0] == '#' {
			continue
		}
		// A private key is told on the first line only, never on stdin.
		if i == 0 && path != "-" && strings.Contains(cp, "PRIVATE KEY") {
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

func fingerprintLine(cp string) (Fingerprint, bool) {
	comment := "no comment"
	pub, after, ok := readKey(cp)
	if !ok {
		// SSH1 keys are not read; else a leading field may be the comment.
		if !ssh1Key().MatchString(cp) {
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
			comment, cp = cp[:i], cp[i+1:]
		}
		if pub, after, ok = readKey(cp); !ok {
			return Fingerprint{}, false
		}
	}
	after = strings.TrimLeft(after, " \t")
	if after != "" && after[0] != '#' {
		comment = after
	}
	return fingerprintOf(pub, comment), true
}

// ssh1Key is OpenSSH's strtol test for an SSH1 key ("1024 35 …").
var ssh1Key = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[+-]?[0-9]*[1-9][0-9]*[ \t]`) })

// readKey is sshkey_read: "type base64", the blob of that type.
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

// fingerprintPrivate is ssh-keygen's fingerprint_private.
func fingerprintPrivate(f Files, path string, data []byte) ([]Fingerprint, error) {
	var pub ssh.PublicKey
	comment := "no comment"
	if pubData, err := readFile(f, path+".pub", true); err == nil {
		if k, c, ok := firstPublic(pubData); ok {
			pub, comment = k, cmp.Or(c, path+".pub")
		}
	}
	if pub == nil {
		priv, err := ParsePrivate(data)
		if err != nil {
			first, _, _ := bytes.Cut(data, []byte("\n"))
			if bytes.Contains(first, []byte("ENCRYPTED")) {
				return nil, fmt.Errorf("clé PKCS#8 chiffrée : sa partie publique ne se lit pas sans la passphrase, et aucun %s.pub lisible n'est à côté ; placez le .pub à côté", baseName(path))
			}
			return nil, fmt.Errorf("%w : la clé privée est illisible et aucun %s.pub lisible n'est à côté", ErrNotKey, baseName(path))
		}
		if priv.Public == nil {
			return nil, fmt.Errorf("clé %s chiffrée : sa partie publique ne se lit pas sans la passphrase, et aucun %s.pub lisible n'est à côté ; placez le .pub à côté, ou « ssh-keygen -y -f %s » le recrée", priv.LegacyType, baseName(path), path)
		}
		pub = priv.Public
		// Only a clear OpenSSH key has a comment for ssh-keygen.
		if !priv.Encrypted && priv.Format == "openssh" {
			comment = priv.Comment
		}
	}
	return []Fingerprint{fingerprintOf(pub, comment)}, nil
}

// firstPublic is sshkey_try_load_public: the first key line; a private key aborts.
func firstPublic(data []byte) (ssh.PublicKey, string, bool) {
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(line, "-----BEGIN") || line == "SSH PRIVATE KEY FILE" {
			return nil, "", false
		}
		// Blank and # lines are no key either.
		if k, after, ok := readKey(strings.TrimLeft(line, " \t")); ok {
			after, _, _ = strings.Cut(strings.TrimLeft(after, " \t"), "\r")
			return k, after, true
		}
	}
	return nil, "", false
}

func baseName(p string) string { return p[strings.LastIndexAny(p, `/\`)+1:] }

// legacyKey is a DSA key or certificate (plain: its key), which ssh-keygen fingerprints, not x/crypto.
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

// ParsePublicKey is ssh.ParsePublicKey, and DSA keys and certificates.
func ParsePublicKey(blob []byte) (ssh.PublicKey, error) {
	pub, err := ssh.ParsePublicKey(blob)
	var dsa struct {
		Type       string
		P, Q, G, Y []byte
	}
	var cert struct {
		Type       string
		Nonce      []byte
		P, Q, G, Y []byte
		Rest       []byte `ssh:"rest"`
	}
	switch {
	case err == nil:
		return pub, nil
	case ssh.Unmarshal(blob, &dsa) == nil && dsa.Type == "ssh-dss":
		return &legacyKey{typ: dsa.Type, blob: blob, bits: new(big.Int).SetBytes(dsa.P).BitLen()}, nil
	case ssh.Unmarshal(blob, &cert) == nil && cert.Type == "ssh-dss-cert-v01@openssh.com":
		dsa.Type, dsa.P, dsa.Q, dsa.G, dsa.Y = "ssh-dss", cert.P, cert.Q, cert.G, cert.Y
		k, _ := ParsePublicKey(ssh.Marshal(dsa))
		return &legacyKey{typ: cert.Type, blob: blob, plain: k.(*legacyKey)}, nil
	}
	return nil, err
}

// Randomart is OpenSSH's fingerprint_randomart (`ssh-keygen -lv`), byte for byte.
func (f Fingerprint) Randomart() string {
	const sizeX, sizeY, aug = 17, 9, " .o+=*BOX@%&#/^SE" // FLDBASE 8
	last := len(aug) - 1
	var field [sizeX][sizeY]int
	x, y := sizeX/2, sizeY/2
	for _, in := range sha256.Sum256(f.Key.Marshal()) {
		for range 4 { // bit 1: +1, bit 0: -1
			x = min(max(x+int(in&1)*2-1, 0), sizeX-1)
			y = min(max(y+int(in>>1&1)*2-1, 0), sizeY-1)
			if field[x][y] < last-2 {
				field[x][y]++
			}
			in >>= 2
		}
	}
	field[sizeX/2][sizeY/2] = last - 1
	field[x][y] = last

	title := fmt.Sprintf("[%s %d]", f.Type, Bits(f.Key))
	if len(title) > sizeX {
		title = "[" + f.Type + "]"
	}
	if len(title) >= sizeX {
		title = title[:sizeX-1] // snprintf truncation in OpenSSH
	}
	var sb strings.Builder
	border := func(label string) {
		pad := (sizeX - len(label)) / 2
		sb.WriteString("+" + strings.Repeat("-", pad) + label + strings.Repeat("-", sizeX-pad-len(label)) + "+\n")
	}
	border(title)
	for y := range sizeY {
		sb.WriteByte('|')
		for x := range sizeX {
			sb.WriteByte(aug[field[x][y]])
		}
		sb.WriteString("|\n")
	}
	border("[SHA256]")
	return sb.String()
}
