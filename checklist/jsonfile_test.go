package checklist

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
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
	pieces := []string{"", "a", "rendus/kim/acces.md", "\"", "\\", "<", ">", "&", "\u2028", "\u2029", "\u202e", "é", "œ", "\xff", "\xe2\x80", "\x7f", "/", "'", "SHA256:abc+/="}
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
// encoding/json gave, for every field filled or empty.
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
		if want := encodeFileSlow(t, f); !bytes.Equal(got, want) {
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
		if want := encodeFileSlow(t, fr); !bytes.Equal(got, want) {
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
		if !bytes.Equal(b.Bytes(), want) {
			t.Fatalf("case %d:\n got %q\nwant %q", i, b.Bytes(), want)
		}
	}
}
