package keys

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

	"golang.org/x/crypto/ssh"
)

// KeyForm is one way a private key is written down: a marker pair and
// a base64 body, or a PuTTY file.
type keyForm struct {
	name   string
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
	forms     []keyForm
)

// keyForms makes real keys once: ed25519, RSA 2048 and ECDSA P-256 in
// OpenSSH (clear and encrypted), PKCS#1, SEC1, PKCS#8, encrypted PKCS#8,
// legacy encrypted PEM, DSA, and PuTTY files.
func keyForms(t testing.TB) []keyForm {
	formsOnce.Do(func() {
		_, edKey, err := ed25519.GenerateKey(rand.Reader)
		must(t, err)
		rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
		must(t, err)
		ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		must(t, err)
		pemForm := func(name, typ string, der []byte, headerless bool) keyForm {
			return keyForm{name: name, begin: "-----BEGIN " + typ + "-----", end: "-----END " + typ + "-----", body: der, headerless: headerless}
		}
		for _, k := range []struct {
			name string
			key  any
		}{{"ed25519", edKey}, {"rsa", rsaKey}, {"ecdsa", ecKey}} {
			b, err := ssh.MarshalPrivateKey(k.key, "kim@portable")
			must(t, err)
			forms = append(forms, pemForm(k.name+"/openssh", "OPENSSH PRIVATE KEY", b.Bytes, true))
			p8, err := x509.MarshalPKCS8PrivateKey(k.key)
			must(t, err)
			forms = append(forms, pemForm(k.name+"/pkcs8", "PRIVATE KEY", p8, true))
		}
		enc, err := ssh.MarshalPrivateKeyWithPassphrase(edKey, "kim", []byte("une passphrase longue"))
		must(t, err)
		forms = append(forms, pemForm("ed25519/openssh-chiffree", "OPENSSH PRIVATE KEY", enc.Bytes, true))
		forms = append(forms, pemForm("rsa/pkcs1", "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey), true))
		sec1, err := x509.MarshalECPrivateKey(ecKey)
		must(t, err)
		forms = append(forms, pemForm("ecdsa/sec1", "EC PRIVATE KEY", sec1, true))

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
		forms = append(forms, pemForm("pkcs8-chiffree", "ENCRYPTED PRIVATE KEY", encP8, true))

		// DSA: generating parameters is slow; the shape is what matters.
		n := func() *big.Int { return new(big.Int).SetBytes(randomBytes(128)) }
		dsaDER, err := asn1.Marshal(struct {
			Version       int
			P, Q, G, Y, X *big.Int
		}{0, n(), n(), n(), n(), n()})
		must(t, err)
		forms = append(forms, pemForm("dsa", "DSA PRIVATE KEY", dsaDER, true))

		legacy, err := x509.EncryptPEMBlock(rand.Reader, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey), []byte("secret"), x509.PEMCipherAES256) //nolint:staticcheck // making what learners paste
		must(t, err)
		lf := pemForm("rsa/pem-chiffree", "RSA PRIVATE KEY", legacy.Bytes, false)
		lf.header = []string{"Proc-Type: " + legacy.Headers["Proc-Type"], "DEK-Info: " + legacy.Headers["DEK-Info"], ""}
		forms = append(forms, lf)

		sshPub, err := ssh.NewPublicKey(edKey.Public())
		must(t, err)
		for _, v := range []string{"2", "3"} {
			forms = append(forms, keyForm{name: "putty-v" + v, putty: true,
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

// mutation is what happens to a pasted key on its way into acces.md.
type mutation struct {
	width                 int    // rewrap the base64 at this width; 0: on one line
	markerCase            string // "", "lower", "mixed"
	space                 string // replaces the spaces of the markers
	splitBegin, splitEnd  bool   // marker over two lines
	dropBegin, dropEnd    bool
	indent, quote, blanks bool
	crlf                  bool
}

func (m mutation) String() string {
	type plain mutation
	return fmt.Sprintf("%+v", plain(m))
}

func randomMutation(rng *mrand.Rand) mutation {
	widths := []int{1, 3, 4, 16, 63, 64, 70, 76, 200, 0}
	spaces := []string{" ", "\u00a0", "\t", "  ", "\u202f", " \u00a0"}
	cases := []string{"", "lower", "mixed"}
	return mutation{
		width: widths[rng.IntN(len(widths))], markerCase: cases[rng.IntN(3)], space: spaces[rng.IntN(len(spaces))],
		splitBegin: rng.IntN(4) == 0, splitEnd: rng.IntN(4) == 0,
		dropBegin: rng.IntN(3) == 0, dropEnd: rng.IntN(3) == 0,
		indent: rng.IntN(4) == 0, quote: rng.IntN(4) == 0, blanks: rng.IntN(3) == 0, crlf: rng.IntN(3) == 0,
	}
}

func wrap(s string, w int) []string {
	if w == 0 || len(s) <= w {
		return []string{s}
	}
	var out []string
	for len(s) > w {
		out = append(out, s[:w])
		s = s[w:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

func (m mutation) marker(s string, rng *mrand.Rand) []string {
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
	return []string{strings.ReplaceAll(s, " ", m.space)}
}

func split(lines []string, rng *mrand.Rand) []string {
	s := lines[0]
	// Break between words, as an editor wrapping a long line does.
	var cuts []int
	for i := 1; i < len(s)-1; i++ {
		if s[i] == ' ' || s[i] == '\t' {
			cuts = append(cuts, i)
		}
	}
	if len(cuts) == 0 {
		return lines
	}
	c := cuts[rng.IntN(len(cuts))]
	return []string{s[:c], strings.TrimLeft(s[c:], " \t")}
}

// render writes the key in form f with mutation m; it returns the lines.
func (m mutation) render(f keyForm, rng *mrand.Rand) []string {
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
			begin := m.marker(f.begin, rng)
			if m.splitBegin {
				begin = split(begin, rng)
			}
			block = append(block, begin...)
		}
		block = append(block, f.header...)
		block = append(block, wrap(b64(f.body), m.width)...)
		if !m.dropEnd || !f.headerless && len(f.header) == 0 {
			end := m.marker(f.end, rng)
			if m.splitEnd {
				end = split(end, rng)
			}
			block = append(block, end...)
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
		if m.quote {
			l = "> " + l
		}
		block[i] = l
	}
	return block
}

// Honest acces.md lines around the key: none may be reported.
var accesBefore = [][]string{
	{"# Accès — séance du 5 novembre 2026", "", "Formation : Utiliser ROMEO2025 et ses GPU pour le HPC et l'IA", "",
		"- Date de la demande : 2026-10-20", "- Chemin de la clé publique : `/home/kim/.ssh/id_ed25519_romeo.pub`",
		"- Empreinte et type : `256 SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU kim@portable (ED25519)`", ""},
	{"Bonjour,", "demande faite le 20/10/2026", "clé : ~/.ssh/id_ed25519_romeo.pub",
		"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl kim"},
	{"| élément | valeur |", "|---|---|", "| date | 2 octobre 2026 (vérifié) |", "| empreinte | SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU |"},
}

var accesAfter = [][]string{
	{"", "> Connexion uniquement vers le nœud de login indiqué par les organisateurs."},
	{"Connexion uniquement vers le nœud de login indiqué par les organisateurs.", "", "Merci"},
	{"", "<!-- pret:signature -->", "```", "-----BEGIN SSH SIGNATURE-----",
		"U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgx9uE6k7m6kq3nHq1vMtAjLr2",
		"AAAACnByZXQtYWNjZXMAAAAAAAAABnNoYTUxMgAAAFMAAAALc3NoLWVkMjU1MTkAAABA",
		"-----END SSH SIGNATURE-----", "```"},
}

// TestMaterialLinesEveryMutation: for every key form and generated
// mutation, embedded in an honest acces.md, every non-blank line of the
// key block is reported and no honest line is.
func TestMaterialLinesEveryMutation(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(7, 8))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		for _, f := range keyForms(t) {
			m := randomMutation(rng)
			block := m.render(f, rng)
			before := accesBefore[rng.IntN(len(accesBefore))]
			after := accesAfter[rng.IntN(len(accesAfter))]
			var all []string
			all = append(all, before...)
			if rng.IntN(2) == 0 {
				all = append(all, "")
			}
			first := len(all) + 1
			all = append(all, block...)
			last := len(all)
			all = append(all, after...)
			sep := "\n"
			if m.crlf {
				sep = "\r\n"
			}
			text := strings.Join(all, sep) + sep
			got := MaterialLines(text)
			marked := map[int]bool{}
			for _, g := range got {
				marked[g] = true
			}
			for no := first; no <= last; no++ {
				if strings.TrimSpace(strings.TrimPrefix(all[no-1], ">")) != "" && !marked[no] {
					t.Fatalf("%s %v: line %d %q not reported (got %v)\n%s", f.name, m, no, all[no-1], got, text)
				}
			}
			for _, g := range got {
				if g < first || g > last {
					t.Fatalf("%s %v: honest line %d %q reported\n%s", f.name, m, g, all[g-1], text)
				}
			}
		}
	}
}

func TestMaterialLinesExamples(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []int
	}{
		{"signature is not a leak", "a\n-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVk\n-----END SSH SIGNATURE-----\n", nil},
		{"public key PEM", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n", nil},
		{"magic split", "x\nb3BlbnNzaC1r\nZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB\nfin de la clé.\n", []int{2, 3}},
		{"magic split mid-line", "voici b3BlbnNz\naC1rZXktdjEAAAAABG5vbmU texte\n", []int{1, 2}},
		{"putty blank line", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n\nPublic-Lines: 1\nAAAA\n\nPrivate-Lines: 1\nAAAB\nPrivate-MAC: 00\nfin\n", []int{1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{"putty private lines alone", "Texte\n\nPrivate-Lines: 1\nAAAAIHx0\nPrivate-MAC: 00ff\n", []int{3, 4, 5}},
		{"orphan END", "Texte libre.\nQk1XcmFuZG9tYm9keQ==\n-----END RSA PRIVATE KEY-----\n", []int{2, 3}},
		{"empty", "", nil},
		{"prose", "Clé privée : jamais partagée.\nConnexion uniquement vers le nœud de login.\n", nil},
	} {
		if got := MaterialLines(c.text); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// BenchmarkMaterialLines measures the detector on the worst shapes of a
// 1 MiB acces.md: short base64 lines, one long line, many blank lines.
func BenchmarkMaterialLines(b *testing.B) {
	for _, s := range []struct{ name, text string }{
		{"short-b64-lines", strings.Repeat("a\n", 1<<19)},
		{"one-line", strings.Repeat("a ", 1<<19)},
		{"b64-and-blanks", strings.Repeat("ab\n\n\n", 1<<18)},
		{"begin-no-end", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + strings.Repeat("QUFBQQ\n", 1<<17)},
	} {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(s.text)))
			for i := 0; i < b.N; i++ {
				MaterialLines(s.text)
			}
		})
	}
}
