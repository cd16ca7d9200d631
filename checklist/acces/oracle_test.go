package acces

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys/signing"
)

// oraclePieces are what the date, path, statement and fingerprint rules
// read, in every form acces-md.md names and the broken ones around them,
// with the decoration and the line ends the reader strips.
var oraclePieces = []string{
	// Dates, labels and the session.
	"2026-10-20", "2026-1-5", "2026-10-16", "2026-11-05", "2026-11-06", "2027-01-01", "2026-02-30", "2026-13-01", "0000-01-01", "2026-10-2x", "2026--10",
	"20/10/2026", "2/9/2026", "20 / 10 / 2026", "31/02/2026", "5/11/2026", "99/99/9999", "20/10/26", "1/1/2026/1",
	"20 octobre 2026", "1er octobre 2026", "mardi 20 octobre 2026", "20 Octobre 2026", "5 novembre 2026", "29 février 2026", "28 fevrier 2026", "1er août 2026", "1ER AOUT 2026", "32 octobre 2026", "octobre", "2026",
	"Date de la demande : ", "Date : ", "date", "Demandé le ", "demande", "vérifié ", "Vérification", "ouvert le ", "OUVERT", "séance du ", "seance", "pour la séance du 5 novembre 2026", "Séance",
	"1", "12", "123456", "1er", "/", "-", " ", "  ", "\t", "\u00a0", ":", ".", ",", "é", "e\u0301", "œ", "’",
	// Paths of every OS form.
	"~/.ssh/id_ed25519_romeo.pub", "~\\.ssh\\id_ed25519_romeo.pub", "$HOME/.ssh/id_ed25519_romeo", "${HOME}/.ssh/a.pub", "%USERPROFILE%\\.ssh\\id_ed25519_romeo.pub",
	"C:\\Users\\kim\\.ssh\\id_rsa", "c:/Users/kim/.ssh/k.pub", "/home/kim/.ssh/id_ed25519", ".ssh/a.pub", ".ssh\\id_x", "Clé:~/.ssh/x.pub", "(~/.ssh/id_ed25519_romeo.pub)",
	"id_ed25519", "id_", ".pub", "/.pub", "a/b", "\\", "x.pub.", "~/.ssh/id_ed25519_romeo.pub?", "«~/.ssh/a.pub»", "[k](~/.ssh/k.pub)",
	// Fingerprints, types, pasted keys.
	fpA, fpB, "SHA256:abc", "sha256:" + fpA[7:], fpA + "=", fpA + "x", "SHA256:", "SHA256:" + strings.Repeat("A", 43), "SHA256:" + strings.Repeat("/", 42) + "B",
	"MD5:01:23:45:67:89:ab:cd:ef:01:23:45:67:89:ab:cd:ef", "16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48", "16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6",
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl", "AAAAAAAAAAAAAAAAAAAA", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9ok",
	"256", "(ED25519)", "ED25519", "ed25519", "ssh-ed25519", "RSA", "(RSA)", "ssh-rsa", "ECDSA", "ecdsa-sha2-nistp256", "ed25519-sk", "sk-ssh-ed25519", "DSA", "ssh-dss", "id_ed25519_romeo", "rsa2048",
	// Markdown and text around them.
	"# ", "## Demande du ", "### ", "#", "> ", ">", "- ", "* ", "1. ", "| ", " | ", "|", "|---|---|", "`", "``", "**", "_", "*", "\"", "« ", " »",
	"Connexion uniquement vers le nœud de login indiqué par les organisateurs.", "pret:signature", "<!-- pret:signature -->", "-----BEGIN SSH SIGNATURE-----", "```",
	"-----BEGIN OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ",
}

var oracleEnds = []string{"\n", "\n", "\n", "\r\n", "\r", ""}

// oracleLine is one line of 0 to 8 pieces.
func oracleLine(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(9) {
		b.WriteString(oraclePieces[rng.IntN(len(oraclePieces))])
		if rng.IntN(3) == 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// oracleFile is a generated acces.md: generated lines, or a real page
// (pret's template, the test pages, the scale corpus) with lines
// replaced, inserted, removed, a piece put inside a line, a byte changed;
// then at random CRLF, a BOM, NFD accents, a table or a quote around it.
func oracleFile(rng *rand.Rand) []byte {
	var lines []string
	switch rng.IntN(4) {
	case 0:
		for range 1 + rng.IntN(8) {
			lines = append(lines, oracleLine(rng))
		}
	default:
		var page string
		switch rng.IntN(4) {
		case 0:
			page = good
		case 1:
			page = string(sampleAccess(rng.IntN(40)))
		case 2:
			page = "- Date de la demande : 2026-10-16\n- Clé : ~/.ssh/id_ed25519_romeo.pub\n- 256 " + fpB + " seance-novembre (ED25519)\n\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n"
		default:
			page = "# Accès\n\n## Demande du compte\n\nLe 1er octobre 2026.\n\n## Clé\n\n$HOME/.ssh/id_ed25519_romeo.pub\n\n`256 " + fpA + " (ED25519)`\n"
		}
		lines = strings.SplitAfter(page, "\n")
		for range rng.IntN(4) {
			i := rng.IntN(len(lines))
			switch rng.IntN(5) {
			case 0:
				lines[i] = oracleLine(rng) + "\n"
			case 1:
				lines = append(lines[:i], append([]string{oracleLine(rng) + "\n"}, lines[i:]...)...)
			case 2:
				lines = append(lines[:i], lines[i+1:]...)
			case 3:
				if l := lines[i]; len(l) > 0 {
					k := rng.IntN(len(l) + 1)
					lines[i] = l[:k] + oraclePieces[rng.IntN(len(oraclePieces))] + l[k:]
				}
			default:
				if l := lines[i]; len(l) > 0 {
					b := []byte(l)
					b[rng.IntN(len(b))] = "0 /:-#|>`x9é"[rng.IntN(12)]
					lines[i] = string(b)
				}
			}
			if len(lines) == 0 {
				lines = []string{""}
			}
		}
	}
	for i, l := range lines {
		if !strings.HasSuffix(l, "\n") {
			lines[i] = l + oracleEnds[rng.IntN(len(oracleEnds))]
		}
	}
	text := strings.Join(lines, "")
	switch rng.IntN(10) {
	case 0:
		text = strings.ReplaceAll(text, "\n", "\r\n")
	case 1:
		text = "\ufeff" + text
	case 2:
		text = strings.NewReplacer("é", "e\u0301", "è", "e\u0300").Replace(text)
	case 3:
		text = "| a | b |\n|---|---|\n| " + strings.ReplaceAll(strings.TrimRight(text, "\n"), "\n", " |\n| ") + " |\n"
	case 4:
		text = "> " + strings.ReplaceAll(text, "\n", "\n> ")
	case 5:
		text = strings.ToUpper(text)
	}
	return []byte(text)
}

// oracleRules are the rule sets the comparisons run under.
func oracleRules(t testing.TB) []Rules {
	pub := ssh.MarshalAuthorizedKey(fastSigner(t).PublicKey())
	strict := rules
	strict.RequireSignature = true
	bare := Rules{}
	beside := rules
	beside.Beside = &PubFile{Name: "id_ed25519_romeo.pub", Data: pub}
	broken := rules
	broken.Beside = &PubFile{Name: "x.pub", Data: []byte("ssh-ed25519 AAAA")}
	late := rules
	late.SessionDay = testenv.Day("2026-10-16")
	return []Rules{rules, strict, bare, beside, broken, late}
}

// sameResult fails t when got differs from the oracle's in anything a
// caller reads.
func sameResult(t testing.TB, data []byte, rs Rules, got, want *Result) {
	t.Helper()
	if !reflect.DeepEqual(got.Problems, want.Problems) || got.Fingerprint != want.Fingerprint || got.FingerprintLine != want.FingerprintLine ||
		got.PubPath != want.PubPath || got.Date != want.Date || got.Status != want.Status || got.SignedBy != want.SignedBy || got.SignatureFix != want.SignatureFix {
		t.Fatalf("%q (rules %+v):\n got %+v\nwant %+v", data, rs, *got, *want)
	}
}

// oracleSigned are signed files and their breakages: the signature rule
// and the statements meet the marker and the armour.
func oracleSigned(t testing.TB) [][]byte {
	s := fastSigner(t)
	var out [][]byte
	for _, text := range []string{fileFor(s), good, "Le 1er octobre 2026, ~/.ssh/a.pub\n"} {
		b := signed(t, s, text)
		out = append(out, b, bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")), append(bytes.Clone(b), "text after\n"...))
		n := len(signing.SplitSigned(b).Message)
		out = append(out, append([]byte("x"), b...), b[:n+len(signing.SigMarker)+1], b[:len(b)-40])
		v := bytes.Clone(b)
		v[3] ^= 1
		out = append(out, v, append([]byte(signing.SigMarker+"\n"), b...))
	}
	return out
}

// TestValidateMatchesOracle: over generated files (every date, path and
// fingerprint form, broken ones, signatures, CRLF, BOM, NFD, tables,
// quotes) and every rule set, Validate finds what the rules as they were
// found, problem for problem, message for message.
func TestValidateMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	sets := oracleRules(t)
	var files [][]byte
	for range 30_000 {
		files = append(files, oracleFile(rng))
	}
	for _, tok := range lineTokens {
		files = append(files, []byte(strings.Repeat(tok, 40)), []byte(strings.Repeat(tok+"\n", 12)))
	}
	files = append(files, oracleSigned(t)...)
	// Files past the forms' cache (maxFormLines, maxFormBytes): read line
	// by line, with the date rule's skip of lines without a digit.
	var large [][]byte
	for k := range 12 {
		var b strings.Builder
		for lines := 0; k%2 == 0 && lines <= maxFormLines || k%2 == 1 && b.Len() <= maxFormBytes; lines += 21 {
			b.WriteString(oracleLine(rng) + "\n")
			if k%2 == 0 {
				b.WriteString(strings.Repeat("\n", 20))
			}
		}
		large = append(large, append([]byte(b.String()), oracleFile(rng)...), append(oracleFile(rng), b.String()...))
	}
	for _, data := range large {
		sameResult(t, data, rules, Validate(data, rules), validateOracle(data, rules))
	}
	for i, data := range files {
		for j, rs := range sets {
			if (i+j)%2 == 1 && i < 30_000 {
				continue // every file under half the sets, every set over half the files
			}
			sameResult(t, data, rs, Validate(data, rs), validateOracle(data, rs))
		}
	}
}

// FuzzValidateMatchesOracle: the same property on any bytes.
func FuzzValidateMatchesOracle(f *testing.F) {
	rng := rand.New(rand.NewPCG(43, 44))
	for range 40 {
		f.Add(oracleFile(rng))
	}
	for _, b := range oracleSigned(f) {
		f.Add(b)
	}
	sets := oracleRules(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, rs := range sets {
			sameResult(t, data, rs, Validate(data, rs), validateOracle(data, rs))
		}
	})
}

// recorderOps is a random run of add, countMore and noteCapped calls.
type recorderOp struct {
	code string
	n    int // countMore's n; 0 for add
	line int
	args bool
}

var recorderCodes = []string{"bad-date", "bad-fingerprint", "bad-public-key", "fingerprint-mismatch", "wrong-type", "missing-date", "altered-sentence", "a", "b%", "c", "d", "e", "f"}

func recorderRun(ops []recorderOp) (got *Result, want *resultOracle) {
	got, want = &Result{}, &resultOracle{}
	for _, op := range ops {
		switch {
		case op.n != 0:
			got.countMore(op.code, op.n)
			want.countMore(op.code, op.n)
		case op.args:
			got.add(op.code, checklist.SevError, op.line, "la %s à %d, 100%% : %q", op.code, op.line, "x")
			want.add(op.code, checklist.SevError, op.line, "la %s à %d, 100%% : %q", op.code, op.line, "x")
		case op.line%3 == 0:
			// A fixed message with a literal per cent: fmt would turn
			// %% into %, and so must the recorder.
			got.add(op.code, checklist.SevWarning, op.line, "100%% fixe")
			want.add(op.code, checklist.SevWarning, op.line, "100%% fixe")
		default:
			got.add(op.code, checklist.SevWarning, op.line, "message fixe")
			want.add(op.code, checklist.SevWarning, op.line, "message fixe")
		}
	}
	got.noteCapped()
	want.noteCapped()
	return got, want
}

// TestRecorderMatchesOracle: the problems kept, their messages and the
// "(et N autres …)" notes are those of the map recorder, over random
// runs of calls that pass the cap per code, alone and together.
func TestRecorderMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	for i := range 20_000 {
		codes := recorderCodes[:1+rng.IntN(len(recorderCodes))]
		ops := make([]recorderOp, rng.IntN(60))
		for k := range ops {
			ops[k] = recorderOp{code: codes[rng.IntN(len(codes))], line: rng.IntN(40), args: rng.IntN(2) == 0}
			if rng.IntN(8) == 0 {
				ops[k].n = rng.IntN(30) - 5
			}
		}
		got, want := recorderRun(ops)
		if !reflect.DeepEqual(got.Problems, want.Problems) {
			t.Fatalf("case %d %v:\n got %v\nwant %v", i, ops, got.Problems, want.Problems)
		}
	}
}

// FuzzRecorderMatchesOracle: the same property on any run, each byte an
// operation.
func FuzzRecorderMatchesOracle(f *testing.F) {
	f.Add([]byte("aaaaaaaaaaaaaaaaabbbb\xf0ccc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var ops []recorderOp
		for i, c := range b {
			op := recorderOp{code: recorderCodes[int(c)%len(recorderCodes)], line: i, args: c&0x80 != 0}
			if c&0x70 == 0x70 {
				op.n = int(c&0x0f) - 2
			}
			ops = append(ops, op)
		}
		got, want := recorderRun(ops)
		if !reflect.DeepEqual(got.Problems, want.Problems) {
			t.Fatalf("%v:\n got %v\nwant %v", ops, got.Problems, want.Problems)
		}
	})
}

func ExampleResult_noteCapped() {
	r := &Result{}
	for i := range 12 {
		r.add("bad-date", checklist.SevError, i+1, "date %d", i+1)
	}
	r.noteCapped()
	fmt.Println(len(r.Problems), r.Problems[9].Message)
	// Output: 10 date 10 (et 2 autres problèmes bad-date plus loin)
}

// TestDecodeFingerprintMatchesDecodeString: the array decoding reads
// every string as base64.RawStdEncoding.DecodeString did after the
// "SHA256:" prefix, padding, line breaks and bad characters included.
func TestDecodeFingerprintMatchesDecodeString(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	alphabet := "ABCxyz019+/=\n\r-_ é"
	for i := range 100_000 {
		b := []byte(fpA)
		switch rng.IntN(4) {
		case 0:
			b = b[:rng.IntN(len(b)+1)]
		case 1:
			b[7+rng.IntN(43)] = alphabet[rng.IntN(len(alphabet))]
		case 2:
			k := rng.IntN(len(b) + 1)
			b = append(b[:k], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[k:]...)...)
		}
		fp := string(b)
		got, gotOK := decodeFingerprint(fp)
		var want [32]byte
		raw, err := base64.RawStdEncoding.DecodeString(strings.TrimPrefix(fp, "SHA256:"))
		wantOK := err == nil && len(raw) == 32 && fp != ""
		if wantOK {
			copy(want[:], raw)
		}
		if gotOK != wantOK || got != want {
			t.Fatalf("case %d: %q: got %v %x, want %v %x", i, fp, gotOK, got, wantOK, want)
		}
	}
}

// TestFoldMakesNoDigit: of every rune, Fold makes an ASCII digit only of
// an ASCII digit. Fold maps rune by rune (spaces aside), so a folded line
// has a digit only where its raw text had one: the necessity the date
// rule's line skip rests on.
func TestFoldMakesNoDigit(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		isDigit := '0' <= r && r <= '9'
		if f := checklist.Fold("a" + string(r) + "b"); hasDigit(f) != isDigit {
			t.Fatalf("Fold(%q) = %q", string(r), f)
		}
	}
}

// TestDateLineSkipIsExact: a line the date rule skips without reading
// its forms (no '#', no digit) is, read into its forms, blank or neither
// a heading nor a line with a digit: the rule would have passed it by.
func TestDateLineSkipIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 50))
	for i := range 20_000 {
		data := oracleFile(rng)
		if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
			continue
		}
		d := readLines(string(data))
		for k := 0; k+1 < len(d.starts); k++ {
			if mayDateOrHeading(d.rawLine(k).raw) {
				continue
			}
			if l := d.form(k); !l.blank && (l.heading || hasDigit(l.folded)) {
				t.Fatalf("case %d, line %d of %q: skipped, yet heading=%v folded %q", i, k+1, data, l.heading, l.folded)
			}
		}
	}
}

// TestPathSepBytes: at the first byte of every rune, pathSepLen is the
// rune's length when the rune separates path words and 0 otherwise; at
// a byte that cannot start a rune (a continuation byte, an invalid
// byte), 0, as DecodeRuneInString reads it as a one-byte RuneError.
func TestPathSepBytes(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		want := 0
		if isPathSepOracle(r) {
			want = utf8.RuneLen(r)
		}
		if got := pathSepLen(string(r)+"x", 0); got != want {
			t.Fatalf("pathSepLen(%q) = %d, want %d", string(r), got, want)
		}
	}
	for c := 0x80; c < 0x100; c++ {
		for _, next := range []byte{0, 'a', 0x80, 0xa0, 0xab, 0xbb, 0xc2} {
			s := string([]byte{byte(c), next})
			if r, n := utf8.DecodeRuneInString(s); n == 1 && r == utf8.RuneError && pathSepLen(s, 0) != 0 {
				t.Fatalf("pathSepLen(%q) = %d on an invalid byte", s, pathSepLen(s, 0))
			}
		}
	}
}

// pathWalk is every (token, next) nextPathToken-like f gives over raw,
// and the tokens alone.
func pathWalk(raw string, f func(string, int) (string, int, bool)) (steps, toks []string) {
	for at := 0; ; {
		tok, next, ok := f(raw, at)
		steps = append(steps, fmt.Sprint(tok, next, ok))
		if !ok {
			return steps, toks
		}
		toks = append(toks, tok)
		at = next
	}
}

// samePathWalk fails t when nextPathToken, or one pathScan over the
// whole line (as checkPath reads it), differs from the oracle.
func samePathWalk(t *testing.T, raw string) {
	t.Helper()
	got, _ := pathWalk(raw, nextPathToken)
	want, wantToks := pathWalk(raw, nextPathTokenOracle)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %q\nwant %q", raw, got, want)
	}
	if toks := pathTokens(raw); strings.Join(toks, "\x00") != strings.Join(wantToks, "\x00") {
		t.Fatalf("%q: pathTokens %q, want %q", raw, toks, wantToks)
	}
}

// FuzzPathTokensMatchOracle: on any string, valid UTF-8 or not, the byte
// walk gives the tokens and resume points of the rune walk.
func FuzzPathTokensMatchOracle(f *testing.F) {
	for _, p := range oraclePieces {
		f.Add(p + " «" + p + "» \xc2\xa0" + p)
	}
	f.Add("\xe0\xc2\xab~/a.pub\xff/x\xc2")
	f.Fuzz(func(t *testing.T, raw string) {
		samePathWalk(t, raw)
	})
}

// TestPathTokensMatchOracle: the same over generated lines of path
// pieces, separators and bytes that are not UTF-8.
func TestPathTokensMatchOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 56))
	extra := []string{"«", "»", "\u00a0", "\xc2", "\xab", "\xe0\xc2\xbb", "\xff", "é", "/", "\\", "x", ".", "?"}
	for range 100_000 {
		var b strings.Builder
		for range rng.IntN(10) {
			if rng.IntN(2) == 0 {
				b.WriteString(extra[rng.IntN(len(extra))])
			} else {
				b.WriteString(oraclePieces[rng.IntN(len(oraclePieces))])
			}
		}
		samePathWalk(t, b.String())
	}
}

// TestScanKeyMaterialMatchesOracle: over lines of key pieces (with the
// 0x1A byte that hasPrefixFold reads as a colon), the scan finds the
// statements the byte-by-byte scan found and blanks the same text.
func TestScanKeyMaterialMatchesOracle(t *testing.T) {
	pieces := []string{"SHA256:", "sha256:", "SHA256\x1a", "sha\x12\x15\x16:", "MD5:", "md5\x1a", "md\x15:", "16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48", "16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6",
		"AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl", "ssh-ed25519 ", "AAAA", "AAAAA", "xAAAA", "QHyhxVFTPXV7frfPeroTrIpbAfkSBW/jMBBuf3WKRSM", fpA[7:], "=", " ", ":", "\x1a", "a", "A", "0", "ed25519", "(RSA)", "é", "-", "ab:", "a:b:"}
	rng := rand.New(rand.NewPCG(57, 58))
	for i := range 200_000 {
		var b strings.Builder
		for range rng.IntN(10) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		raw := b.String()
		l := line{no: 3, raw: raw}
		got, want := &statements{}, &statementsOracle{}
		blanked, changed := (&document{}).scanKeyMaterial(l, got, nil)
		if !changed {
			blanked = []byte(raw)
		}
		wantBlanked := (&document{}).scanKeyMaterialOracle(l, want, nil)
		g := fmt.Sprint(got.fingerprints.n, got.fingerprints.lines, got.fingerprints.first, got.badFP.n, got.md5.n, got.pasted, got.badPasted, len(got.distinct))
		w := fmt.Sprint(want.fingerprints.n, want.fingerprints.lines, want.fingerprints.first, want.badFP.n, want.md5.n, want.pasted, want.badPasted, len(want.distinct))
		if g != w || string(blanked) != string(wantBlanked) {
			t.Fatalf("case %d %q:\n got %s %q\nwant %s %q", i, raw, g, blanked, w, wantBlanked)
		}
	}
}

// typeWordCases are the words typeWordBytes names, read off its source:
// the filters in front of it are checked against what it names, not
// against a copy of its list.
func typeWordCases(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "fingerprint.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	ast.Inspect(f, func(n ast.Node) bool {
		if fn, ok := n.(*ast.FuncDecl); ok && fn.Name.Name != "typeWordBytes" {
			return false
		}
		if cc, ok := n.(*ast.CaseClause); ok {
			for _, e := range cc.List {
				if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					w, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatal(err)
					}
					words = append(words, w)
				}
			}
		}
		return true
	})
	if len(words) < 10 {
		t.Fatalf("typeWordBytes' cases not found: %q", words)
	}
	return words
}

// TestTypeWordFilterCoversEveryCase: every word typeWordBytes names, in
// any case, passes mayBeTypeWord, and a line holding it, whatever is
// around it, passes mayNameType: the two filters skip only words and
// lines that name no type.
func TestTypeWordFilterCoversEveryCase(t *testing.T) {
	rng := rand.New(rand.NewPCG(59, 60))
	around := []string{"", " ", "(", ")", "x", "é", "-", "_", "\x12", "2", "5", "s"}
	for _, w := range typeWordCases(t) {
		if typeWordBytes([]byte(w)) == "" {
			t.Fatalf("%q is a case of typeWordBytes yet names nothing", w)
		}
		for range 200 {
			b := []byte(w)
			for k := range b {
				if rng.IntN(2) == 0 && 'a' <= b[k] && b[k] <= 'z' {
					b[k] -= 'a' - 'A'
				}
			}
			if !mayBeTypeWord(b[0], len(b)) {
				t.Fatalf("mayBeTypeWord skips %q", b)
			}
			line := around[rng.IntN(len(around))] + string(b) + around[rng.IntN(len(around))]
			if !mayNameType(line) || !mayNameType([]byte(line)) || !mayNameTypeString(line) {
				t.Fatalf("mayNameType skips %q", line)
			}
		}
	}
}

// TestTypeWordsMatchOracle: over lines of type words in every case,
// near-misses and separators, typeWords notes what it noted before the
// filters.
func TestTypeWordsMatchOracle(t *testing.T) {
	pieces := append(typeWordCases(t), "ED25519", "(ED25519)", "Rsa", "DSS", "id_ed25519_romeo", "x", " ", "-", "_", "é", "255", "rs", "sa", "ed2551", "ed255199", "ssh-ed25519-cert-v01", "\x12", ":")
	rng := rand.New(rand.NewPCG(61, 62))
	for i := range 100_000 {
		var b strings.Builder
		for range rng.IntN(8) {
			p := pieces[rng.IntN(len(pieces))]
			if rng.IntN(3) == 0 {
				p = strings.ToUpper(p)
			}
			b.WriteString(p)
		}
		line := b.String()
		got, want := &statements{}, &statementsOracle{}
		typeWords(got, 2, line)
		typeWordsOracle(want, 2, line)
		if fmt.Sprint(got.ed25519, got.otherTypes, got.otherLine) != fmt.Sprint(want.ed25519, want.otherTypes, want.otherLine) {
			t.Fatalf("case %d %q: got %v %v %d, want %v %v %d", i, line, got.ed25519, got.otherTypes, got.otherLine, want.ed25519, want.otherTypes, want.otherLine)
		}
	}
}

// TestRootIndexMatchesOracle: the one-pass look finds the root the
// eight searches and the drive-letter loop found.
func TestRootIndexMatchesOracle(t *testing.T) {
	pieces := []string{"~/", "~\\", "~", "$HOME", "$HOM", "${HOME}", "${HOME", "%USERPROFILE%", "%USERPROFILE", ".ssh/", ".ssh\\", ".ssh", "/", "\\", "C:", "c:\\", "z:/", "1:/", ":/", ":", "x", "é", "Clé:", "."}
	rng := rand.New(rand.NewPCG(63, 64))
	for i := range 200_000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		f := b.String()
		if got, want := rootIndex(f), rootIndexOracle(f); got != want {
			t.Fatalf("case %d: rootIndex(%q) = %d, want %d", i, f, got, want)
		}
	}
}

// TestIsoDayMatchesFormat: the day written by hand, made or found in
// dayStrings, is time.Time.Format's, for every day of the years a file
// can state at the edges and around now, over and over (slots replaced).
func TestIsoDayMatchesFormat(t *testing.T) {
	for range 2 {
		for _, y := range []int{0, 1, 99, 999, 1000, 1999, 2000, 2024, 2025, 2026, 2027, 2100, 2500, 9999} {
			for m := 1; m <= 12; m++ {
				for d := 1; d <= 31; d++ {
					tm, ok := dates.Civil(y, m, d)
					if !ok {
						continue
					}
					if got, want := isoDay(y, m, d), tm.Format("2006-01-02"); got != want {
						t.Fatalf("isoDay(%d, %d, %d) = %q, want %q", y, m, d, got, want)
					}
				}
			}
		}
	}
}

// TestIsoDayConcurrent: validators in parallel share dayStrings; each
// gets its own day, whatever the others put in the slots (go test
// -race checks the sharing itself).
func TestIsoDayConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 65))
			for range 20_000 {
				y, m, d := 2000+rng.IntN(200), 1+rng.IntN(12), 1+rng.IntN(28)
				if got, want := isoDay(y, m, d), fmt.Sprintf("%04d-%02d-%02d", y, m, d); got != want {
					t.Errorf("isoDay(%d, %d, %d) = %q, want %q", y, m, d, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestMayNameTypeStringMatches: the look by IndexByte answers as the
// byte walk, on lines of type words, their pieces and other text.
func TestMayNameTypeStringMatches(t *testing.T) {
	pieces := []string{"rsa", "RSA", "dss", "Dsa", "255", "25", "5", "2", "s", "S", "r", "d", "a", "\x12", "x", " ", "é", "ed25519", "ds", "sa"}
	rng := rand.New(rand.NewPCG(66, 67))
	for i := range 300_000 {
		var b strings.Builder
		for range rng.IntN(7) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := mayNameTypeString(s), mayNameType(s); got != want {
			t.Fatalf("case %d: mayNameTypeString(%q) = %v, mayNameType %v", i, s, got, want)
		}
	}
}

// FuzzMayNameTypeStringMatches: the same on any string.
func FuzzMayNameTypeStringMatches(f *testing.F) {
	f.Add("ssh-rsa ed25519 DSA")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := mayNameTypeString(s), mayNameType(s); got != want {
			t.Fatalf("mayNameTypeString(%q) = %v, mayNameType %v", s, got, want)
		}
	})
}

// BenchmarkRulesOldNew measures each rule of this file's oracles beside
// the current one, on the pages of BenchmarkValidatePages, their forms
// read once (as Validate shares them):
//
//	go test ./checklist/acces -run '^$' -bench RulesOldNew -benchmem
func BenchmarkRulesOldNew(b *testing.B) {
	pages := benchPages(b, 1000, true)
	rs := Rules{KeyName: "id_ed25519_romeo.pub", SessionDay: testenv.Day("2026-11-05"), Today: testenv.Day("2026-11-30")}
	docs := make([]*document, len(pages))
	for i, p := range pages {
		docs[i] = readLines(string(p))
	}
	run := func(name string, f func(d *document)) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				f(docs[i%len(docs)])
			}
		})
	}
	run("date-old", func(d *document) { d.checkDateOracle(&Result{}, rs) })
	run("date-new", func(d *document) { d.checkDate(&Result{}, rs) })
	run("path-old", func(d *document) { d.checkPathOracle(&Result{}, rs) })
	run("path-new", func(d *document) { d.checkPath(&Result{}, rs) })
	run("fingerprint-old", func(d *document) {
		st := &statementsOracle{}
		d.readStatementsOracle(st)
		d.checkFingerprintOracle(&Result{}, st, rs)
	})
	run("fingerprint-new", func(d *document) {
		st := statementsPool.Get().(*statements)
		*st = statements{}
		d.readStatements(st)
		d.checkFingerprint(&Result{}, st, rs)
		*st = statements{}
		statementsPool.Put(st)
	})
}

// scanKeyMaterial is the line scanKeys reads with its key material
// blanked, each piece a space, as the scan wrote it before it gave its
// parts; changed is false when nothing was blanked (out left empty).
func (d *document) scanKeyMaterial(l line, st *statements, out []byte) (blanked []byte, changed bool) {
	parts := 0
	d.scanKeys(l, st, func(part string) {
		if parts > 0 {
			out = append(out, ' ')
		}
		out = append(out, part...)
		parts++
	})
	if parts == 1 {
		return out[:0], false
	}
	return out, true
}

// TestReadStatementsMatchesOracle: over files of key material, type words
// and text around them, readStatements (type words read between the key
// material) states what the oracle (type words read on the blanked line)
// stated: fingerprints, MD5, pasted keys, types and their line.
func TestReadStatementsMatchesOracle(t *testing.T) {
	pieces := []string{"SHA256:", fpA, fpB, "sha256\x1a", "MD5:", "16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48",
		"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl", "AAAAAAAAAAAAAAAAAAAAAA", "AAAA",
		"ED25519", "(ED25519)", "rsa", "ssh-rsa", "DSA", "ecdsa-sha2-nistp256", "ed25519-sk", "id_ed25519_romeo", "rs", "a", "ed", "25519",
		" ", ":", "=", "-", "_", "é", "(", ")", "\n", "\n", "\r\n"}
	rng := rand.New(rand.NewPCG(68, 69))
	for i := range 50_000 {
		var b strings.Builder
		for range rng.IntN(14) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		d := readLines(b.String())
		got, want := &statements{}, &statementsOracle{}
		d.readStatements(got)
		d.readStatementsOracle(want)
		g := fmt.Sprint(got.fingerprints.n, got.fingerprints.lines, got.fingerprints.first, got.distinctCount(), got.badFP.n, got.badFP.lines, got.md5.n, got.md5.lines, got.pasted, got.badPasted, got.ed25519, got.otherTypes, got.otherLine)
		w := fmt.Sprint(want.fingerprints.n, want.fingerprints.lines, want.fingerprints.first, want.distinctCountOracle(), want.badFP.n, want.badFP.lines, want.md5.n, want.md5.lines, want.pasted, want.badPasted, want.ed25519, want.otherTypes, want.otherLine)
		if g != w {
			t.Fatalf("case %d %q:\n got %s\nwant %s", i, b.String(), g, w)
		}
	}
}

// mayNameType is the byte walk mayNameTypeString is checked against:
// r or d, s, then a or s, or 255, in either case, one byte at a time.
func mayNameType[T string | []byte](s T) bool {
	for i := 1; i+1 < len(s); i++ {
		switch typeMiddle[s[i]] {
		case 's':
			if p, n := s[i-1]|0x20, s[i+1]|0x20; (p == 'r' || p == 'd') && (n == 'a' || n == 's') {
				return true
			}
		case '5':
			if s[i-1] == '2' && s[i+1] == '5' {
				return true
			}
		}
	}
	return false
}

var typeMiddle = [256]byte{'s': 's', 'S': 's', '5': '5'}
