package checklist

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/internal/termtext/termtexttest"
	"github.com/romeo-pret/pret/internal/testenv"
)

// bidiControls are the characters no report may hold raw, listed here
// apart from the code so the test does not trust it.
const bidiControls = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

// countBidi counts the bidi controls and every other format character
// (Unicode's own table, not the code's): none may reach a report raw.
func countBidi(s string) int {
	n := 0
	for _, r := range s {
		if strings.ContainsRune(bidiControls, r) || unicode.Is(unicode.Cf, r) {
			n++
		}
	}
	return n
}

// mustEscape is what no report may hold raw, from Unicode's own
// categories rather than the code's list: the controls (Cc: C0, DEL,
// C1), the format characters (Cf, the bidi controls among them) and the
// line and paragraph separators (Zl, Zp).
func mustEscape(r rune) bool { return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) }

// TestUnsafeRuneIsUnicodes: the escaping code and Unicode's categories
// agree on every code point, and the bidi controls listed above are
// Unicode's Bidi_Control, all of them.
func TestUnsafeRuneIsUnicodes(t *testing.T) {
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if termtext.Unsafe(r) != mustEscape(r) {
			t.Errorf("U+%04X: termtext.Unsafe %v, Unicode's categories %v", r, termtext.Unsafe(r), mustEscape(r))
		}
		if unicode.Is(unicode.Bidi_Control, r) {
			n++
			if !strings.ContainsRune(bidiControls, r) || bidiNames[r] == "" {
				t.Errorf("U+%04X is a Bidi_Control the list or the page's names lack", r)
			}
		}
	}
	if n != utf8.RuneCountInString(bidiControls) {
		t.Errorf("%d Bidi_Control code points, the list has %d", n, utf8.RuneCountInString(bidiControls))
	}
}

// countMarked is what the html page shows as markers: bidi controls,
// format characters, DEL and the C1 controls (asXML, like the page,
// has already made the C0 controls U+FFFD).
func countMarked(s string) int {
	n := 0
	for _, r := range s {
		if mustEscape(r) && r != '\t' && r != '\n' {
			n++
		}
	}
	return n
}

// bidiRun is a run over two files that share a fingerprint (so the
// summary's duplicates hold their paths), every string from outside
// generated.
func bidiRun(rng *rand.Rand) FilesReport {
	fp := termtexttest.String(rng) + "\u202e"
	msg := func() string {
		return termtexttest.String(rng) + string([]rune(bidiControls)[rng.IntN(12)]) + termtexttest.String(rng)
	}
	return FilesReport{Name: "pret valider " + termtexttest.String(rng), All: true, Files: []FileResult{
		{Path: msg(), Apprenant: msg(), Fingerprint: fp, Date: msg(), Statut: msg(), Problems: []Problem{
			{Code: "duplicate-fingerprint", Severity: SevError, Message: msg(), Line: 4},
			{Code: "late-request", Severity: SevWarning, Message: msg()},
		}, Explain: []string{msg()}},
		{Path: msg(), Apprenant: msg(), Fingerprint: fp, Archive: msg(), Entry: msg(), Problems: []Problem{
			{Code: "duplicate-fingerprint", Severity: SevError, Message: msg(), Line: 2},
		}},
		{Path: msg(), Valid: true, Fingerprint: msg()},
	}}
}

// TestNoReportHoldsABidiControl: whatever the names and contents hold,
// no byte stream of any format holds a raw bidi control; json, sarif and
// junit read back the very strings; html shows each control as one
// marker; csv shows it as texte does.
func TestNoReportHoldsABidiControl(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range testenv.Scaled(100, 300) { // runs of generated names and contents
		r := bidiRun(rng)
		for _, format := range FileFormats {
			checkReportBidi(t, r, format)
		}
		checkChecklistBidi(t, r.Files)
	}
}

// reportText writes r in format: its bytes, and its text as a reader
// sees it (the csv without pret's byte order mark).
func reportText(t *testing.T, format string, r FilesReport) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteFilesReport(&buf, format, r); err != nil {
		t.Fatal(err)
	}
	if format == "csv" {
		return &buf, csvBody(t, buf.Bytes())
	}
	return &buf, buf.String()
}

// checkReportBidi writes r in format and reads it back as its readers do.
func checkReportBidi(t *testing.T, r FilesReport, format string) {
	t.Helper()
	f := r.Files
	buf, out := reportText(t, format, r)
	if n := countBidi(strings.ToValidUTF8(out, "")); n > 0 || format != "html" && bytes.ContainsFunc([]byte(out), encoderLeaves) {
		t.Fatalf("%s holds %d raw bidi controls:\n%q", format, n, out)
	}
	// Nor a C1 control (CSI among them), but in the page, where a
	// browser draws nothing for them.
	if format != "html" && strings.ContainsFunc(strings.ToValidUTF8(out, ""), func(r rune) bool { return r >= 0x80 && r <= 0x9f }) {
		t.Fatalf("%s holds a raw C1 control:\n%q", format, out)
	}
	switch format {
	case "texte":
		// Two files of 4 and 2 lines, one of 1, the summary, 2 codes and
		// the duplicate group of two paths, each under its heading.
		checkTextLines(t, out, 4+2+1+1+3+3)
	case "json":
		bidiJSON(t, buf.Bytes(), f)
	case "sarif":
		bidiSARIF(t, buf.Bytes(), f)
	case "junit":
		bidiJUnit(t, buf.Bytes(), f)
	case "html":
		bidiHTML(t, out, r)
	case "csv":
		row := csvRowOf(t, readCSV(t, buf.Bytes()), f[0].Path)
		if !inCell(row[0], f[0].Apprenant) {
			t.Fatalf("csv row %q", row)
		}
	}
}

func bidiJSON(t *testing.T, b []byte, f []FileResult) {
	t.Helper()
	var doc struct {
		Files   []FileResult `json:"files"`
		Summary BatchSummary `json:"summary"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, b)
	}
	for j := range f {
		g := doc.Files[j]
		if g.Path != validUTF8(f[j].Path) || g.Apprenant != validUTF8(f[j].Apprenant) || g.Fingerprint != validUTF8(f[j].Fingerprint) ||
			g.Date != validUTF8(f[j].Date) || g.Statut != validUTF8(f[j].Statut) || g.Entry != validUTF8(f[j].Entry) {
			t.Fatalf("json changed file %d: %+v, want %+v", j, g, f[j])
		}
		for k, p := range f[j].Problems {
			if g.Problems[k].Message != validUTF8(p.Message) {
				t.Fatalf("json message %q, want %q", g.Problems[k].Message, p.Message)
			}
		}
	}
	if d := doc.Summary.Duplicates; len(d) != 1 || d[0][0] != validUTF8(f[0].Path) || d[0][1] != validUTF8(f[1].Path) {
		t.Fatalf("json duplicates %q", d)
	}
}

func bidiSARIF(t *testing.T, b []byte, f []FileResult) {
	t.Helper()
	var doc struct {
		Runs []struct {
			Results []struct {
				Message    struct{ Text string }
				Properties map[string]string
			}
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("sarif: %v\n%s", err, b)
	}
	res := doc.Runs[0].Results
	if res[0].Message.Text != validUTF8(f[0].Problems[0].Message) || res[0].Properties["apprenant"] != validUTF8(f[0].Apprenant) ||
		res[2].Properties["entry"] != validUTF8(f[1].Entry) {
		t.Fatalf("sarif changed the strings: %+v", res)
	}
}

func bidiJUnit(t *testing.T, b []byte, f []FileResult) {
	t.Helper()
	var doc junitDoc
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("junit: %v\n%s", err, b)
	}
	c := doc.Suites[0].Cases
	for j := range f {
		if c[j].Name != asXML(f[j].Path) {
			t.Fatalf("junit name %q, want %q", c[j].Name, asXML(f[j].Path))
		}
	}
	if c[0].Classname != asXML(f[0].Apprenant) || !strings.Contains(c[0].Failures[0].Body, asXML(f[0].Problems[0].Message)) ||
		!strings.Contains(c[0].SystemOut, asXML(f[0].Problems[1].Message)) {
		t.Fatalf("junit changed the strings: %+v", c[0])
	}
}

// bidiHTML: every control of every string the page shows is one marker,
// named by its code point.
func bidiHTML(t *testing.T, out string, r FilesReport) {
	t.Helper()
	f := r.Files
	want := countMarked(asXML(r.Name))
	// The duplicate groups name the learners and their paths; a long
	// path or fingerprint is shown short, and whole once opened.
	shownStrings := []string{f[0].Apprenant, f[0].Path, f[1].Apprenant, f[1].Path}
	for _, x := range f {
		shownStrings = append(shownStrings, x.Apprenant, shortPath(x.Path), x.Date, x.Statut, shortFingerprint(x.Fingerprint))
		if shortPath(x.Path) != x.Path {
			shownStrings = append(shownStrings, x.Path)
		}
		if shortFingerprint(x.Fingerprint) != x.Fingerprint {
			shownStrings = append(shownStrings, x.Fingerprint)
		}
		for _, p := range x.Problems {
			shownStrings = append(shownStrings, p.Message)
		}
	}
	for _, s := range shownStrings {
		want += countMarked(asXML(s))
	}
	if got := strings.Count(out, `<span class="bidi"`); got != want {
		t.Fatalf("html shows %d markers, want %d", got, want)
	}
	// html/template writes "+" as "&#43;" in text.
	// A control in the whole path, in data-full, is "[U+…]".
	for _, c := range bidiControls {
		marker := strings.ReplaceAll(codePoint(c), "+", "&#43;")
		if strings.Contains(asXML(f[0].Apprenant), string(c)) && !strings.Contains(out, ">"+marker+"</span>") {
			t.Fatalf("html: no marker %s for a control in %q", codePoint(c), f[0].Apprenant)
		}
		if strings.Contains(asXML(f[0].Path), string(c)) && !strings.Contains(out, "["+marker+"]") {
			t.Fatalf("html: no marker %s in the attributes of %q", codePoint(c), f[0].Path)
		}
	}
}

// checkChecklistBidi: the checklist of pret verifier, in its formats.
func checkChecklistBidi(t *testing.T, f []FileResult) {
	t.Helper()
	rep := &Report{Name: "pret verifier", Checks: []Check{
		{ID: "acces-valid", Status: Fail, Message: f[0].Path, Fix: f[1].Path},
		{ID: "tools", Status: Warn, Message: f[0].Apprenant, Fix: f[1].Apprenant},
		{ID: "cle", Status: Skip, Message: f[0].Date},
	}}
	for _, format := range Formats {
		var buf bytes.Buffer
		if err := WriteReport(&buf, format, rep, Style{}); err != nil {
			t.Fatal(err)
		}
		if n := countBidi(strings.ToValidUTF8(buf.String(), "")); n > 0 || strings.ContainsFunc(strings.ToValidUTF8(buf.String(), ""), func(r rune) bool { return r >= 0x80 && r <= 0x9f }) {
			t.Fatalf("checklist %s holds %d raw bidi controls, or a C1 control:\n%q", format, n, buf.String())
		}
		switch format {
		case "texte": // each check, the fixes of the failure and the warning, the summary
			checkTextLines(t, buf.String(), 3+2+1)
		case "json":
			var doc struct{ Checks []Check }
			if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			for j, c := range rep.Checks {
				if doc.Checks[j].Message != validUTF8(c.Message) || doc.Checks[j].Fix != validUTF8(c.Fix) {
					t.Fatalf("checklist json %+v, want %+v", doc.Checks[j], c)
				}
			}
		case "junit":
			var doc junitDoc
			if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			c := doc.Suites[0].Cases
			if c[0].Failures[0].Message != asXML(rep.Checks[0].Message) || c[0].Failures[0].Body != asXML(rep.Checks[0].Fix) {
				t.Fatalf("checklist junit %+v", c[0])
			}
		}
	}
}

// TestEveryFormatCharacterEscapedByWriters: every code point of Unicode's
// category Cf is found by the writers' scan and its json and XML forms
// read back to it.
func TestEveryFormatCharacterEscapedByWriters(t *testing.T) {
	var all []rune
	for _, rg := range unicode.Cf.R16 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			all = append(all, r)
		}
	}
	for _, rg := range unicode.Cf.R32 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			all = append(all, r)
		}
	}
	// DEL, the C1 controls and the separators go the same way in json
	// and XML (the html page marks them: TestHTMLShowsEveryControl).
	all = append(all, 0x7f, 0x2028, 0x2029)
	for r := rune(0x80); r <= 0x9f; r++ {
		all = append(all, r)
	}
	for _, r := range all {
		in := []byte("a" + string(r) + "é")
		var s string
		doc := append([]byte(`"`), escapeEncoded(in, jsonEscape)...)
		if err := json.Unmarshal(append(doc, '"'), &s); err != nil || s != string(in) || bytes.ContainsRune(doc, r) {
			t.Fatalf("json U+%04X: %q %v", r, doc, err)
		}
		var x struct {
			V string `xml:",chardata"`
		}
		xd := escapeEncoded(in, xmlEscape)
		if err := xml.Unmarshal([]byte("<v>"+string(xd)+"</v>"), &x); err != nil || x.V != string(in) || bytes.ContainsRune(xd, r) {
			t.Fatalf("xml U+%04X: %q %v", r, xd, err)
		}
		if p := shownParts(string(in)); len(p) != 3 || p[1].Control != codePoint(r) {
			t.Fatalf("html U+%04X: %+v", r, p)
		}
	}
}

// TestHTMLShowsEveryControl: a control character from a file name or a
// file (C0 but tab and line feed, DEL, C1 such as U+0085 or CSI U+009B,
// the line and paragraph separators) reaches the page only as its
// visible marker, in the table and
// in the attributes (data-sort, data-full); and the page carries no comment, English or otherwise,
// in its style, script or markup.
func TestHTMLShowsEveryControl(t *testing.T) {
	rs := []rune{0x2028, 0x2029}
	for r := rune(0); r <= 0x9f; r++ {
		if r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f {
			rs = append(rs, r)
		}
	}
	for _, r := range rs {
		name := "r/c" + string(r) + "d/acces.md"
		var buf bytes.Buffer
		rep := FilesReport{Name: "pret valider " + name, All: true, Files: []FileResult{{Path: name, Apprenant: "c" + string(r) + "d", Problems: []Problem{{Code: "missing-date", Severity: SevError, Message: "m" + string(r), Line: 1}}}}}
		if err := WriteFilesReport(&buf, "html", rep); err != nil {
			t.Fatal(err)
		}
		page := buf.String()
		if strings.ContainsRune(page, r) {
			t.Fatalf("U+%04X raw in the page", r)
		}
		// html/template writes the marker's "+" as "&#43;" in text.
		marker := strings.ReplaceAll(codePoint(r), "+", "&#43;")
		if r < 0x20 && r != '\r' {
			// Made U+FFFD, as XML would, before the page saw it.
			if !strings.Contains(page, "c\ufffdd") {
				t.Fatalf("U+%04X: not replaced", r)
			}
		} else if n := strings.Count(page, ">"+marker+"<"); n < 3 {
			t.Fatalf("U+%04X: %d markers, want one per place (path, apprenant, message)", r, n)
		} else if !strings.Contains(page, "["+marker+"]") {
			t.Fatalf("U+%04X: no marker in an attribute", r)
		}
		for _, c := range []string{"/*", "<!--"} {
			if strings.Contains(page, c) {
				t.Fatalf("a comment (%s) in the page", c)
			}
		}
	}
}

// checkTextLines: whatever the strings hold, the text report has exactly
// the lines pret wrote, none with a control, bidi or format character,
// and one summary line.
func checkTextLines(t *testing.T, out string, want int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != want {
		t.Fatalf("texte has %d lines, want %d (a string added lines):\n%s", len(lines), want, out)
	}
	for _, l := range lines {
		if bad, ok := termtexttest.Safe(l); !ok {
			t.Fatalf("texte line %q holds %q", l, bad)
		}
	}
	if n := strings.Count("\n"+out, "\nRésumé :"); n != 1 {
		t.Fatalf("%d summary-looking lines start a line:\n%s", n, out)
	}
}

// asXML is s as encoding/xml carries it, the oracle of XMLText: what
// XML 1.0 forbids, and each byte of invalid UTF-8, read back as U+FFFD.
func asXML(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	var v struct {
		V string `xml:",chardata"`
	}
	if err := xml.Unmarshal([]byte("<v>"+b.String()+"</v>"), &v); err != nil {
		panic(err)
	}
	return v.V
}

// validUTF8 is a string as encoding/json carries it: each byte that is
// not valid UTF-8 replaced by U+FFFD.
func validUTF8(s string) string { return strings.Map(func(r rune) rune { return r }, s) }

func codePoint(r rune) string { return fmt.Sprintf("U+%04X", r) }

// encoderLeaves reports what encoding/json and encoding/xml write raw
// among what must be escaped (they escape or replace C0 themselves).
func encoderLeaves(r rune) bool { return r >= 0x20 && mustEscape(r) }
