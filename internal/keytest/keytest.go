// Package keytest makes private keys as learners paste them (many forms,
// mangled as mail and editors do), for tests of readers that must not quote one.
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

// Form is one way a private key is written down: PEM (typ) or PuTTY.
type Form struct {
	Name   string
	typ    string   // "RSA PRIVATE KEY"; "" for PuTTY
	header []string // PEM headers (legacy encryption) or PuTTY lines before the body
	body   []byte
	priv   []byte // PuTTY: the private lines after the public blob (body)
	// headerless: the body alone shows a key, so both markers may go.
	headerless bool
}

// Forms makes real keys once, in every form.
func Forms(testing.TB) []Form { return makeForms() }

var makeForms = sync.OnceValue(func() (forms []Form) {
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	add := func(name, typ string, der []byte) {
		forms = append(forms, Form{Name: name, typ: typ, body: der, headerless: true})
	}
	for i, key := range []any{edKey, rsaKey, ecKey} {
		name := []string{"ed25519", "rsa", "ecdsa"}[i]
		b, _ := ssh.MarshalPrivateKey(key, "kim@portable")
		add(name+"/openssh", "OPENSSH PRIVATE KEY", b.Bytes)
		p8, _ := x509.MarshalPKCS8PrivateKey(key)
		add(name+"/pkcs8", "PRIVATE KEY", p8)
	}
	enc, _ := ssh.MarshalPrivateKeyWithPassphrase(edKey, "kim", []byte("une passphrase longue"))
	add("ed25519/openssh-chiffree", "OPENSSH PRIVATE KEY", enc.Bytes)
	add("rsa/pkcs1", "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey))
	sec1, _ := x509.MarshalECPrivateKey(ecKey)
	add("ecdsa/sec1", "EC PRIVATE KEY", sec1)

	// Encrypted PKCS#8: PBES2 AlgorithmIdentifier, then the ciphertext.
	type algo struct {
		OID    asn1.ObjectIdentifier
		Params asn1.RawValue
	}
	params, _ := asn1.Marshal([]asn1.ObjectIdentifier{{1, 2, 840, 113549, 1, 5, 12}, {2, 16, 840, 1, 101, 3, 4, 1, 42}})
	encP8, _ := asn1.Marshal(struct {
		Algo algo
		Data []byte
	}{algo{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 13}, asn1.RawValue{FullBytes: params}}, randomBytes(1200)})
	add("pkcs8-chiffree", "ENCRYPTED PRIVATE KEY", encP8)

	// DSA: generating parameters is slow; the shape is what matters.
	n := func() *big.Int { return new(big.Int).SetBytes(randomBytes(128)) }
	dsaDER, _ := asn1.Marshal(struct {
		Version       int
		P, Q, G, Y, X *big.Int
	}{0, n(), n(), n(), n(), n()})
	add("dsa", "DSA PRIVATE KEY", dsaDER)

	legacy, _ := x509.EncryptPEMBlock(rand.Reader, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey), []byte("secret"), x509.PEMCipherAES256) //nolint:staticcheck // making what learners paste
	forms = append(forms, Form{Name: "rsa/pem-chiffree", typ: "RSA PRIVATE KEY", body: legacy.Bytes,
		header: []string{"Proc-Type: " + legacy.Headers["Proc-Type"], "DEK-Info: " + legacy.Headers["DEK-Info"], ""}})

	sshPub, _ := ssh.NewPublicKey(edKey.Public())
	for _, v := range []string{"2", "3"} {
		forms = append(forms, Form{Name: "putty-v" + v, body: sshPub.Marshal(), priv: randomBytes(36),
			header: []string{"PuTTY-User-Key-File-" + v + ": ssh-ed25519", "Encryption: none", "Comment: eddsa-key-20261020"}})
	}
	return forms
})

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
	bullet, table         bool   // "- " before each line; "| line |"
	respace               bool   // spaces or NBSP inside body lines
	eol                   string // "\n" or "\r\n"
}

func RandomMutation(rng *mrand.Rand) Mutation {
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	one := func(n int) bool { return rng.IntN(n) == 0 }
	return Mutation{
		width:      []int{1, 3, 4, 16, 63, 64, 70, 76, 200, 0}[rng.IntN(10)],
		markerCase: pick("", "lower", "mixed"), space: pick(" ", "\u00a0", "\t", "  ", "\u202f", " \u00a0"),
		splitBegin: one(4), splitEnd: one(4), dropBegin: one(3), dropEnd: one(3),
		indent: one(4), quote: one(4), blanks: one(3), eol: pick("\r\n", "\n", "\n"),
		bullet: one(6), table: one(8), respace: one(5),
	}
}

func wrap(s string, w int) []string {
	var out []string
	for ; w > 0 && len(s) > w; s = s[w:] {
		out = append(out, s[:w])
	}
	return append(out, s)
}

// marker writes a BEGIN or END line mutated, over two lines when split.
func (m Mutation) marker(s string, split bool, rng *mrand.Rand) []string {
	b := []byte(s)
	for i := range b {
		if m.markerCase == "lower" || m.markerCase == "mixed" && rng.IntN(2) == 0 {
			b[i] = strings.ToLower(string(b[i]))[0]
		}
	}
	s = strings.ReplaceAll(string(b), " ", m.space)
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

// render is the block as pasted, and as written before the paste dressed
// each line (indent, list, table, quote).
func (m Mutation) render(f Form, rng *mrand.Rand) (block, plain []string) {
	b64 := base64.StdEncoding.EncodeToString
	if f.typ == "" { // PuTTY
		head := f.header
		if m.dropBegin {
			head = head[1:]
		}
		block = append(block, head...)
		pub, priv := wrap(b64(f.body), 64), wrap(b64(f.priv), 64)
		block = slices.Concat(block, []string{fmt.Sprintf("Public-Lines: %d", len(pub))}, pub,
			[]string{fmt.Sprintf("Private-Lines: %d", len(priv))}, priv)
		if !m.dropEnd {
			block = append(block, fmt.Sprintf("Private-MAC: %x", randomBytes(32)))
		}
	} else {
		if !m.dropBegin || !f.headerless && len(f.header) == 0 {
			block = append(block, m.marker("-----BEGIN "+f.typ+"-----", m.splitBegin, rng)...)
		}
		block = append(block, f.header...)
		body := wrap(b64(f.body), m.width)
		if m.respace && (!m.dropBegin || !m.dropEnd || !f.headerless) {
			// Re-spaced: only a marker still says where the key is.
			for i, l := range body {
				if len(l) >= 16 && rng.IntN(2) == 0 {
					at := 8 + rng.IntN(len(l)-8)
					body[i] = l[:at] + []string{" ", "\u00a0", "\t"}[rng.IntN(3)] + l[at:]
				}
			}
		}
		block = append(block, body...)
		if !m.dropEnd || !f.headerless && len(f.header) == 0 {
			block = append(block, m.marker("-----END "+f.typ+"-----", m.splitEnd, rng)...)
		}
	}
	for n := 1 + rng.IntN(3); m.blanks && n > 0 && len(block) > 2; n-- {
		block = slices.Insert(block, 1+rng.IntN(len(block)-1), "")
	}
	plain = slices.Clone(block)
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
	return block, plain
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
	// Plain is the block before the paste dressed its lines: what the
	// learner copied, line for line.
	Plain []string
}

func Embed(f Form, m Mutation, rng *mrand.Rand, before, after []string) Case {
	c := Case{Form: f, Mut: m, Lines: slices.Clone(before)}
	if rng.IntN(2) == 0 && len(before) > 0 {
		c.Lines = append(c.Lines, "")
	}
	c.First = len(c.Lines) + 1
	block, plain := m.render(f, rng)
	c.Plain = plain
	c.Lines = append(c.Lines, block...)
	c.Last = len(c.Lines)
	c.Lines = append(c.Lines, after...)
	c.Text = strings.Join(c.Lines, m.eol) + m.eol
	return c
}

// Generate is a random key, randomly mutated, in an honest acces.md.
func Generate(t testing.TB, rng *mrand.Rand) Case {
	fs := Forms(t)
	return Embed(fs[rng.IntN(len(fs))], RandomMutation(rng), rng,
		AccesBefore[rng.IntN(len(AccesBefore))], AccesAfter[rng.IntN(len(AccesAfter))])
}

// Leaked is the first word of the key block found in out, or "" (12 characters or more: not by chance).
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

func (c Case) Block() []string { return c.Lines[c.First-1 : c.Last] }

// Opens reports whether the block's first line alone says a key starts
// (a BEGIN marker on one line, a PEM encryption header, PuTTY's first
// line) and no marker of the block is cut over two lines: known from how
// the block was made, not by reading it.
func (c Case) Opens() bool {
	m, f := c.Mut, c.Form
	if f.typ == "" {
		return !m.dropBegin
	}
	begin, end := c.markers()
	if m.splitBegin && begin && m.cuttable() || m.splitEnd && end && m.cuttable() {
		return false
	}
	return begin || len(f.header) > 0
}

// Closes reports whether the block's last line ends the key: an END
// marker on one line, or PuTTY's Private-MAC.
func (c Case) Closes() bool {
	if c.Form.typ == "" {
		return !c.Mut.dropEnd
	}
	_, end := c.markers()
	return end && !(c.Mut.splitEnd && c.Mut.cuttable())
}

// markers: whether Render kept the BEGIN and END lines.
func (c Case) markers() (begin, end bool) {
	kept := !c.Form.headerless && len(c.Form.header) == 0
	return !c.Mut.dropBegin || kept, !c.Mut.dropEnd || kept
}

// cuttable: the markers' spaces hold a place marker may cut them at.
func (m Mutation) cuttable() bool { return strings.ContainsAny(m.space, " \t") }

// KeyText reports whether line i of the block holds something of the key
// (a marker, a header, base64) rather than an empty line of the paste.
func (c Case) KeyText(i int) bool { return c.Plain[i] != "" }

// PlantIn inserts the key block into base at a random line.
func (c Case) PlantIn(base string, rng *mrand.Rand) string {
	lines := strings.Split(strings.TrimSuffix(base, "\n"), "\n")
	at := rng.IntN(len(lines) + 1)
	out := slices.Concat(lines[:at], c.Block(), lines[at:])
	return strings.Join(out, c.Mut.eol) + c.Mut.eol
}
