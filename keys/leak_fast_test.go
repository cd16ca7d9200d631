package keys

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// fragTokenSlow is fragToken as it was before it learnt to walk words in
// place: the reference the faster one must agree with on every line.
func fragTokenSlow(line string, min int) string {
	best := ""
	seg := func(s string) {
		words := strings.Fields(s)
		if len(words) == 0 {
			return
		}
		for _, w := range words {
			if len(w) > len(best) && len(w) >= min {
				best = w
			}
		}
		if len(words) > 1 && len(words[0]) >= 4 && len(words[0]) <= 16 {
			w0 := len(words[0])
			for k, w := range words {
				if len(w) != w0 && !(k == len(words)-1 && len(w) < w0) {
					return
				}
			}
			j := strings.Join(words, "")
			if len(j) > len(best) && len(j) >= min {
				best = j
			}
		}
	}
	from := 0
	for k := 0; k <= len(line); k++ {
		if k == len(line) || !(isB64Byte(line[k]) && line[k] != '=' || isSpaceByte(line[k])) {
			seg(line[from:k])
			from = k + 1
		}
	}
	if best == "" || allHex(best) || !mixedCase(best) {
		return ""
	}
	return best
}

// genLine makes lines shaped like the ones fragToken and classify meet:
// base64 runs of any width, re-spaced bodies, fingerprints, markers,
// headers, list marks and prose, in any mix.
func genLine(r *rand.Rand) string {
	pieces := []string{
		" ", "  ", "\t", "\v", "\f", "=", ":", "\"", "'", "`", "> ", "- ", "* ", "1. ", "-----", "---", "|", "\r",
		"BEGIN", "END", "begin", "end", " PRIVATE", " KEY", "PRIVATE KEY", "OPENSSH", "RSA", "PuTTY-User-Key-File-3: ssh-ed25519",
		"Proc-Type: 4,ENCRYPTED", "DEK-Info: AES", "Comment: x", "Subject:", "X-Foo", "x-bar:", "Private-Lines: 5", "Private-MAC: ab",
		"Encryption: none", "Public-Lines: 2", "Key-Derivation:", "Argon2-Salt: 0a", "SHA256:", "MD5:", "Clé : ~/.ssh/id_ed25519_romeo.pub",
		"Connexion uniquement vers le nœud", "b3BlbnNzaC1rZXktdjE", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "AAAAC3NzaC1lZDI1NTE5AAAA",
		"é", "œ", "\u00a0", "\u200b",
	}
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var b strings.Builder
	for range r.IntN(8) + 1 {
		switch r.IntN(4) {
		case 0:
			b.WriteString(pieces[r.IntN(len(pieces))])
		case 1: // a random base64 run
			for range r.IntN(80) {
				b.WriteByte(b64[r.IntN(len(b64))])
			}
		case 2: // a body re-spaced every w characters, the last piece shorter or not
			w := r.IntN(18) + 1
			for k := range r.IntN(8) + 1 {
				if k > 0 {
					b.WriteString(" ")
				}
				n := w
				if r.IntN(3) == 0 {
					n = r.IntN(w + 3)
				}
				for range n {
					b.WriteByte(b64[r.IntN(len(b64))])
				}
			}
		default: // hexadecimal or one-case runs
			const hex = "0123456789abcdefABCDEF"
			for range r.IntN(70) {
				b.WriteByte(hex[r.IntN(len(hex))])
			}
		}
	}
	return b.String()
}

// TestFragTokenMatchesSlow: the in-place fragToken returns what the
// strings.Fields one returned, for every minimum the callers use.
func TestFragTokenMatchesSlow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200_000 {
		line := genLine(r)
		for _, min := range []int{fragTail, fragTail + 4, fragMin} {
			if got, want := fragToken(line, min), fragTokenSlow(line, min); got != want {
				t.Fatalf("case %d: fragToken(%q, %d) = %q, was %q", i, line, min, got, want)
			}
		}
	}
}

func FuzzFragTokenMatchesSlow(f *testing.F) {
	f.Add("abcd EFGH ijkl MNop qr", 12)
	f.Add("echo \"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\"", 44)
	f.Fuzz(func(t *testing.T, line string, min int) {
		min = 1 + (min%100+100)%100
		if got, want := fragToken(line, min), fragTokenSlow(line, min); got != want {
			t.Fatalf("fragToken(%q, %d) = %q, was %q", line, min, got, want)
		}
	})
}

// TestMarkerShapeIsNecessary: a line markerShape turns away is one that
// marker would have left as it was; so skipping it changes no verdict.
func TestMarkerShapeIsNecessary(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 100_000 {
		text := genLine(r) + "\n" + genLine(r) + "\n" + genLine(r) + "\n"
		d := newDetector(text, nil)
		for j := range d.ls {
			k := compact(nil, d.line(j))
			if markerShape(k) {
				continue
			}
			c := d.ls[j]
			d.marker(j, &d.ls[j], string(k), nil)
			if d.ls[j] != c {
				t.Fatalf("case %d: line %q (%q) turned away by markerShape, but marker makes it %+v", i, d.line(j), k, d.ls[j])
			}
		}
	}
}

// TestContainsAfterMatchesConcat: containsAfter answers as Contains on
// the concatenation, overlapping occurrences and empty tokens included.
func TestContainsAfterMatchesConcat(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	alpha := []string{"S", "H", "A", "2", "5", "6", ":", "SHA256:", "MD5:", "ab", "a", "b"}
	gen := func(n int) string {
		var b strings.Builder
		for range r.IntN(n) {
			b.WriteString(alpha[r.IntN(len(alpha))])
		}
		return b.String()
	}
	for i := range 200_000 {
		s, tok := gen(12), gen(3)
		for _, prefix := range []string{"SHA256:", "MD5:"} {
			if got, want := containsAfter(s, prefix, tok), strings.Contains(s, prefix+tok); got != want {
				t.Fatalf("case %d: containsAfter(%q, %q, %q) = %v, want %v", i, s, prefix, tok, got, want)
			}
		}
	}
}
