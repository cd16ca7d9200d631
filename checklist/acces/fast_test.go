package acces

import (
	"encoding/base64"
	"fmt"
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

// TestStatementsSkipIsExact: the bytes the fingerprint scan skips start
// no fingerprint, MD5 pair run or pasted key: the statements of lines
// made of their pieces are the ones every case tried at every byte finds.
func TestStatementsSkipIsExact(t *testing.T) {
	pieces := []string{"SHA256:", "sha256:", "Sha256:", "MD5:", "md5:", "16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48", "16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6",
		"AAAAC3NzaC1lZDI1NTE5AAAAIGv", "QHyhxVFTPXV7frfPeroTrIpbAfkSBW/jMBBuf3WKRSM", "=", " ", ":", "a", "A", "0", "ed25519", "(ED25519)", "é", "-"}
	r := rand.New(rand.NewPCG(17, 18))
	for i := range 100_000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		// One line as statements reads it (the leak mask aside: some of
		// these lines are long base64 and would be left out whole).
		got := &statements{}
		if !strings.Contains(text, ":") && !strings.Contains(text, "AAAA") {
			typeWords(got, 1, text)
		} else {
			if b, changed := (&document{}).scanKeyMaterial(line{no: 1, raw: text}, got, nil); changed {
				typeWords(got, 1, b)
			} else {
				typeWords(got, 1, text)
			}
		}
		want := statementsSlow(text)
		if g, w := fmt.Sprint(got.fingerprints, got.badFP, got.md5, len(got.pasted), got.ed25519, got.otherTypes, got.otherLine), fmt.Sprint(want.fingerprints, want.badFP, want.md5, len(want.pasted), want.ed25519, want.otherTypes, want.otherLine); g != w {
			t.Fatalf("case %d: %q:\n got %s\nwant %s", i, text, g, w)
		}
	}
}

// statementsSlow is the scan of one line as it was, every case tried at
// every byte, into a strings.Builder; the type words are then read by
// typeWords (tested against FieldsFunc above).
func statementsSlow(raw string) *statements {
	st := &statements{}
	rest := raw
	if strings.Contains(raw, ":") || strings.Contains(raw, "AAAA") {
		var out strings.Builder
		i := 0
		for i < len(raw) {
			switch {
			case hasPrefixFold(raw[i:], "sha256:"):
				j := i + len("sha256:")
				k := j
				for k < len(raw) && isB64(raw[k]) {
					k++
				}
				end := k
				for end < len(raw) && raw[end] == '=' {
					end++
				}
				body := raw[j:k]
				if b, err := base64.RawStdEncoding.Strict().DecodeString(body); err == nil && len(b) == 32 && end == k {
					st.fingerprints.note(1, body)
				} else if st.badFP.last != 1 {
					st.badFP.note(1, "")
				}
				out.WriteByte(' ')
				i = end
				continue
			case hasPrefixFold(raw[i:], "md5:") || isHexPairRun(raw[i:]):
				j := i
				if hasPrefixFold(raw[i:], "md5:") {
					j += 4
				}
				if isHexPairRun(raw[j:]) {
					st.md5.note(1, "")
					out.WriteByte(' ')
					i = j + 47
					continue
				}
			case strings.HasPrefix(raw[i:], "AAAA") && (i == 0 || !isB64(raw[i-1])):
				k := i
				for k < len(raw) && (isB64(raw[k]) || raw[k] == '=') {
					k++
				}
				if k-i >= 16 {
					st.pasted = append(st.pasted, parsePasted(raw, i, k, 1))
					out.WriteByte(' ')
					i = k
					continue
				}
			}
			out.WriteByte(raw[i])
			i++
		}
		rest = out.String()
	}
	typeWords(st, 1, rest)
	return st
}

// TestHasPrefixFoldFoldsLettersOnly: the case-blind prefix test folds
// ASCII capitals and nothing else: "SHA256:" and "sha256:" match,
// control bytes that differ from a digit or a colon by the case bit
// (0x12, 0x15, 0x16, 0x1A) do not.
func TestHasPrefixFoldFoldsLettersOnly(t *testing.T) {
	for _, prefix := range []string{"sha256:", "md5:"} {
		for i := range len(prefix) {
			for b := range 256 {
				s := []byte(prefix)
				s[i] = byte(b)
				want := byte(b) == prefix[i] || 'A' <= b && b <= 'Z' && byte(b)|0x20 == prefix[i]
				if got := hasPrefixFold(string(s), prefix); got != want {
					t.Errorf("%q at %d: hasPrefixFold(%q) = %v", prefix, i, s, got)
				}
			}
		}
	}
}
