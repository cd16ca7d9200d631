package checklist

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/testenv"
)

// jsonNasty makes strings with everything a JSON encoder treats apart:
// quotes, backslashes, every control byte, HTML characters, invalid
// UTF-8, U+2028/9, bidi controls, accents.
func jsonNasty(r *rand.Rand) string {
	pieces := []string{"", "a", "rendus/kim/acces.md", "\"", "\\", "<", ">", "&", "\u2028", "\u2029", "\u202e", "é", "œ", "\xff", "\xe2\x80", "\x7f", "/", "'", "SHA256:abc+/=",
		"\u0085", "\u009b", "\u00ad", "\u200b", "\u2066", "\ufeff", "\U000e0001", "\U0001d173", "\u061c", "\u00a0"}
	var b strings.Builder
	for range r.IntN(6) {
		if r.IntN(4) == 0 {
			b.WriteByte(byte(r.IntN(0x20)))
			continue
		}
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// nastyFile is a file with every field filled or empty at random.
func nastyFile(r *rand.Rand) FileResult {
	f := FileResult{Path: jsonNasty(r), Valid: r.IntN(2) == 0, Fingerprint: jsonNasty(r), Apprenant: jsonNasty(r), Archive: jsonNasty(r),
		Entry: jsonNasty(r), Date: jsonNasty(r), Statut: jsonNasty(r), DuplicateCount: r.IntN(3) - 1, FingerprintLine: r.IntN(3),
		Explain: []string{"x"}, Participant: jsonNasty(r), Email: jsonNasty(r), Signed: r.IntN(2) == 0}
	codes := []string{"missing-date", "private-key-leak", "duplicate-fingerprint", "late-request"}
	switch r.IntN(3) {
	case 0:
	case 1:
		f.Problems = []Problem{}
	default:
		for range r.IntN(4) {
			code := codes[r.IntN(len(codes))]
			if r.IntN(3) == 0 {
				code = jsonNasty(r)
			}
			f.Problems = append(f.Problems, Problem{Code: Code(code), Severity: Severity(jsonNasty(r)), Message: jsonNasty(r), Line: r.IntN(3) - 1})
		}
	}
	for range r.IntN(3) {
		f.DuplicateOf = append(f.DuplicateOf, jsonNasty(r))
		f.Others = append(f.Others, jsonNasty(r))
	}
	if r.IntN(5) == 0 {
		f.Effective = &SbatchEffective{JobName: jsonNasty(r), IgnoredDirectives: []int{r.IntN(9)}}
	}
	return f
}

// filesDoc is the json report of pret valider, whole.
type filesDoc struct {
	Files   []FileResult `json:"files"`
	Summary BatchSummary `json:"summary"`
}

// wholeJSON is the json report encoded whole by encoding/json, as
// writeJSON writes any value, the files in report order.
func wholeJSON(t testing.TB, files []FileResult) []byte {
	doc := filesDoc{Files: []FileResult{}}
	for _, leaks := range []bool{true, false} {
		for _, f := range files {
			if slices.ContainsFunc(f.Problems, func(p Problem) bool { return p.Code == "private-key-leak" }) == leaks {
				if f.Problems == nil {
					f.Problems = []Problem{}
				}
				doc.Files = append(doc.Files, f)
			}
		}
	}
	doc.Summary = newSummary()
	for _, f := range doc.Files {
		doc.Summary.add(f)
	}
	var buf bytes.Buffer
	if err := writeJSON(&buf, doc); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFilesJSONIsEncoding: the report written one file at a time is
// byte for byte encoding/json's encoding of the whole document (through
// the bidi filter), for every field filled or empty, read from a slice
// or from Results, and it reads back.
func TestFilesJSONIsEncoding(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := range testenv.Scaled(1000, 3000) {
		files := make([]FileResult, r.IntN(5))
		for j := range files {
			files[j] = nastyFile(r)
		}
		want := wholeJSON(t, files)
		for _, rep := range []FilesReport{{Files: files}, {Results: fileSlice(files)}} {
			var got bytes.Buffer
			if err := WriteFilesReport(&got, "json", rep); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("case %d:\n got %q\nwant %q", i, got.Bytes(), want)
			}
		}
		if !json.Valid(want) {
			t.Fatalf("case %d: not JSON: %q", i, want)
		}
	}
}

// FuzzFilesJSONIsEncoding: whatever a path, a code and a message hold,
// the report is encoding/json's and reads back to the strings.
func FuzzFilesJSONIsEncoding(f *testing.F) {
	f.Add("rendus/kim/acces.md", "private-key-leak", "ligne \u2028 \xff \"x\"", 3)
	f.Add("a\u202eb", "missing-date", "<\x1b[31m>\u0085", 0)
	f.Fuzz(func(t *testing.T, path, code, msg string, line int) {
		files := []FileResult{
			{Path: path, Valid: true},
			{Path: path, Apprenant: msg, Problems: []Problem{{Code: Code(code), Severity: SevError, Message: msg, Line: line}}, DuplicateOf: []string{path}},
		}
		var got bytes.Buffer
		if err := WriteFilesReport(&got, "json", FilesReport{Files: files}); err != nil {
			t.Fatal(err)
		}
		if want := wholeJSON(t, files); !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("\n got %q\nwant %q", got.Bytes(), want)
		}
		var doc filesDoc
		if err := json.Unmarshal(got.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		for _, g := range doc.Files {
			if g.Path != validUTF8(path) || len(g.Problems) == 1 && (g.Problems[0].Message != validUTF8(msg) || string(g.Problems[0].Code) != validUTF8(code)) {
				t.Fatalf("read back %+v", g)
			}
		}
	})
}

// manyResults is a run of n files: most valid, one in seven with a
// problem, some with names to escape, some sharing a key.
func manyResults(n int) fileSlice {
	out := make(fileSlice, n)
	for i := range out {
		f := FileResult{Path: fmt.Sprintf("rendus/groupe%04d/etu%06d_acces.md", i/100, i), Apprenant: fmt.Sprintf("etu%06d", i),
			Valid: i%7 != 0, Fingerprint: fmt.Sprintf("SHA256:%043d", i%5000), Date: "2026-10-16", Statut: "demande"}
		if i%7 == 0 {
			f.Problems = []Problem{{Code: "altered-sentence", Severity: SevError, Line: 5, Message: "la phrase diffère"}}
			if i%(7*13) == 0 {
				f.Problems[0].Message += " « \u202e\u0085 »"
			}
		}
		if i%911 == 0 {
			f.Path += "\x1b[31m\n\u2028"
			f.DuplicateOf, f.DuplicateCount = []string{"a", "b\"c"}, 2
		}
		out[i] = f
	}
	return out
}

// countingWriter counts what a report would weigh.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// benchFormat writes a run of n files in format, as pret valider does,
// and reports its size: in html, every shortened value carries its
// whole text too (reachable without hovering).
func benchFormat(b *testing.B, format string, n int) {
	all := manyResults(n)
	b.ReportAllocs()
	var w countingWriter
	for b.Loop() {
		w.n = 0
		if err := WriteFilesReport(&w, format, FilesReport{Results: all, Version: "1.0", Dir: "/depot"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(w.n), "report-bytes")
}

// A course (400 files) and the 100,000 files of organisateurs.md, Scale.
func BenchmarkFilesJSON400(b *testing.B)   { benchFormat(b, "json", 400) }
func BenchmarkFilesJSON100k(b *testing.B)  { benchFormat(b, "json", 100_000) }
func BenchmarkFilesSARIF400(b *testing.B)  { benchFormat(b, "sarif", 400) }
func BenchmarkFilesSARIF100k(b *testing.B) { benchFormat(b, "sarif", 100_000) }
func BenchmarkFilesHTML400(b *testing.B)   { benchFormat(b, "html", 400) }
func BenchmarkFilesHTML100k(b *testing.B)  { benchFormat(b, "html", 100_000) }
