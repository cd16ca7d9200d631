package leak

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"math/big"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/romeo-pret/pret/internal/keytest"
	"github.com/romeo-pret/pret/internal/mdbounds"
	"github.com/romeo-pret/pret/internal/testenv"
	"golang.org/x/crypto/ssh"
)

// TestMaterialLinesEveryMutation: real ed25519, RSA and ECDSA keys in
// every form (keytest.Forms), through every mutation mail and editors put
// them through, embedded in honest acces.md text: every line of the key
// block that is not blank is reported, and no line outside it.
func TestMaterialLinesEveryMutation(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(7, 8))
	n := testenv.Scaled(400, 3000) // rounds of every form
	for range n {
		for _, f := range keytest.Forms(t) {
			c := keytest.Embed(f, keytest.RandomMutation(rng), rng,
				keytest.AccesBefore[rng.IntN(len(keytest.AccesBefore))], keytest.AccesAfter[rng.IntN(len(keytest.AccesAfter))])
			got := Lines(c.Text)
			for no := c.First; no <= c.Last; no++ {
				// Which lines hold key text, keytest knows from making them.
				if c.KeyText(no-c.First) && !slices.Contains(got, no) {
					t.Fatalf("%s %v: line %d %q not reported (got %v)\n%s", f.Name, c.Mut, no, c.Lines[no-1], got, c.Text)
				}
			}
			for _, g := range got {
				if g < c.First || g > c.Last {
					t.Fatalf("%s %v: honest line %d %q reported\n%s", f.Name, c.Mut, g, c.Lines[g-1], c.Text)
				}
			}
		}
	}
}

// TestRedact: every generated key disappears from the redacted text, the
// other lines stay byte for byte, every line keeps its break, and the
// lines returned are Lines'.
func TestRedact(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(9, 10))
	for range 300 {
		c := keytest.Generate(t, rng)
		red, lines := Redact(c.Text)
		if s := c.Leaked(red); s != "" {
			t.Fatalf("%s %v: %q left in\n%s", c.Form.Name, c.Mut, s, red)
		}
		want := Lines(c.Text)
		want = append(want, copies(c.Text, want)...)
		slices.Sort(want)
		if !slices.Equal(lines, want) {
			t.Fatalf("Redact's lines %v, Lines' and their copies' %v", lines, want)
		}
		checkRedacted(t, c.Text, red, lines)
	}
	if red, lines := Redact("rien\n"); red != "rien\n" || lines != nil {
		t.Fatal("a text without key changed")
	}
	red, _ := Redact("a\r\n-----BEGIN RSA PRIVATE KEY-----\r\nMIIE\r\n-----END RSA PRIVATE KEY-----")
	if red != "a\r\n\r\n\r\n" {
		t.Fatalf("redacted: %q", red)
	}
}

// checkRedacted fails t unless red is text with exactly the given lines
// emptied, each line's break (\n, \r\n, none) kept.
func checkRedacted(t *testing.T, text, red string, lines []int) {
	t.Helper()
	in, out := strings.SplitAfter(text, "\n"), strings.SplitAfter(red, "\n")
	if len(in) != len(out) {
		t.Fatalf("%d lines became %d", len(in), len(out))
	}
	for i := range in {
		switch {
		case !slices.Contains(lines, i+1):
			if in[i] != out[i] {
				t.Fatalf("line %d %q became %q", i+1, in[i], out[i])
			}
		case strings.Trim(out[i], "\r\n") != "" || !strings.HasSuffix(in[i], out[i]):
			t.Fatalf("line %d %q redacted as %q", i+1, in[i], out[i])
		}
	}
}

// TestBase64RunsAreNotKeys (issue 21): a run of base64 in prose is not a
// private key unless it decodes to one, whatever its length (43, a
// fingerprint's; 64, a PEM line's; 70, an OpenSSH line's; 100) and however
// it is written: alone, in a sentence, a script, a YAML list, an option,
// a config value, several lines in a row, starting as DER does ("MII") or not.
func TestBase64RunsAreNotKeys(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(21, 5))
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	run := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	dress := []func(string) string{
		func(s string) string { return s },
		func(s string) string { return "Mon jeton est " + s + ", merci." },
		func(s string) string { return `echo "` + s + `"` },
		func(s string) string { return "  - '" + s + "'" },
		func(s string) string { return "#SBATCH --comment=" + s },
		func(s string) string { return "seance.debut: \"" + s + "\"" },
		func(s string) string { return "> " + s },
		func(s string) string { return "| " + s + " |" },
	}
	for _, n := range []int{43, 64, 70, 100} {
		for range 2000 {
			d := dress[rng.IntN(len(dress))]
			var lines []string
			// Some runs start as a DER SEQUENCE does ("MII"): only the
			// shape of a private key after it would make them one.
			prefix := []string{"", "", "MII", "MIIE"}[rng.IntN(4)]
			for range 1 + rng.IntN(6) {
				lines = append(lines, d(prefix+run(n-len(prefix))))
			}
			text := strings.Join(lines, "\n") + "\n"
			if got := Lines(text); got != nil {
				t.Fatalf("base64 of %d characters reported %v\n%s", n, got, text)
			}
		}
	}
}

// TestDERGluedToAWord (outside tester, stop 28): a DER private key
// without its BEGIN line, glued to base64 characters ("x/MIIE…",
// "~/.ssh/MC4C…", a path, a date label), is found from its 'M' and its
// every line is reported, on one line or wrapped at 64.
func TestDERGluedToAWord(t *testing.T) {
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 1024)
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p8, _ := x509.MarshalPKCS8PrivateKey(edKey)
	sec1, _ := x509.MarshalECPrivateKey(ecKey)
	for _, der := range [][]byte{p8, x509.MarshalPKCS1PrivateKey(rsaKey), sec1} {
		body := base64.StdEncoding.EncodeToString(der)
		for _, glue := range []string{"x", "x/", "voir http://a/", "~/.ssh/", "clé/", "a+b", "- Date de la demande : x/"} {
			for _, width := range []int{64, len(body)} {
				var lines []string
				for rest := body; rest != ""; rest = rest[min(width, len(rest)):] {
					lines = append(lines, rest[:min(width, len(rest))])
				}
				lines[0] = glue + lines[0]
				text := "# Accès\n\n" + strings.Join(lines, "\n") + "\n\nConnexion uniquement.\n"
				want := make([]int, len(lines))
				for i := range want {
					want[i] = 3 + i
				}
				if got := Lines(text); !slices.Equal(got, want) {
					t.Fatalf("%q before a key of %d bytes, width %d: got %v, want %v", glue, len(der), width, got, want)
				}
			}
		}
	}
}

// TestPublicMaterialIsNotAKey: public keys (authorized_keys lines, their
// base64 alone, PEM and DER with or without their armour), OpenSSH
// certificates, X.509 certificates and fingerprints, of every key type,
// are never reported, however many in a row.
func TestPublicMaterialIsNotAKey(t *testing.T) {
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ca, _ := ssh.NewSignerFromKey(edKey)
	var lines []string
	for _, k := range []any{edKey, rsaKey, ecKey} {
		signer, err := ssh.NewSignerFromKey(k)
		if err != nil {
			t.Fatal(err)
		}
		pub := signer.PublicKey()
		authorized := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub)))
		cert := &ssh.Certificate{Key: pub, CertType: ssh.UserCert, KeyId: "kim", ValidPrincipals: []string{"kim"},
			ValidBefore: ssh.CertTimeInfinity}
		if err := cert.SignCert(rand.Reader, ca); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, authorized+" kim@portable", strings.Fields(authorized)[1],
			strings.TrimSpace(string(ssh.MarshalAuthorizedKey(cert))),
			ssh.FingerprintSHA256(pub), "- 256 "+ssh.FingerprintSHA256(pub)+" kim (ED25519)", ssh.FingerprintLegacyMD5(pub))

		der, err := x509.MarshalPKIXPublicKey(k.(crypto.Signer).Public())
		if err != nil {
			t.Fatal(err)
		}
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kim"},
			NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour)}
		certDER, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, k.(crypto.Signer).Public(), k)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range []*pem.Block{{Type: "PUBLIC KEY", Bytes: der}, {Type: "CERTIFICATE", Bytes: certDER}} {
			p := strings.TrimSpace(string(pem.EncodeToMemory(b)))
			lines = append(lines, p, strings.Join(strings.Split(p, "\n")[1:strings.Count(p, "\n")], "\n"),
				base64.StdEncoding.EncodeToString(b.Bytes))
		}
	}
	rsaPub := strings.TrimSpace(string(pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: x509.MarshalPKCS1PublicKey(&rsaKey.PublicKey)})))
	lines = append(lines, rsaPub, strings.Join(strings.Split(rsaPub, "\n")[1:strings.Count(rsaPub, "\n")], "\n"))
	for _, l := range lines {
		if got := Lines(l + "\n"); got != nil {
			t.Errorf("reported %v:\n%s", got, l)
		}
	}
	if text := strings.Join(lines, "\n"); Lines(text) != nil {
		t.Errorf("reported %v in a row:\n%s", Lines(text), text)
	}
}

// TestLinesLinear: on each hostile shape, the bytes of lines the
// detector reads grow as the text does: at 512 KiB, twice what they are at
// 256 KiB, and a few times the text at most. The work is counted, not timed
// (BenchmarkLines times it).
func TestLinesLinear(t *testing.T) {
	at := func(n int) map[string]int {
		work := map[string]int{}
		for _, s := range hostileShapes(n) {
			for _, sent := range []bool{false, true} {
				d := read(s.text, sent)
				d.scan()
				d.hexDumps()
				work[s.name] += d.work
				t.Logf("%s (sent %v): %.1f bytes read a byte", s.name, sent, float64(d.work)/float64(len(s.text)))
				if d.work > 12*len(s.text) {
					t.Errorf("%s (sent %v): %d bytes read for %d", s.name, sent, d.work, len(s.text))
				}
			}
		}
		return work
	}
	// A quadratic reader shows at any size; the long run takes 1 MiB.
	n := testenv.Scaled(256<<10, 1<<20)
	one, two := at(n), at(2*n)
	for name, w := range one {
		if r := float64(two[name]) / float64(w); r > 2.05 {
			t.Errorf("%s: %d bytes read at %d bytes, %d at twice (x%.2f)", name, w, n, two[name], r)
		}
	}
}

// FuzzLines holds the properties of Lines and Redact on any text: lines
// ascending and in the text; Redact empties exactly those, keeps every
// other byte and every line break; Has agrees; and a line reported stays
// reported whatever lines are added after the text.
func FuzzLines(f *testing.F) {
	for _, v := range vectors {
		f.Add(v.text, "")
	}
	for _, p := range realisticPages {
		f.Add(p, "AAAA\n-----END RSA PRIVATE KEY-----\n")
	}
	f.Add("-----BEGIN OPENSSH", "PRIVATE KEY-----\nAAAA\n")
	f.Add("voici b3BlbnNz", "aC1rZXktdjE\n")
	f.Add("M\nI\nI\nE", "o\nw\nI\nB\nA\nA\nK\nC\nA\nQ\nE\nA\n")
	f.Fuzz(func(t *testing.T, text, more string) {
		got := Lines(text)
		lf := mdbounds.LoneCRs(text) // the lines of a file of CRs alone are its CRs
		n := strings.Count(lf, "\n")
		if !strings.HasSuffix(lf, "\n") && text != "" {
			n++
		}
		for i, l := range got {
			if l < 1 || l > n || i > 0 && l <= got[i-1] {
				t.Fatalf("lines %v for a text of %d lines", got, n)
			}
		}
		if Has(text) != (len(got) > 0) {
			t.Fatalf("Has = %v, lines %v", Has(text), got)
		}
		red, lines := Redact(text)
		want := append(slices.Clone(got), copies(text, got)...) // a copy of key text elsewhere goes too
		slices.Sort(want)
		if !slices.Equal(lines, want) {
			t.Fatalf("Redact's lines %v, Lines' and their copies' %v", lines, want)
		}
		checkRedacted(t, lf, red, lines)
		if lf != text {
			return // an LF added would make its CRs spaces
		}
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		all := Lines(text + more)
		for _, l := range got {
			if !slices.Contains(all, l) {
				t.Fatalf("line %d reported in %q, not once %q is added: %v", l, text, more, all)
			}
		}
	})
}

// FuzzEmbeddedKey: a real key, in any form and mutation, pasted between
// any two texts, is reported on every one of its lines.
func FuzzEmbeddedKey(f *testing.F) {
	f.Add(uint64(1), "", "")
	f.Add(uint64(2), "-----BEGIN OPENSSH", "PRIVATE KEY-----")
	f.Add(uint64(3), "Bonjour\nMerci", "Merci")
	f.Add(uint64(4), "-----END", "AAAA")
	f.Add(uint64(5), "Comment: x\nAAAA", "")
	f.Add(uint64(6), "-----BEGIN SSH SIGNATURE-----", "-----END SSH SIGNATURE-----")
	f.Add(uint64(7), "echo M", "")
	f.Add(uint64(8), "voici b", "")
	forms := keytest.Forms(f)
	f.Fuzz(func(t *testing.T, seed uint64, before, after string) {
		rng := mrand.New(mrand.NewPCG(seed, seed>>32))
		form := forms[rng.IntN(len(forms))]
		c := keytest.Embed(form, keytest.RandomMutation(rng), rng, nil, nil)
		block := c.Block()
		sep := []string{"\n", "\r\n"}[rng.IntN(2)]
		if before != "" && !strings.HasSuffix(before, "\n") {
			before += "\n"
		}
		first := strings.Count(before, "\n") + 1
		text := before + strings.Join(block, sep) + sep + after
		got := Lines(text)
		for k, l := range block {
			if c.KeyText(k) && !slices.Contains(got, first+k) {
				t.Fatalf("%s: line %d %q not reported (got %v)\n%s", form.Name, first+k, l, got, text)
			}
		}
	})
}

// copies are the numbers of the lines, not in lines (ascending), that
// hold a piece of the key text of the lines in lines: what Redact empties besides.
func copies(text string, lines []int) []int {
	pieces := PiecesOf(text, lines)
	var out []int
	no := 0
	for l := range strings.Lines(text) {
		no++
		if _, ok := slices.BinarySearch(lines, no); !ok && pieces.Mask(l) != l {
			out = append(out, no)
		}
	}
	return out
}
