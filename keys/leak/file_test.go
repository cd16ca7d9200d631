package leak

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/keytest"
	"github.com/romeo-pret/pret/internal/testenv"
)

// mixed reports an encoding that writes another text before the case's.
func mixed(e keytest.Encoding) bool { return strings.Contains(e.Name, " puis ") }

// TestFileEveryEncodingAndInvisible (issue 30): a real key of every type
// and form, through every mutation, in an honest page, then with
// invisible characters (U+200B, U+2060, U+00AD, U+FEFF) every 1 to 7
// characters of its block, written in every encoding: File finds it.
// Where the encoding keeps every character (all but Latin-1 where it
// writes '?'), it finds the very lines Lines finds in the intact UTF-8
// text, numbered as in the file (after a UTF-8 page the text is appended
// to), and those are the block's.
func TestFileEveryEncodingAndInvisible(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(30, 1))
	n := 8 // each round: every form × every encoding
	switch {
	case os.Getenv("PRET_LONG") != "":
		n = 200
	case testing.Short():
		n = 3
	}
	for range n {
		for _, f := range keytest.Forms(t) {
			c := keytest.Embed(f, keytest.RandomMutation(rng), rng,
				keytest.AccesBefore[rng.IntN(len(keytest.AccesBefore))], keytest.AccesAfter[rng.IntN(len(keytest.AccesAfter))])
			want := Lines(c.Text)
			checkBlock(t, c, want)
			for _, e := range keytest.Encodings {
				every := rng.IntN(8) // 0: none
				s := c.WithInvisible(keytest.Invisible, every, e.Holds, rng)
				got := File(e.Encode(s.Text))
				// Latin-1 writes '?' for U+202F in a marker: the key's text changed.
				exact := !strings.ContainsFunc(s.Text, func(r rune) bool { return !e.Holds(r) })
				if len(got) == 0 || exact && !slices.Equal(got, shifted(want, e)) {
					t.Fatalf("%s %v, %s, invisible every %d: got %v, want %v\n%q", f.Name, c.Mut, e.Name, every, got, want, s.Text)
				}
			}
		}
	}
}

// shifted are lines as numbered in a file e writes: after the lines of
// the UTF-8 page a mixed encoding writes first.
func shifted(lines []int, e keytest.Encoding) []int {
	k := strings.Count(string(e.Encode("")), "\n")
	out := make([]int, len(lines))
	for i, l := range lines {
		out[i] = l + k
	}
	return out
}

// checkBlock: lines are every line of c's key block that held text when
// copied (keytest's Plain, not the detector's own strip), and none outside it.
func checkBlock(t *testing.T, c keytest.Case, lines []int) {
	t.Helper()
	for no := c.First; no <= c.Last; no++ {
		if c.KeyText(no-c.First) && !slices.Contains(lines, no) {
			t.Fatalf("%s %v: line %d %q not reported (got %v)\n%s", c.Form.Name, c.Mut, no, c.Lines[no-1], lines, c.Text)
		}
	}
	for _, g := range lines {
		if g < c.First || g > c.Last {
			t.Fatalf("%s %v: honest line %d %q reported\n%s", c.Form.Name, c.Mut, g, c.Lines[g-1], c.Text)
		}
	}
}

// TestHexDumpOfEveryKey (issue 30): every key file, and every key's
// bytes where they alone show a key (DER, OpenSSH's binary key), written
// as hex by every dump (xxd, hexdump -C, xxd -p, one line, upper case,
// xxd -i) after an honest page: every line of hex is reported, no other.
func TestHexDumpOfEveryKey(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(30, 2))
	for _, f := range keytest.Forms(t) {
		datas := [][]byte{[]byte(f.File())}
		if b := f.KeyBytes(); b != nil {
			datas = append(datas, b)
		}
		for _, data := range datas {
			for _, d := range keytest.Dumps {
				before := keytest.AccesBefore[rng.IntN(len(keytest.AccesBefore))]
				dump := strings.Split(strings.TrimSuffix(d.Dump(data), "\n"), "\n")
				text := strings.Join(slices.Concat(before, []string{"", "Ma clé :"}, dump, keytest.AccesAfter[0]), "\n") + "\n"
				first, last := len(before)+3, len(before)+2+len(dump)
				if d.Name == "xxd -i" {
					first, last = first+1, last-1 // the declaration and its end are C, not hex
				}
				var want []int
				for no := first; no <= last; no++ {
					want = append(want, no)
				}
				if got := Lines(text); !slices.Equal(got, want) {
					t.Fatalf("%s, %d bytes, %s: got %v, want %v\n%s", f.Name, len(data), d.Name, got, want, text)
				}
			}
		}
	}
}

// TestFileNoKeyNoReport (issue 30): what learners hand in besides a key
// is never one, in any encoding, with invisible characters or not:
// honest pages, base64 in prose, fingerprints, sha256 sums and commit
// hashes (a README), hex dumps of public keys and of random bytes, a
// page in UTF-16 after a page in UTF-8.
func TestFileNoKeyNoReport(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(30, 3))
	texts := slices.Clone(realisticPages)
	for _, p := range slices.Concat(keytest.AccesBefore, keytest.AccesAfter) {
		texts = append(texts, strings.Join(p, "\n")+"\n")
	}
	var readme strings.Builder
	readme.WriteString("# Rendu\n\nEmpreintes des fichiers :\n\n")
	for i := range 40 {
		sum := sha256.Sum256([]byte{byte(i)})
		fmt.Fprintf(&readme, "%x  fichier%d.txt\n", sum, i)
	}
	for i := range 20 {
		sum := sha256.Sum256([]byte{byte(i), 1})
		fmt.Fprintf(&readme, "%x\n", sum[:20]) // a commit hash alone
	}
	texts = append(texts, readme.String())
	var prose []string
	for range 30 {
		prose = append(prose, keytest.Base64Prose(rng, 16+rng.IntN(300)))
	}
	texts = append(texts, strings.Join(prose, "\n")+"\n")
	random := make([]byte, 4096)
	rand.Read(random)
	pub := []byte(keytest.AccesBefore[1][3] + "\n")
	for _, d := range keytest.Dumps {
		texts = append(texts, "Octets :\n"+d.Dump(random), "Clé publique :\n"+d.Dump(pub))
	}
	for _, text := range texts {
		for _, e := range keytest.Encodings {
			for _, every := range []int{0, 3} {
				s := keytest.Sprinkle(text, keytest.Invisible, every, e.Holds, rng)
				if got := File(e.Encode(s)); got != nil {
					t.Fatalf("%s, invisible every %d: %v reported\n%s", e.Name, every, got, s)
				}
			}
		}
	}
}

// TestDumpsOfTheRealTools: keytest's dumps are byte for byte those of
// xxd, xxd -p and hexdump -C; and real ssh-keygen keys of every type,
// in OpenSSH and PKCS#8 files, dumped by the real xxd, xxd -p, xxd -i,
// hexdump -C and od, and converted to UTF-16 by iconv, are reported.
func TestDumpsOfTheRealTools(t *testing.T) {
	xxd, hexdump, od, iconv := testenv.NeedTool(t, "xxd"), testenv.NeedTool(t, "hexdump"), testenv.NeedTool(t, "od"), testenv.NeedTool(t, "iconv")
	dir := t.TempDir()
	for _, k := range []struct{ name, typ, format string }{
		{"ed25519", "ed25519", "RFC4716"}, {"rsa", "rsa", "PKCS8"}, {"ecdsa", "ecdsa", "PEM"}, {"ed25519-pem", "ed25519", "PKCS8"},
	} {
		args := []string{"-t", k.typ, "-N", "", "-C", "kim@portable"}
		if k.format != "RFC4716" { // the OpenSSH format: ssh-keygen's own
			args = append(args, "-m", k.format)
		}
		path := testenv.SSHKeygen(t, dir, k.name, args...)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := testenv.Run(t, xxd, path); got != keytest.XXD(data) {
			t.Errorf("%s: keytest.XXD differs from xxd:\n%s\n%s", k.name, got, keytest.XXD(data))
		}
		if got := testenv.Run(t, xxd, "-p", path); got != keytest.PlainHex(data, 60) {
			t.Errorf("%s: keytest.PlainHex differs from xxd -p", k.name)
		}
		if got := testenv.Run(t, hexdump, "-C", path); got != keytest.HexdumpC(data) {
			t.Errorf("%s: keytest.HexdumpC differs from hexdump -C:\n%s\n%s", k.name, got, keytest.HexdumpC(data))
		}
		for _, cmd := range [][]string{{xxd, path}, {xxd, "-p", path}, {xxd, "-i", path}, {hexdump, "-C", path}, {od, "-A", "x", "-t", "x1z", path}} {
			dump := testenv.Run(t, cmd[0], cmd[1:]...)
			text := "# Accès\n\nDate de la demande : 2026-10-20\n\n" + dump
			if got := Lines(text); len(got) < strings.Count(dump, "\n")-3 || got[0] < 5 {
				t.Errorf("%s %v: got %v\n%s", k.name, cmd[1:], got, text)
			}
		}
		for _, enc := range []string{"UTF-16", "UTF-16LE", "UTF-16BE"} {
			out, err := exec.Command(iconv, "-f", "UTF-8", "-t", enc, path).Output()
			if err != nil {
				t.Fatal(err)
			}
			if got := File(out); len(got) != strings.Count(string(data), "\n") {
				t.Errorf("%s in %s: got %v", k.name, enc, got)
			}
		}
	}
}

// TestOpenSSLTextOfAKey: a private key printed by the real openssl
// (pkey -text: "Private-Key:", then its numbers as bytes joined by
// colons) is reported on every line, after an honest page (outside
// tester); its public half alone (-text_pub) is no key.
func TestOpenSSLTextOfAKey(t *testing.T) {
	openssl := testenv.NeedTool(t, "openssl")
	dir := t.TempDir()
	for _, alg := range [][]string{{"-algorithm", "ed25519"}, {"-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"}, {"-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024"}} {
		key := filepath.Join(dir, alg[1]+".pem")
		testenv.Run(t, openssl, append(append([]string{"genpkey"}, alg...), "-out", key)...)
		page := "# Accès\n\nDate de la demande : 2026-10-20\n\n"
		dump := testenv.Run(t, openssl, "pkey", "-in", key, "-text", "-noout")
		// Every line but the curve's names that end EC's ("ASN1 OID:
		// prime256v1"): public words, after the numbers.
		var want []int
		for no, l := range strings.Split(strings.TrimSuffix(dump, "\n"), "\n") {
			if label, _, _ := strings.Cut(l, ":"); no == 0 || !strings.Contains(strings.TrimSpace(label), " ") {
				want = append(want, 5+no)
			}
		}
		if got := Lines(page + dump); !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v\n%s", alg[1], got, want, dump)
		}
		if pub := testenv.Run(t, openssl, "pkey", "-in", key, "-text_pub", "-noout"); Has(page + pub) {
			t.Errorf("%s: the public half is taken for a key:\n%s", alg[1], pub)
		}
	}
}

// pure are the encodings that write the text alone.
func pure() []keytest.Encoding {
	return slices.DeleteFunc(slices.Clone(keytest.Encodings), func(e keytest.Encoding) bool { return mixed(e) || e.Name == "latin-1" })
}

// FuzzFileEncodings holds, on any text, that neither invisible
// characters nor an encoding hide a key: invisible characters every few
// characters change no line reported; the text in UTF-8 or UTF-16, with
// or without BOM, is reported on every line Lines reports; a key's text
// dumped by xxd is reported. And for a text in ASCII, an encoding makes
// no key: File finds one exactly when Lines does.
func FuzzFileEncodings(f *testing.F) {
	for _, v := range vectors {
		f.Add(v.text, uint8(3), uint64(1))
	}
	for _, p := range realisticPages {
		f.Add(p, uint8(1), uint64(2))
	}
	f.Add("-----BEGIN\u202fRSA PRIVATE KEY-----\nMIIE\n", uint8(2), uint64(3))
	f.Add("<!-- b3BlbnNzaC1rZXktdjEAAAAA -->\n", uint8(1), uint64(4))
	f.Fuzz(func(t *testing.T, text string, every uint8, seed uint64) {
		if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
			return // a text: File reads bytes that are none
		}
		rng := mrand.New(mrand.NewPCG(seed, 30))
		want := Lines(text)
		if got := Lines(keytest.Sprinkle(text, keytest.Invisible, 1+int(every%8), anyRune, rng)); !slices.Equal(got, want) {
			t.Fatalf("invisible characters every %d: %v, intact %v", 1+every%8, got, want)
		}
		ascii := !strings.ContainsFunc(text, func(r rune) bool { return r >= utf8.RuneSelf })
		for _, e := range pure() {
			got := File(e.Encode(text))
			for _, l := range want {
				if !slices.Contains(got, l) {
					t.Fatalf("%s: line %d not reported (%v, intact %v)", e.Name, l, got, want)
				}
			}
			if ascii && len(want) == 0 && got != nil {
				t.Fatalf("%s: %v reported in a text that holds no key", e.Name, got)
			}
		}
		if len(want) > 0 && len(text) >= minHexKey && Lines("Clé :\n"+keytest.XXD([]byte(text))) == nil {
			t.Fatal("the dump of a key is not reported")
		}
	})
}

func anyRune(rune) bool { return true }

// TestHexDumpBesideHexishProse: a line of prose that looks like hex
// ("Voir 2d2d2d2d2d2d") right above a dump splits nothing from it: the
// dump is reported, the prose is not.
func TestHexDumpBesideHexishProse(t *testing.T) {
	f := keytest.Forms(t)[0]
	dump := keytest.PlainHex([]byte(f.File()), 60)
	text := "# Accès\nVoir 2d2d2d2d2d2d\n" + dump + "Voir 2d2d2d2d2d2d\n"
	got := Lines(text)
	n := strings.Count(dump, "\n")
	if len(got) != n || got[0] != 3 || got[n-1] != n+2 {
		t.Fatalf("got %v, want lines 3 to %d\n%s", got, n+2, text)
	}
}

// TestFormatLeads: every invisible character (Unicode's format characters,
// variation selectors and other default ignorables) starts, in UTF-8, with
// a byte formatLeads holds, so dropFormat drops them all.
func TestFormatLeads(t *testing.T) {
	n := 0
	for _, tab := range []*unicode.RangeTable{unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point} {
		for r := rune(0x80); r <= unicode.MaxRune; r++ {
			if !unicode.Is(tab, r) {
				continue
			}
			n++
			if s := string(r); !formatLeads[s[0]] || dropFormat("a"+s+"b") != "ab" {
				t.Errorf("U+%04X not dropped", r)
			}
		}
	}
	if n < 4000 {
		t.Fatalf("only %d invisible characters tried", n)
	}
}

// TestFileOfKeyBytes: a key saved as its bytes (openssl -outform DER, the
// OpenSSH binary key a base64 decoder writes) is a key from its first
// line; the bytes of a public key, a certificate or random bytes are not
// (outside tester: a raw DER private key went unreported).
func TestFileOfKeyBytes(t *testing.T) {
	n := 0
	for _, f := range keytest.Forms(t) {
		if b := f.KeyBytes(); b != nil {
			n++
			// A blank line before (echo; cat key.der) still opens a key
			// (outside tester).
			for _, before := range []string{"", "\n", "\r\n", " \n\t", "\ufeff\n"} {
				if got := File(append([]byte(before), b...)); !slices.Equal(got, []int{1}) {
					t.Errorf("%s as its bytes after %q: %v, want [1]", f.Name, before, got)
				}
			}
		}
	}
	if n < 5 {
		t.Fatalf("%d forms with key bytes, want every DER and OpenSSH form", n)
	}
	random := make([]byte, 4096)
	for i := range 200 {
		rand.Read(random)
		random[0] = 0x30 // a SEQUENCE, as DER opens
		if i%2 == 0 {
			random[1] = 0x82
		}
		if got := File(random); got != nil {
			t.Fatalf("random bytes opening a SEQUENCE: %v", got)
		}
	}
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	for name, key := range map[string]crypto.Signer{"ecdsa": ecKey, "ed25519": edKey} {
		pub, err := x509.MarshalPKIXPublicKey(key.Public())
		if err != nil {
			t.Fatal(err)
		}
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "romeo"}, NotAfter: time.Now().Add(time.Hour)}
		cert, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
		if err != nil {
			t.Fatal(err)
		}
		for what, b := range map[string][]byte{"public key": pub, "certificate": cert} {
			if got := File(b); got != nil {
				t.Errorf("%s %s as DER bytes: %v", name, what, got)
			}
		}
	}
}
