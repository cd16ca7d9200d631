package acces

import (
	"encoding/base64"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestValidFingerprintMatchesDecode: the copy-free check accepts exactly
// what base64.RawStdEncoding.Strict().DecodeString decodes to 32 bytes,
// stray bits in the last character included.
func TestValidFingerprintMatchesDecode(t *testing.T) {
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 200_000 {
		n := 40 + r.IntN(7)
		b := make([]byte, n)
		for k := range b {
			b[k] = b64[r.IntN(len(b64))]
		}
		s := string(b)
		raw, err := base64.RawStdEncoding.Strict().DecodeString(s)
		if want := err == nil && len(raw) == 32; validFingerprint(s) != want {
			t.Fatalf("case %d: validFingerprint(%q) = %v, DecodeString says %v", i, s, !want, want)
		}
	}
}

// cleanInlineSlow is cleanInline as it was, over a []rune copy: the
// reference for the byte walk.
func cleanInlineSlow(s string) string {
	if !strings.ContainsAny(s, "*_`\"«»“”") {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch r {
		case '*', '`', '"', '«', '»', '“', '”':
			continue
		case '_':
			inWord := i > 0 && i+1 < len(rs) && isWordRune(rs[i-1]) && isWordRune(rs[i+1])
			if !inWord {
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

func inlineSample(r *rand.Rand) string {
	pieces := []string{"*", "**", "_", "__", "`", "\"", "«", "»", "“", "”", "id", "_ed25519_", "romeo", " ", "é", "œ", "1", "-", "\u2028", "\xff", "\xc2", "\xe2\x80", "ǅ", "٣"}
	var b strings.Builder
	for range r.IntN(10) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// TestCleanInlineMatchesSlow: the byte walk removes the same marks.
func TestCleanInlineMatchesSlow(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 200_000 {
		s := inlineSample(r)
		if got, want := cleanInline(s), cleanInlineSlow(s); got != want {
			t.Fatalf("case %d: cleanInline(%q) = %q, was %q", i, s, got, want)
		}
		if got, want := hasInlineMark(s), strings.ContainsAny(s, "*_`\"«»“”"); got != want {
			t.Fatalf("case %d: hasInlineMark(%q) = %v, ContainsAny says %v", i, s, got, want)
		}
	}
}

func FuzzCleanInlineMatchesSlow(f *testing.F) {
	f.Add("~/.ssh/id_ed25519_romeo.pub et _emphase_ « nœud »")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // the validator refuses a file that is not UTF-8 before any rule reads it
		}
		if got, want := cleanInline(s), cleanInlineSlow(s); got != want {
			t.Fatalf("cleanInline(%q) = %q, was %q", s, got, want)
		}
	})
}

// TestIsWordRuneASCII: the ASCII shortcut answers as the tables do, for
// every rune.
func TestIsWordRuneASCII(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := isWordRune(r), unicode.IsLetter(r) || unicode.IsDigit(r); got != want {
			t.Fatalf("isWordRune(%U) = %v, want %v", r, got, want)
		}
	}
}

// TestTypeWordsMatchFieldsFunc: the byte walk over a line names the
// types that strings.FieldsFunc and strings.ToLower named.
func TestTypeWordsMatchFieldsFunc(t *testing.T) {
	pieces := []string{"ed25519", "ED25519", "(ED25519)", "ssh-rsa", "RSA", "id_ed25519_romeo", "ecdsa-sha2-nistp256", "sk-ssh-ed25519", "DSA", "ssh-dss", " ", "é", "·", "_", "-", "ǅrsa", "rsaé", "ecdsa-sk", "x"}
	r := rand.New(rand.NewPCG(13, 14))
	for i := range 100_000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		line := b.String()
		var want []string
		wantEd := false
		for _, w := range strings.FieldsFunc(line, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
		}) {
			switch tw := typeWordFold(strings.ToLower(w)); tw {
			case "":
			case "ed25519":
				wantEd = true
			default:
				// Each type once, in the order first named: a file of
				// 100 000 "RSA" keeps one.
				if !slices.Contains(want, tw) {
					want = append(want, tw)
				}
			}
		}
		if !mayNameType(line) {
			want, wantEd = nil, false
		}
		st := &statements{}
		typeWords(st, 1, line)
		if st.ed25519 != wantEd || strings.Join(st.otherTypes, ",") != strings.Join(want, ",") {
			t.Fatalf("case %d: %q: got %v %v, want %v %v", i, line, st.ed25519, st.otherTypes, wantEd, want)
		}
	}
}

// pathTokensSlow is pathTokens as it was, over strings.FieldsFunc.
func pathTokensSlow(raw string) []string {
	if !strings.ContainsAny(raw, `/\`) {
		return nil
	}
	var out []string
	for _, f := range strings.FieldsFunc(raw, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '`' || r == '"' || r == '\'' || r == '(' || r == ')' ||
			r == '<' || r == '>' || r == '[' || r == ']' || r == '|' || r == '*' || r == ',' || r == ';' || r == '«' || r == '»' || r == '\u00a0'
	}) {
		f = strings.TrimRight(f, ".:!?")
		if i := rootIndex(f); i > 0 {
			f = f[i:]
		}
		if strings.ContainsAny(f, `/\`) {
			out = append(out, f)
		}
	}
	return out
}

// TestPathTokensMatchSlow: the word walk finds the paths FieldsFunc found.
func TestPathTokensMatchSlow(t *testing.T) {
	pieces := []string{"~/.ssh/id_ed25519_romeo.pub", "C:\\Users\\kim\\.ssh\\x.pub", "Clé:~/.ssh/x.pub", "$HOME/.ssh/id", " ", "\t", "`", "\"", "'", "(", ")", "<", ">", "[", "]", "|", "*", ",", ";", "«", "»", "\u00a0", ".", ":", "!", "?", "/", "\\", "é", "x", "%USERPROFILE%\\.ssh"}
	r := rand.New(rand.NewPCG(15, 16))
	for i := range 200_000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		line := b.String()
		if got, want := strings.Join(pathTokens(line), "\x00"), strings.Join(pathTokensSlow(line), "\x00"); got != want {
			t.Fatalf("case %d: pathTokens(%q) = %q, was %q", i, line, got, want)
		}
	}
}
