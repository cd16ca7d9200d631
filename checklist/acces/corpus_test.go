package acces

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var corpusDir = flag.String("corpus", "", "TestWriteCorpus writes -corpus-n acces.md files here")
var corpusN = flag.Int("corpus-n", 10000, "how many files TestWriteCorpus writes")

// WriteCorpus writes n learners' files, one folder each: benchPages'
// course, the one BenchmarkValidatePages measures.
func WriteCorpus(tb testing.TB, dir string, n int) error {
	for i, page := range benchPages(tb, n, false) {
		d := filepath.Join(dir, fmt.Sprintf("l%05d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "acces.md"), page, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestWriteCorpus makes the measurement corpus on demand:
//
//	go test ./checklist/acces -run TestWriteCorpus -corpus /tmp/corpus
func TestWriteCorpus(t *testing.T) {
	if *corpusDir == "" {
		t.Skip("go test ./checklist/acces -run TestWriteCorpus -corpus DIR writes the corpus")
	}
	if err := WriteCorpus(t, *corpusDir, *corpusN); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkValidateFiles10k(b *testing.B) {
	dir := b.TempDir()
	if err := WriteCorpus(b, dir, 10000); err != nil {
		b.Fatal(err)
	}
	var paths []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".md") {
			paths = append(paths, p)
		}
		return nil
	})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range paths {
			ValidateFile(Target{Path: p}, rules)
		}
	}
}
