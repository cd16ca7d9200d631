package checklist

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// encodeFileSlow is how the files list wrote one file before
// appendFileJSON: encoding/json, then its indent.
func encodeFileSlow(t testing.TB, f FileResult) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("    ", "  ")
	enc.SetEscapeHTML(false)
	if f.Problems == nil {
		f.Problems = []Problem{}
	}
	if err := enc.Encode(f); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

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

// TestFileJSONMatchesEncoder: the direct writer gives the bytes
// encoding/json gave, bidi controls escaped as the report's filter
// escapes them, for every field filled or empty.
func TestFileJSONMatchesEncoder(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := range 50_000 {
		f := FileResult{Path: jsonNasty(r), Valid: r.IntN(2) == 0, Fingerprint: jsonNasty(r), Apprenant: jsonNasty(r), Archive: jsonNasty(r),
			Entry: jsonNasty(r), Date: jsonNasty(r), Statut: jsonNasty(r), DuplicateCount: r.IntN(3) - 1, FingerprintLine: r.IntN(3), Explain: []string{"x"}}
		switch r.IntN(3) {
		case 0:
		case 1:
			f.Problems = []Problem{}
		default:
			for range r.IntN(4) {
				f.Problems = append(f.Problems, Problem{Code: jsonNasty(r), Severity: Severity(jsonNasty(r)), Message: jsonNasty(r), Line: r.IntN(3) - 1})
			}
		}
		switch r.IntN(3) {
		case 0:
		case 1:
			f.DuplicateOf = []string{}
		default:
			for range r.IntN(4) {
				f.DuplicateOf = append(f.DuplicateOf, jsonNasty(r))
			}
		}
		got, ok := appendFileJSON(nil, &f)
		if !ok {
			t.Fatalf("case %d: appendFileJSON refused %+v", i, f)
		}
		if want := appendNoBidi(nil, encodeFileSlow(t, f), jsonBidi); !bytes.Equal(got, want) {
			t.Fatalf("case %d:\n got %q\nwant %q", i, got, want)
		}
	}
	if _, ok := appendFileJSON(nil, &FileResult{Effective: &SbatchEffective{}}); ok {
		t.Fatal("a livrables payload must go to encoding/json")
	}
}

func FuzzFileJSONMatchesEncoder(f *testing.F) {
	f.Add("rendus/kim/acces.md", "private-key-leak", "ligne \u2028 \xff \"x\"", 3)
	f.Fuzz(func(t *testing.T, path, code, msg string, line int) {
		fr := FileResult{Path: path, Apprenant: msg, Problems: []Problem{{Code: code, Severity: SevError, Message: msg, Line: line}}, DuplicateOf: []string{path}}
		got, _ := appendFileJSON(nil, &fr)
		if want := appendNoBidi(nil, encodeFileSlow(t, fr), jsonBidi); !bytes.Equal(got, want) {
			t.Fatalf("\n got %q\nwant %q", got, want)
		}
	})
}

// TestSummaryJSONMatchesEncoder: the summary written with its duplicate
// groups one path at a time is byte for byte what marshalIndent wrote
// of it whole, for no group, empty groups and groups of nasty paths.
func TestSummaryJSONMatchesEncoder(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for i := range 20_000 {
		sum := BatchSummary{Codes: CodeCounts{}, Duplicates: [][]string{}}
		sum.Files, sum.Valid, sum.Invalid, sum.Warnings = r.IntN(9), r.IntN(9), r.IntN(9), r.IntN(9)
		for range r.IntN(3) {
			sum.Codes[jsonNasty(r)] = r.IntN(5)
		}
		for range r.IntN(4) {
			g := []string{}
			for range r.IntN(4) {
				g = append(g, jsonNasty(r))
			}
			sum.Duplicates = append(sum.Duplicates, g)
		}
		want, err := marshalIndent(sum, "  ")
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		bw := bufio.NewWriter(&b)
		if err := writeSummaryJSON(bw, sum); err != nil {
			t.Fatal(err)
		}
		bw.Flush()
		if want := appendNoBidi(nil, want, jsonBidi); !bytes.Equal(appendNoBidi(nil, b.Bytes(), jsonBidi), want) {
			t.Fatalf("case %d:\n got %q\nwant %q", i, b.Bytes(), want)
		}
	}
}

// sliceResults is Results over a slice, as a run's records are read.
type sliceResults []FileResult

func (s sliceResults) Len() int            { return len(s) }
func (s sliceResults) At(i int) FileResult { return s[i] }

// manyResults is a large run: most files valid, some with problems,
// some sharing a key, some with names to escape.
func manyResults(n int) sliceResults {
	out := make(sliceResults, n)
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

// TestFilesJSONParallelIsSerial: a large run's files list, formatted in
// parallel chunks, is byte for byte the list written one file after the
// other, at every size around the chunks' edges.
func TestFilesJSONParallelIsSerial(t *testing.T) {
	all := manyResults(5*jsonChunk + 3)
	for _, n := range []int{0, 1, 2*jsonChunk - 1, 2 * jsonChunk, 2*jsonChunk + 1, 3 * jsonChunk, 5*jsonChunk + 3} {
		var par, ser bytes.Buffer
		if err := WriteFilesReport(&par, "json", FilesReport{Results: all[:n]}); err != nil {
			t.Fatal(err)
		}
		if err := WriteFilesReport(&ser, "json", FilesReport{Files: all[:n]}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(par.Bytes(), ser.Bytes()) {
			t.Fatalf("%d files: the parallel list differs from the serial one", n)
		}
		if n > 0 && !json.Valid(par.Bytes()) {
			t.Fatalf("%d files: not JSON", n)
		}
	}
}

// BenchmarkFilesJSON100k is the last serial step of pret valider over
// 100,000 files: the json report.
func BenchmarkFilesJSON100k(b *testing.B) {
	all := manyResults(100_000)
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteFilesReport(io.Discard, "json", FilesReport{Results: all}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestJSONStringBidiIsFilters: appendJSONString escapes exactly the
// characters the report's bidi filter (bidiAt) escapes, for every code
// point: the files list then needs no filter pass.
func TestJSONStringBidiIsFilters(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		s := "a" + string(r) + "b"
		got := string(appendJSONString(nil, s))
		want := string(appendNoBidi(nil, appendJSONStringUnfiltered(s), jsonBidi))
		if got != want {
			t.Fatalf("U+%04X: %q, the filter gives %q", r, got, want)
		}
	}
}

// appendJSONStringUnfiltered is encoding/json's string, HTML escaping off.
func appendJSONStringUnfiltered(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimRight(buf.Bytes(), "\n")
}
