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

	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/internal/termtext/termtexttest"
)

// The generators live in termtexttest; these names keep the format tests short.
func hostileString(rng *rand.Rand) string         { return termtexttest.String(rng) }
func terminalSafe(s string) (bad string, ok bool) { return termtexttest.Safe(s) }
func unsafeRune(r rune) bool                      { return termtext.Unsafe(r) }

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
			_, out := reportText(t, format, r)
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
