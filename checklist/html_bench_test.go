package checklist

import (
	"testing"
)

// countingWriter counts what the page would weigh.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// benchHTML writes the page of n files, as pret valider --format html
// does, and reports its size: every shortened value now carries its
// whole text too (reachable without hovering).
func benchHTML(b *testing.B, n int) {
	all := manyResults(n)
	b.ReportAllocs()
	var w countingWriter
	for b.Loop() {
		w.n = 0
		if err := WriteFilesReport(&w, "html", FilesReport{Results: all, Version: "1.0", Dir: "/depot"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(w.n), "page-bytes")
}

// A course (400 files) and the 100,000 files of organisateurs.md, Scale.
func BenchmarkFilesHTML400(b *testing.B)  { benchHTML(b, 400) }
func BenchmarkFilesHTML100k(b *testing.B) { benchHTML(b, 100_000) }
