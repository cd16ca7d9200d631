package keys

import (
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/keytest"
)

// accesLineTokens are checklist/acces's lineTokens (perf_test.go), the
// line-level tokens the rules and the detector look at: keys cannot
// import that package, so they are copied here.
var accesLineTokens = []string{
	"RSA ", "ECDSA ", "DSA ", "ed25519-sk ", "ssh-ed25519 ", "ED25519 ", "ssh-rsa ",
	"SHA256:", "SHA256:abc\n", "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU ",
	"MD5:01:23:45:67:89:ab:cd:ef:01:23:45:67:89:ab:cd:ef ",
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n",
	"AAAAAAAAAAAAAAAAAAAA ",
	"-----BEGIN", "-----BEGIN\n", "-----BEGIN OPENSSH PRIVATE KEY-----\n", "-----END OPENSSH PRIVATE KEY-----\n",
	"-----\n", "BEGIN PRIVATE\n", "Proc-Type: 4,ENCRYPTED\n", "PuTTY-User-Key-File-3: x\n", "Private-Lines: 1\n",
	"```", "```\n", "|", "|\n", "|a|b|", ">", ">\n", "> ", "- ", "- \n", "# \n", "1. a\n",
	"2026-10-20 ", "20/10/2026\n", "le 1er janvier 2026 ", "octobre ", "Date de la demande : 2026-10-20\n",
	"~/.ssh/id_ed25519_romeo.pub ", "~/.ssh/a.pub\n",
	"b3BlbnNzaC1rZXktdjE", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n", "MIIEowIBAAKCAQEA\n",
	"Zm9vYmFyYmF6cXV4cXV1eFlvV0xrd0pYcEZzSzl3Q2c0\n", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9f ",
	"\u00a0", "\u00a0\n", "\r\n", "\r", "\n", "a\r\n", "_a_ *b* `c` ", "«", "é",
	"<!-- pret:signature -->\n", "-----BEGIN SSH SIGNATURE-----\n",
	"Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n",
}

// lookalikes are runes a line may carry that the ASCII paths must not
// misread: spaces and format characters compact and strip drop, letters
// whose capital is ASCII (ı → I, ſ → S), a capital with an ASCII
// lower-case (K, Kelvin), invalid UTF-8.
var lookalikes = []string{
	"\u00a0", "\u202f", "\u2028", "\u0085", "\u200b", "\u00ad", "\ufeff", "\u2060", "ı", "ſ", "\u212a", "é", "œ",
	"\xff", "\xe2\x80", "\xc2", "\u3000", "\u1680", "－", "‐",
}

// dress changes one line the ways pasted text changes: case, quotes,
// list and table marks, indentation, inner spaces, lookalike runes, a
// cut at any byte.
func dress(rng *mrand.Rand, l string) string {
	switch rng.IntN(14) {
	case 0:
		return strings.ToLower(l)
	case 1:
		return strings.ToUpper(l)
	case 2:
		return "> " + l
	case 3:
		return []string{"- ", "* ", "+ ", "12. ", "3) ", "    ", "\t", "`", "\"", "'", "| ", ">>"}[rng.IntN(12)] + l + []string{"", " |", "`", "\"", "'", " ", "\r", "."}[rng.IntN(8)]
	case 4:
		if l != "" {
			at := rng.IntN(len(l))
			return l[:at] + lookalikes[rng.IntN(len(lookalikes))] + l[at:]
		}
	case 5:
		if l != "" {
			return l[:rng.IntN(len(l))]
		}
	case 6:
		if l != "" {
			return l[rng.IntN(len(l)):]
		}
	case 7:
		if l != "" {
			at := rng.IntN(len(l))
			return l[:at] + []string{" ", "  ", "\t", "-", "--", "-----", ":", "=", "_"}[rng.IntN(9)] + l[at:]
		}
	case 8:
		// Lookalike letters for their ASCII capitals.
		r := strings.NewReplacer("i", "ı", "s", "ſ", "k", "\u212a")
		return r.Replace(l)
	case 9:
		return strings.ReplaceAll(l, " ", lookalikes[rng.IntN(4)])
	}
	return l
}

// honestLines are lines of honest acces.md pages and of the base64 they
// quote: fingerprints, public keys, hashes, signatures.
var honestLines = func() []string {
	var out []string
	for _, p := range realisticPages {
		out = append(out, strings.Split(p, "\n")...)
	}
	for _, b := range [][]string{keytest.AccesBefore[0], keytest.AccesBefore[1], keytest.AccesBefore[2], keytest.AccesAfter[0], keytest.AccesAfter[1], keytest.AccesAfter[2]} {
		out = append(out, b...)
	}
	return append(out, "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"-----BEGIN PUBLIC KEY-----", "MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=", "-----END PUBLIC KEY-----",
		"-----BEGIN CERTIFICATE-----", "-----END CERTIFICATE-----", "Merci pour tout", "Tout sera fait pour vous", "")
}()

func randB64(rng *mrand.Rand, n int) string {
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	b := make([]byte, n)
	for i := range b {
		b[i] = b64[rng.IntN(len(b64))]
	}
	return string(b)
}

// genText makes a text of lines from every source above: real keys of
// every form with keytest's mutations (whole, body only, quoted, cut),
// their lines dressed one by one, honest pages and base64, perf_test's
// tokens, genLine's mixes; LF or CRLF, with or without a final break.
func genText(t testing.TB, rng *mrand.Rand) string {
	forms := keytest.Forms(t)
	var lines []string
	for range 1 + rng.IntN(6) {
		switch rng.IntN(6) {
		case 0, 1: // a key block, some of its lines dressed, some dropped
			f := forms[rng.IntN(len(forms))]
			block := keytest.RandomMutation(rng).Render(f, rng)
			if rng.IntN(3) == 0 {
				from := rng.IntN(len(block))
				to := from + 1 + rng.IntN(len(block)-from)
				block = block[from:to]
			}
			for _, l := range block {
				if rng.IntN(6) == 0 {
					l = dress(rng, l)
				}
				if rng.IntN(20) != 0 {
					lines = append(lines, l)
				}
			}
		case 2:
			for range 1 + rng.IntN(6) {
				lines = append(lines, dress(rng, honestLines[rng.IntN(len(honestLines))]))
			}
		case 3:
			var b strings.Builder
			for range 1 + rng.IntN(4) {
				b.WriteString(accesLineTokens[rng.IntN(len(accesLineTokens))])
			}
			lines = append(lines, strings.Split(dress(rng, b.String()), "\n")...)
		case 4:
			lines = append(lines, dress(rng, genLine(rng)))
		default: // honest or random base64 of the widths that matter
			w := []int{11, 12, 16, 43, 44, 59, 60, 64, 70, 76}[rng.IntN(10)]
			l := randB64(rng, w)
			switch rng.IntN(4) {
			case 0:
				l = "SHA256:" + l
			case 1:
				l = "echo \"" + l + "\""
			case 2:
				l = l + " " + randB64(rng, rng.IntN(20))
			}
			lines = append(lines, dress(rng, l))
		}
	}
	sep := "\n"
	if rng.IntN(4) == 0 {
		sep = "\r\n"
	}
	text := strings.Join(lines, sep)
	if rng.IntN(4) != 0 {
		text += sep
	}
	if rng.IntN(10) == 0 {
		text = "\ufeff" + text
	}
	return text
}

// sameAsOld fails t when any entry point answers otherwise than the
// oracle on text.
func sameAsOld(t *testing.T, text string) {
	t.Helper()
	starts := lineStarts(text)
	want := oldMaterialMaskAt(text, starts)
	if got := MaterialMaskAt(text, starts); !slices.Equal(got, want) {
		t.Fatalf("MaterialMaskAt(%q) = %v, was %v", text, got, want)
	}
	if got := MaterialMask(text); !slices.Equal(got, want) {
		t.Fatalf("MaterialMask(%q) = %v, was %v", text, got, want)
	}
	if got, want := MaterialLines(text), oldMaterialLines(text); !slices.Equal(got, want) {
		t.Fatalf("MaterialLines(%q) = %v, was %v", text, got, want)
	}
}

// TestMaterialMaskMatchesOld: the detector with its prefilters reports
// the lines the one before them reported, on every generated text.
func TestMaterialMaskMatchesOld(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(23, 29))
	n := 30_000
	if testing.Short() {
		n = 5_000
	}
	marked := 0
	for range n {
		text := genText(t, rng)
		sameAsOld(t, text)
		if len(oldMaterialLines(text)) > 0 {
			marked++
		}
	}
	// The generator must reach both answers, or the test proves little.
	if marked < n/10 || marked > n*9/10 {
		t.Fatalf("%d texts of %d hold key material: the generator lost its mix", marked, n)
	}
}

// TestMaterialMaskMatchesOldPages: every page of realisticPages, each
// line dressed in every way, and every pair of perf_test tokens on one
// line and on two.
func TestMaterialMaskMatchesOldPages(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(31, 37))
	for _, p := range realisticPages {
		sameAsOld(t, p)
		lines := strings.Split(p, "\n")
		for range 2000 {
			l := slices.Clone(lines)
			k := rng.IntN(len(l))
			l[k] = dress(rng, l[k])
			sameAsOld(t, strings.Join(l, "\n"))
		}
	}
	for _, a := range accesLineTokens {
		for _, b := range accesLineTokens {
			sameAsOld(t, a+b)
			sameAsOld(t, a+"\n"+b)
			sameAsOld(t, strings.Repeat(a, 3)+"\n"+strings.Repeat(b, 3))
		}
	}
}

func FuzzMaterialMaskMatchesOld(f *testing.F) {
	for _, p := range realisticPages {
		f.Add(p)
	}
	rng := mrand.New(mrand.NewPCG(41, 43))
	for range 20 {
		f.Add(genText(f, rng))
	}
	f.Fuzz(func(t *testing.T, text string) {
		sameAsOld(t, text)
	})
}

// TestMayMarkerIsNecessary: a line mayMarker turns away is one marker
// leaves as it was, and one whose compact form markerShape turns away
// too; and mayMarker reads the prefix and "-BE", "-EN" as compact does.
func TestMayMarkerIsNecessary(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(47, 53))
	for i := range 100_000 {
		text := dress(rng, genLine(rng)) + "\n" + genLine(rng) + "\n" + dress(rng, accesLineTokens[rng.IntN(len(accesLineTokens))])
		d := newDetector(text, nil)
		for j := range d.ls {
			s := d.line(j)
			k := compact(nil, s)
			dash := strings.Contains(s, "-")
			if want := mayMarkerSlow(k); mayMarker(s, dash) != want {
				t.Fatalf("case %d: mayMarker(%q) = %v, compact form %q says %v", i, s, !want, k, want)
			}
			if mayMarker(s, dash) {
				continue
			}
			if markerShape(k) {
				for _, p := range markerPrefixes {
					if strings.HasPrefix(string(k), p) {
						t.Fatalf("case %d: %q (%q) starts with %q", i, s, k, p)
					}
				}
			}
			c := d.ls[j]
			d.marker(j, &d.ls[j], string(k), nil)
			if d.ls[j] != c {
				t.Fatalf("case %d: line %q (%q) turned away by mayMarker, but marker makes it %+v", i, s, k, d.ls[j])
			}
		}
	}
}

// mayMarkerSlow is mayMarker's definition read on the compact form.
func mayMarkerSlow(k []byte) bool {
	if len(k) == 0 {
		return false
	}
	if k[0] == '-' || strings.Contains(string(k), "-BE") || strings.Contains(string(k), "-EN") {
		return true
	}
	for _, p := range markerPrefixes {
		if strings.HasPrefix(string(k), p) {
			return true
		}
	}
	return false
}

// TestOnlyDashUpperCasesToDash: mayMarker finds the dashes of the
// compact form with IndexByte on the line, which holds only if no other
// rune becomes '-' in it; and nextCompact drops what compact drops.
func TestOnlyDashUpperCasesToDash(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r != '-' && unicode.ToUpper(r) == '-' {
			t.Fatalf("%U upper-cases to '-'", r)
		}
		s := string(r)
		if !utf8.ValidRune(r) {
			continue
		}
		k := compact(nil, s)
		got, _ := nextCompact(s, 0)
		if len(k) == 0 && got != -1 || len(k) > 0 && string(k) != string(got) {
			t.Fatalf("%U: nextCompact %q, compact %q", r, got, k)
		}
	}
}

// TestStripMatchesOld: strip with its ASCII trim answers as the one that
// asked the rune tables for every byte.
func TestStripMatchesOld(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(59, 61))
	for i := range 200_000 {
		l := dress(rng, dress(rng, genLine(rng)))
		if got, want := strip(l), oldStrip(l); got != want {
			t.Fatalf("case %d: strip(%q) = %q, was %q", i, l, got, want)
		}
		if got, want := looseB64(l), oldLooseB64(l); got != want {
			t.Fatalf("case %d: looseB64(%q) = %v, was %v", i, l, got, want)
		}
		if got, want := lastWord(l), oldLastWord(l); got != want {
			t.Fatalf("case %d: lastWord(%q) = %q, was %q", i, l, got, want)
		}
		if got, want := firstWord(l), oldFirstWord(l); got != want {
			t.Fatalf("case %d: firstWord(%q) = %q, was %q", i, l, got, want)
		}
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		for _, l := range []string{string(r), "a" + string(r), string(r) + "a", " " + string(r) + "x" + string(r) + "\r"} {
			if got, want := strip(l), oldStrip(l); got != want {
				t.Fatalf("strip(%q) = %q, was %q", l, got, want)
			}
			if got, want := looseB64(l+"AAAAAAAAAAAAAAAA"), oldLooseB64(l+"AAAAAAAAAAAAAAAA"); got != want {
				t.Fatalf("looseB64(%q) = %v, was %v", l, got, want)
			}
		}
	}
}

// TestMayBodyTokenIsNecessary: a line mayBodyToken turns away has no
// token of fragMin characters, the one thing the fast return of
// fragments rules out; over generated lines and body lines re-spaced
// every n characters, joined or not, among other words.
func TestMayBodyTokenIsNecessary(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(67, 71))
	seen := 0
	for i := range 300_000 {
		l := dress(rng, genLine(rng))
		if i%2 == 0 {
			w := 1 + rng.IntN(20)
			body := randB64(rng, 20+rng.IntN(60))
			var b strings.Builder
			b.WriteString([]string{"", "echo ", "x: ", "- '", "ab cd ", "SHA256:"}[rng.IntN(6)])
			for k := 0; k < len(body); k += w {
				if k > 0 {
					b.WriteString([]string{" ", "\t", "  "}[rng.IntN(3)])
				}
				b.WriteString(body[k:min(k+w, len(body))])
			}
			b.WriteString([]string{"", "'", " kim", " " + randB64(rng, rng.IntN(30)), "=="}[rng.IntN(5)])
			l = b.String()
		}
		tok := fragToken(l, fragTail)
		if len(tok) >= fragMin {
			seen++
		}
		if !mayBodyToken(l) && len(tok) >= fragMin {
			t.Fatalf("case %d: %q turned away, but its token is %q", i, l, tok)
		}
	}
	if seen < 10_000 {
		t.Fatalf("only %d lines with a body-length token: the generator lost its mix", seen)
	}
}

// TestLineClassIsNecessary: classify reads each line as the detector
// before it did (every kind and flag equal, over generated texts), and
// the flag it adds, fBody, is missing only from lines without a token
// both fragMin long and random: short lines, or fewer than six capitals
// (the boundary is generated: body-length base64 with 3 to 9 capitals).
func TestLineClassIsNecessary(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(73, 79))
	fewCapitals := func() string {
		b := []byte(strings.ToLower(randB64(rng, fragMin-4+rng.IntN(30))))
		for range 3 + rng.IntN(7) {
			b[rng.IntN(len(b))] = byte('A' + rng.IntN(26))
		}
		return string(b)
	}
	flagged := 0
	for i := range 100_000 {
		var lines []string
		for range 1 + rng.IntN(5) {
			l := dress(rng, genLine(rng))
			switch rng.IntN(3) {
			case 0:
				l = dress(rng, randB64(rng, 40+rng.IntN(40)))
			case 1:
				l = dress(rng, fewCapitals())
			}
			lines = append(lines, l)
		}
		text := strings.Join(lines, "\n")
		d, old := newDetector(text, nil), oldNewDetector(text, nil)
		d.classify()
		old.classify()
		for j := range d.ls {
			seen, upper := classBytes(d.raw(j))
			var seen1 uint16
			upper1 := 0
			for k := 0; k < len(d.raw(j)); k++ {
				seen1 |= lineClass[d.raw(j)[k]]
				upper1 += int(lineClass[d.raw(j)[k]] >> 8)
			}
			if seen != seen1 || upper != upper1 || upper != strings.Count(strings.Map(func(r rune) rune {
				if 'A' <= r && r <= 'Z' {
					return 'A'
				}
				return -1
			}, d.raw(j)), "A") {
				t.Fatalf("case %d: classBytes(%q) = %x, %d; byte by byte %x, %d", i, d.raw(j), seen, upper, seen1, upper1)
			}
			got := d.ls[j]
			got.flags &^= fBody
			if want := old.ls[j]; got.kind != kind(want.kind) || got.flags != want.flags || got.joined != want.joined {
				t.Fatalf("case %d: line %q: %+v, was %+v", i, d.raw(j), d.ls[j], want)
			}
			if d.ls[j].flags&fBody != 0 {
				flagged++
				continue
			}
			if tok := fragToken(d.raw(j), fragTail); len(tok) >= fragMin && random(tok) {
				t.Fatalf("case %d: %q not flagged fBody, but its token %q is random", i, d.raw(j), tok)
			}
		}
		d.release()
		old.release()
	}
	if flagged == 0 {
		t.Fatal("no line flagged fBody: the generator lost its mix")
	}
	// Every byte that is hard is one strip keeps: in any place of any
	// line, it is still there once the line is stripped.
	for c := range 128 {
		if lineClass[c]&cHard == 0 {
			continue
		}
		for _, l := range []string{"", "- ", "> ", "1. ", "`", "| ", "\t", "\u00a0"} {
			for _, r := range []string{"", " ", "`", "|", "\r", "\u00a0"} {
				if raw := l + string(rune(c)) + r; !strings.ContainsRune(oldStrip(raw), rune(c)) {
					t.Fatalf("strip(%q) removes hard byte %q", raw, rune(c))
				}
			}
		}
	}
}

// TestClassBytesMatchesLoop: the counting read of classBytes answers as
// the plain loop over lineClass, for lines of every length around the
// 512 bytes where it changes ways, of any bytes.
func TestClassBytesMatchesLoop(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(83, 89))
	for i := range 20_000 {
		n := rng.IntN(1100)
		if i%2 == 0 {
			n = 500 + rng.IntN(24)
		}
		b := make([]byte, n)
		full := i%5 == 0 // one byte only: each count up to its widest
		c0 := "XZEj-:A#"[rng.IntN(8)]
		for k := range b {
			if full {
				b[k] = c0
			} else if rng.IntN(2) == 0 {
				b[k] = byte(rng.IntN(256))
			} else {
				b[k] = "XZEj-:AbC "[rng.IntN(10)]
			}
		}
		raw := string(b)
		var seen uint16
		upper := 0
		for k := 0; k < len(raw); k++ {
			seen |= lineClass[raw[k]]
			upper += int(lineClass[raw[k]] >> 8)
		}
		if s, u := classBytes(raw); s != seen || u != upper {
			t.Fatalf("case %d (%d bytes): classBytes = %x, %d; the loop %x, %d", i, n, s, u, seen, upper)
		}
	}
}
