// Package keytest makes private keys as learners paste them, for the
// tests of every reader that must never quote one: real ed25519, RSA and
// ECDSA keys in OpenSSH, PEM, PKCS#8, legacy encrypted and PuTTY forms,
// and the mutations mail and editors put them through.
package keytest

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"golang.org/x/crypto/ssh"
)

// Form is one way a private key is written down: a marker pair and
// a base64 body, or a PuTTY file.
type Form struct {
	Name   string
	begin  string // "-----BEGIN RSA PRIVATE KEY-----"; "" for PuTTY
	end    string
	header []string // PEM headers (legacy encryption) or PuTTY lines before the body
	body   []byte
	// PuTTY files: the body is the public blob, then privLines and mac.
	putty bool
	priv  []byte
	// headerless reports whether the body alone says it is a key (magic
	// or DER shape): only then may both marker lines be dropped.
	headerless bool
}

var (
	formsOnce sync.Once
	forms     []Form
)

// Forms makes real keys once: ed25519, RSA 2048 and ECDSA P-256 in
// OpenSSH (clear and encrypted), PKCS#1, SEC1, PKCS#8, encrypted PKCS#8,
// legacy encrypted PEM, DSA, and PuTTY files.
func Forms(t testing.TB) []Form {
	formsOnce.Do(func() {
		_, edKey, err := ed25519.GenerateKey(rand.Reader)
		must(t, err)
		rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
		must(t, err)
		ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		must(t, err)
		pemForm := func(name, typ string, der []byte) Form {
			return Form{Name: name, begin: "-----BEGIN " + typ + "-----", end: "-----END " + typ + "-----", body: der, headerless: true}
		}
		for _, k := range []struct {
			name string
			key  any
		}{{"ed25519", edKey}, {"rsa", rsaKey}, {"ecdsa", ecKey}} {
			b, err := ssh.MarshalPrivateKey(k.key, "kim@portable")
			must(t, err)
			forms = append(forms, pemForm(k.name+"/openssh", "OPENSSH PRIVATE KEY", b.Bytes))
			p8, err := x509.MarshalPKCS8PrivateKey(k.key)
			must(t, err)
			forms = append(forms, pemForm(k.name+"/pkcs8", "PRIVATE KEY", p8))
		}
		enc, err := ssh.MarshalPrivateKeyWithPassphrase(edKey, "kim", []byte("une passphrase longue"))
		must(t, err)
		forms = append(forms, pemForm("ed25519/openssh-chiffree", "OPENSSH PRIVATE KEY", enc.Bytes))
		forms = append(forms, pemForm("rsa/pkcs1", "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey)))
		sec1, err := x509.MarshalECPrivateKey(ecKey)
		must(t, err)
		forms = append(forms, pemForm("ecdsa/sec1", "EC PRIVATE KEY", sec1))

		// Encrypted PKCS#8: PBES2 AlgorithmIdentifier, then the ciphertext.
		type algo struct {
			OID    asn1.ObjectIdentifier
			Params asn1.RawValue
		}
		params, _ := asn1.Marshal([]asn1.ObjectIdentifier{{1, 2, 840, 113549, 1, 5, 12}, {2, 16, 840, 1, 101, 3, 4, 1, 42}})
		encP8, err := asn1.Marshal(struct {
			Algo algo
			Data []byte
		}{algo{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 13}, asn1.RawValue{FullBytes: params}}, randomBytes(1200)})
		must(t, err)
		forms = append(forms, pemForm("pkcs8-chiffree", "ENCRYPTED PRIVATE KEY", encP8))

		// DSA: generating parameters is slow; the shape is what matters.
		n := func() *big.Int { return new(big.Int).SetBytes(randomBytes(128)) }
		dsaDER, err := asn1.Marshal(struct {
			Version       int
			P, Q, G, Y, X *big.Int
		}{0, n(), n(), n(), n(), n()})
		must(t, err)
		forms = append(forms, pemForm("dsa", "DSA PRIVATE KEY", dsaDER))

		legacy, err := x509.EncryptPEMBlock(rand.Reader, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey), []byte("secret"), x509.PEMCipherAES256) //nolint:staticcheck // making what learners paste
		must(t, err)
		lf := pemForm("rsa/pem-chiffree", "RSA PRIVATE KEY", legacy.Bytes)
		lf.headerless = false
		lf.header = []string{"Proc-Type: " + legacy.Headers["Proc-Type"], "DEK-Info: " + legacy.Headers["DEK-Info"], ""}
		forms = append(forms, lf)

		sshPub, err := ssh.NewPublicKey(edKey.Public())
		must(t, err)
		for _, v := range []string{"2", "3"} {
			forms = append(forms, Form{Name: "putty-v" + v, putty: true,
				header: []string{"PuTTY-User-Key-File-" + v + ": ssh-ed25519", "Encryption: none", "Comment: eddsa-key-20261020"},
				body:   sshPub.Marshal(), priv: randomBytes(36)})
		}
	})
	if len(forms) == 0 {
		t.Fatal("no key forms")
	}
	return forms
}

func must(t testing.TB, err error) {
	if err != nil {
		t.Fatal(err)
	}
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

// Mutation is what happens to a pasted key on its way into acces.md.
type Mutation struct {
	width                 int    // rewrap the base64 at this width; 0: on one line
	markerCase            string // "", "lower", "mixed"
	space                 string // replaces the spaces of the markers
	splitBegin, splitEnd  bool   // marker over two lines
	dropBegin, dropEnd    bool
	indent, quote, blanks bool
	bullet, table         bool // "- " before each line; "| line |"
	respace               bool // spaces or NBSP inside body lines
	crlf                  bool
}

func (m Mutation) String() string {
	type plain Mutation
	return fmt.Sprintf("%+v", plain(m))
}

func (m Mutation) eol() string {
	if m.crlf {
		return "\r\n"
	}
	return "\n"
}

func RandomMutation(rng *mrand.Rand) Mutation {
	widths := []int{1, 3, 4, 16, 63, 64, 70, 76, 200, 0}
	spaces := []string{" ", "\u00a0", "\t", "  ", "\u202f", " \u00a0"}
	cases := []string{"", "lower", "mixed"}
	return Mutation{
		width: widths[rng.IntN(len(widths))], markerCase: cases[rng.IntN(3)], space: spaces[rng.IntN(len(spaces))],
		splitBegin: rng.IntN(4) == 0, splitEnd: rng.IntN(4) == 0,
		dropBegin: rng.IntN(3) == 0, dropEnd: rng.IntN(3) == 0,
		indent: rng.IntN(4) == 0, quote: rng.IntN(4) == 0, blanks: rng.IntN(3) == 0, crlf: rng.IntN(3) == 0,
		bullet: rng.IntN(6) == 0, table: rng.IntN(8) == 0, respace: rng.IntN(5) == 0,
	}
}

func wrap(s string, w int) []string {
	var out []string
	for w > 0 && len(s) > w {
		out, s = append(out, s[:w]), s[w:]
	}
	return append(out, s)
}

// marker writes a BEGIN or END line in the mutation's case and spaces,
// over two lines (cut between words, as an editor wraps) when split.
func (m Mutation) marker(s string, split bool, rng *mrand.Rand) []string {
	switch m.markerCase {
	case "lower":
		s = strings.ToLower(s)
	case "mixed":
		b := []byte(s)
		for i := range b {
			if rng.IntN(2) == 0 {
				b[i] = strings.ToLower(string(b[i]))[0]
			}
		}
		s = string(b)
	}
	s = strings.ReplaceAll(s, " ", m.space)
	var cuts []int
	for i := 1; split && i < len(s)-1; i++ {
		if s[i] == ' ' || s[i] == '\t' {
			cuts = append(cuts, i)
		}
	}
	if len(cuts) == 0 {
		return []string{s}
	}
	c := cuts[rng.IntN(len(cuts))]
	return []string{s[:c], strings.TrimLeft(s[c:], " \t")}
}

// render writes the key in form f with Mutation m; it returns the lines.
func (m Mutation) Render(f Form, rng *mrand.Rand) []string {
	var block []string
	b64 := base64.StdEncoding.EncodeToString
	if f.putty {
		head := f.header
		if m.dropBegin {
			head = head[1:]
		}
		block = append(block, head...)
		pub := wrap(b64(f.body), 64)
		block = append(block, fmt.Sprintf("Public-Lines: %d", len(pub)))
		block = append(block, pub...)
		priv := wrap(b64(f.priv), 64)
		block = append(block, fmt.Sprintf("Private-Lines: %d", len(priv)))
		block = append(block, priv...)
		if !m.dropEnd {
			block = append(block, "Private-MAC: "+fmt.Sprintf("%x", randomBytes(32)))
		}
	} else {
		if !m.dropBegin || !f.headerless && len(f.header) == 0 {
			block = append(block, m.marker(f.begin, m.splitBegin, rng)...)
		}
		block = append(block, f.header...)
		body := wrap(b64(f.body), m.width)
		if m.respace && (!m.dropBegin || !m.dropEnd || !f.headerless) {
			// A body re-spaced by an editor: only a marker still says
			// where the key is.
			for i, l := range body {
				if len(l) >= 16 && rng.IntN(2) == 0 {
					at := 8 + rng.IntN(len(l)-8)
					body[i] = l[:at] + []string{" ", "\u00a0", "\t"}[rng.IntN(3)] + l[at:]
				}
			}
		}
		block = append(block, body...)
		if !m.dropEnd || !f.headerless && len(f.header) == 0 {
			block = append(block, m.marker(f.end, m.splitEnd, rng)...)
		}
	}
	if m.blanks {
		for n := 1 + rng.IntN(3); n > 0 && len(block) > 2; n-- {
			at := 1 + rng.IntN(len(block)-1)
			block = slices.Insert(block, at, "")
		}
	}
	for i, l := range block {
		if m.indent && l != "" {
			l = []string{"    ", "\t", "  "}[rng.IntN(3)] + l
		}
		if m.bullet && l != "" {
			l = "- " + l
		}
		if m.table && l != "" {
			l = "| " + l + " |"
		}
		if m.quote {
			l = "> " + l
		}
		block[i] = l
	}
	return block
}

// Honest acces.md lines around the key: none may be reported.
var AccesBefore = [][]string{
	{"# Accès — séance du 5 novembre 2026", "", "Formation : Utiliser ROMEO2025 et ses GPU pour le HPC et l'IA", "",
		"- Date de la demande : 2026-10-20", "- Chemin de la clé publique : `/home/kim/.ssh/id_ed25519_romeo.pub`",
		"- Empreinte et type : `256 SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU kim@portable (ED25519)`", ""},
	{"Bonjour,", "demande faite le 20/10/2026", "clé : ~/.ssh/id_ed25519_romeo.pub",
		"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl kim"},
	{"| élément | valeur |", "|---|---|", "| date | 2 octobre 2026 (vérifié) |", "| empreinte | SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU |"},
}

var AccesAfter = [][]string{
	{"", "> Connexion uniquement vers le nœud de login indiqué par les organisateurs."},
	{"Connexion uniquement vers le nœud de login indiqué par les organisateurs.", "", "Merci"},
	{"", "<!-- pret:signature -->", "```", "-----BEGIN SSH SIGNATURE-----",
		"U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgx9uE6k7m6kq3nHq1vMtAjLr2",
		"AAAACnByZXQtYWNjZXMAAAAAAAAABnNoYTUxMgAAAFMAAAALc3NoLWVkMjU1MTkAAABA",
		"-----END SSH SIGNATURE-----", "```"},
}

// Case is a text with a pasted key in it.
type Case struct {
	Form        Form
	Mut         Mutation
	Lines       []string // the text's lines, without breaks
	First, Last int      // the key block, 1-based, inclusive
	Text        string   // the lines joined with "\n" or "\r\n"
}

// Embed puts a key (form f, mutation m) between before and after.
func Embed(f Form, m Mutation, rng *mrand.Rand, before, after []string) Case {
	c := Case{Form: f, Mut: m}
	c.Lines = append(c.Lines, before...)
	if rng.IntN(2) == 0 && len(before) > 0 {
		c.Lines = append(c.Lines, "")
	}
	c.First = len(c.Lines) + 1
	c.Lines = append(c.Lines, m.Render(f, rng)...)
	c.Last = len(c.Lines)
	c.Lines = append(c.Lines, after...)
	c.Text = strings.Join(c.Lines, m.eol()) + m.eol()
	return c
}

// Generate is a random key form with a random mutation inside one of the
// honest acces.md texts.
func Generate(t testing.TB, rng *mrand.Rand) Case {
	fs := Forms(t)
	return Embed(fs[rng.IntN(len(fs))], RandomMutation(rng), rng,
		AccesBefore[rng.IntN(len(AccesBefore))], AccesAfter[rng.IntN(len(AccesAfter))])
}

// Leaked returns the first piece of the key block found in out, or "":
// each word of its lines (split at any white space, NBSP included),
// stripped of quote, list and table marks, of 12 characters or more (a
// shorter piece, "AAAA", can occur in any text by chance).
func (c Case) Leaked(out string) string {
	for _, l := range c.Block() {
		for _, w := range strings.FieldsFunc(l, unicode.IsSpace) {
			if w = strings.Trim(w, "|>`\"'*"); len(w) >= 12 && strings.Contains(out, w) {
				return w
			}
		}
	}
	return ""
}

// Block is the key block's lines.
func (c Case) Block() []string { return c.Lines[c.First-1 : c.Last] }

// PlantIn inserts the key block into base at a random line boundary,
// with the case's line breaks: a key pasted into another kind of file.
func (c Case) PlantIn(base string, rng *mrand.Rand) string {
	lines := strings.Split(strings.TrimSuffix(base, "\n"), "\n")
	at := rng.IntN(len(lines) + 1)
	var out []string
	out = append(out, lines[:at]...)
	out = append(out, c.Block()...)
	out = append(out, lines[at:]...)
	return strings.Join(out, c.Mut.eol()) + c.Mut.eol()
}
