package checklist

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// hostilePieces are the parts generated strings are made of: everything a
// file name, a comment or a line of a file can hold that a terminal or a
// parser could take for something else.
var hostilePieces = []string{
	"a", "Z", "0", " ", "é", "œ", "NŒUD", "日本", "🙂", "\\", "\"", "<", "&", "]]>", "--",
	"\n", "\r", "\r\n", "\t", "\x00", "\x07", "\x08", "\x1b", "\x1b[31m", "\x1b]0;titre\x07", "\x1b[2J", "\x7f",
	"\u0080", "\u0085", "\u009b", "\u009b31m", "\u009f",
	"\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069",
	"\u2028", "\u2029", "\ufeff", "\ufffd", "\ufffe", "\uffff",
	// Format characters (Cf): zero-width, soft hyphen, word joiner, tags.
	"\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\u2064", "\u180e", "\u0600", "\u06dd", "\ufff9", "\ufffb",
	"\U000e0001", "\U000e0020", "\U000e0041", "\U000e007f", "\U0001d173", "\U000110bd",
	"\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf",
	"\nRésumé : 99 fichiers, 99 valides, 0 invalide\n", "\nvalide    forge/acces.md\n",
}

func hostileString(rng *rand.Rand) string {
	var b strings.Builder
	for n := rng.IntN(12); n >= 0; n-- {
		b.WriteString(hostilePieces[rng.IntN(len(hostilePieces))])
	}
	return b.String()
}

// terminalSafe reports the first thing in s a terminal would act on.
func terminalSafe(s string) (bad string, ok bool) {
	if !utf8.ValidString(s) {
		return "invalid UTF-8", false
	}
	for _, r := range s {
		// Checked against Unicode's own categories, not unsafeRune: a
		// format character (Cf) unsafeRune forgot is caught.
		if mustEscape(r) {
			return strings.ToValidUTF8(string(r), "?"), false
		}
	}
	return "", true
}

func checkEscaped(t *testing.T, s string) {
	t.Helper()
	e := Escape(s)
	if bad, ok := terminalSafe(e); !ok {
		t.Fatalf("Escape(%q) = %q still holds %q", s, e, bad)
	}
	if Escape(e) != e {
		t.Fatalf("Escape is not idempotent on %q: %q then %q", s, e, Escape(e))
	}
	if _, ok := terminalSafe(s); ok && e != s {
		t.Fatalf("Escape changed a printable string %q into %q", s, e)
	}
}

func TestEscapeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		checkEscaped(t, hostileString(rng))
	}
	// Every single byte, alone and around text.
	for c := 0; c < 256; c++ {
		checkEscaped(t, string([]byte{byte(c)}))
		checkEscaped(t, "x"+string([]byte{byte(c)})+"y")
	}
}

func TestEscapeForms(t *testing.T) {
	for in, want := range map[string]string{
		"plain":            "plain",
		"clé œuvre 日本":     "clé œuvre 日本",
		"a\x1b[31mb":       `a\033[31mb`,
		"a\nb\r\tc":        `a\nb\r\tc`,
		"\x00\x7f":         `\000\177`,
		"\u009b":           `\302\233`,
		"\u202eevil":       `\342\200\256evil`,
		"\xff":             `\377`,
		`back\slash`:       `back\slash`,
		"\u2066x\u2069":    `\342\201\246x\342\201\251`,
		"ligne\u2028autre": `ligne\342\200\250autre`,
		"acces\u200b.md":   `acces\342\200\213.md`,
		"\ufeffx":          `\357\273\277x`,
		"co\u00adde":       `co\302\255de`,
		"\U000e0041":       `\363\240\201\201`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzEscape(f *testing.F) {
	for _, p := range hostilePieces {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, s string) { checkEscaped(t, s) })
}

// TestReportsEscapeEveryFormat: whatever a file name, a problem message or
// an explained line holds, the text report has exactly the lines pret
// wrote, none of them with a control or bidi character, and the json and
// junit reports parse back to the strings (ValidUTF8, XMLText).
func TestReportsEscapeEveryFormat(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 500; i++ {
		files := []FileResult{
			{Path: hostileString(rng), Valid: true, Fingerprint: hostileString(rng)},
			{Path: hostileString(rng), Problems: []Problem{
				{Code: "bad-date", Severity: SevError, Message: hostileString(rng), Line: 3},
				{Code: "late-request", Severity: SevWarning, Message: hostileString(rng)},
			}, Explain: []string{hostileString(rng), hostileString(rng)}},
		}
		var buf bytes.Buffer
		if err := WriteFilesReport(&buf, "texte", FilesReport{Name: "pret valider", Files: files, All: true}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		// Two blocks, the summary line, then the codes heading and its
		// two codes.
		if want := 1 + 1 + 2 + 2 + 1 + 1 + 2; len(lines) != want {
			t.Fatalf("texte has %d lines, want %d (a string added lines):\n%s", len(lines), want, buf.String())
		}
		for _, l := range lines {
			if bad, ok := terminalSafe(l); !ok {
				t.Fatalf("texte line %q holds %q", l, bad)
			}
		}
		if n := strings.Count("\n"+buf.String(), "\nRésumé :"); n != 1 {
			t.Fatalf("%d summary-looking lines start a line:\n%s", n, buf.String())
		}

		buf.Reset()
		if err := WriteFilesReport(&buf, "json", FilesReport{Name: "pret valider", Files: files, All: true}); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Files []FileResult `json:"files"`
		}
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatalf("json does not parse: %v\n%s", err, buf.String())
		}
		if !utf8.Valid(buf.Bytes()) {
			t.Fatal("json is not valid UTF-8")
		}
		if doc.Files[0].Path != validUTF8(files[0].Path) || doc.Files[1].Problems[0].Message != validUTF8(files[1].Problems[0].Message) ||
			doc.Files[0].Fingerprint != validUTF8(files[0].Fingerprint) {
			t.Fatalf("json changed the strings: %q", buf.String())
		}

		buf.Reset()
		if err := WriteFilesReport(&buf, "junit", FilesReport{Name: "pret valider", Files: files, All: true}); err != nil {
			t.Fatal(err)
		}
		var jd junitDoc
		if err := xml.Unmarshal(buf.Bytes(), &jd); err != nil {
			t.Fatalf("junit does not parse: %v\n%s", err, buf.String())
		}
		c := jd.Suites[0].Cases
		if c[0].Name != XMLText(files[0].Path) || c[1].Name != XMLText(files[1].Path) {
			t.Fatalf("junit name %q, want %q", c[0].Name, XMLText(files[0].Path))
		}
		// One failure: the codes as its message, each problem in its body.
		if len(c[1].Failures) != 1 || c[1].Failures[0].Message != "bad-date" {
			t.Fatalf("junit failures %+v", c[1].Failures)
		}
		if want := XMLText("ligne 3 : bad-date (erreur) : " + files[1].Problems[0].Message); !strings.Contains(c[1].Failures[0].Body, want) {
			t.Fatalf("junit body %q, want %q in it", c[1].Failures[0].Body, want)
		}
	}
}

func TestChecklistTextEscapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 500; i++ {
		r := &Report{Name: "pret verifier", Checks: []Check{
			{ID: "acces-valid", Status: Fail, Message: hostileString(rng), Fix: hostileString(rng)},
			{ID: "tools", Status: Pass, Message: hostileString(rng)},
		}}
		var buf bytes.Buffer
		if err := WriteReport(&buf, "texte", r, Style{}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		if len(lines) != 4 {
			t.Fatalf("%d lines, want 4:\n%s", len(lines), buf.String())
		}
		for _, l := range lines {
			if bad, ok := terminalSafe(l); !ok {
				t.Fatalf("line %q holds %q", l, bad)
			}
		}
	}
}

// TestEscapeEveryFormatCharacter: every code point of Unicode's category
// Cf, alone and between letters, comes out of Escape as octal bytes.
func TestEscapeEveryFormatCharacter(t *testing.T) {
	n := 0
	for _, rg := range unicode.Cf.R16 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			checkCf(t, r)
			n++
		}
	}
	for _, rg := range unicode.Cf.R32 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			checkCf(t, r)
			n++
		}
	}
	if n < 150 {
		t.Fatalf("only %d format characters", n)
	}
}

func checkCf(t *testing.T, r rune) {
	t.Helper()
	e := Escape("a" + string(r) + "b")
	if strings.ContainsRune(e, r) || !strings.HasPrefix(e, `a\`) {
		t.Fatalf("U+%04X kept: %q", r, e)
	}
	checkEscaped(t, string(r))
}

// TestNoFormatCharacterInTerminalFormats: the formats a person reads on
// a terminal or in a spreadsheet (texte, github, csv) hold no format
// character (Cf: zero-width, soft hyphen, BOM, tags, bidi), whatever the
// names and contents hold; Escape's octal form stands for each.
func TestNoFormatCharacterInTerminalFormats(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	cf := []rune{0xad, 0x600, 0x61c, 0x6dd, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x202e, 0x2060, 0x2064, 0x2066, 0xfeff, 0xfffb, 0x110bd, 0x1d173, 0xe0001, 0xe0020, 0xe0041, 0xe007f}
	msg := func() string {
		return hostileString(rng) + string(cf[rng.IntN(len(cf))]) + hostileString(rng) + string(cf[rng.IntN(len(cf))])
	}
	for i := 0; i < 300; i++ {
		r := FilesReport{Name: "pret valider", All: true, Files: []FileResult{
			{Path: msg(), Apprenant: msg(), Fingerprint: msg(), Date: msg(), Statut: msg(), Problems: []Problem{
				{Code: "bad-date", Severity: SevError, Message: msg(), Line: 4},
				{Code: "late-request", Severity: SevWarning, Message: msg()},
			}, Explain: []string{msg()}},
			{Path: msg(), Valid: true, Fingerprint: msg()},
		}}
		for _, format := range []string{"texte", "github", "csv"} {
			var buf bytes.Buffer
			if err := WriteFilesReport(&buf, format, r); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if format == "csv" {
				out = csvBody(t, buf.Bytes()) // the byte order mark is pret's
			}
			out = strings.ToValidUTF8(out, "")
			if j := strings.IndexFunc(out, func(r rune) bool { return unicode.Is(unicode.Cf, r) }); j >= 0 {
				t.Fatalf("%s holds a format character at %d:\n%q", format, j, out)
			}
		}
	}
}

// validUTF8 is a string as encoding/json carries it: each byte that is
// not valid UTF-8 replaced by U+FFFD.
func validUTF8(s string) string { return strings.Map(func(r rune) rune { return r }, s) }
