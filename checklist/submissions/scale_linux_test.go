package submissions

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// course100k lays out n one-page submissions, 100 per folder, each with
// its own fingerprint.
func course100k(t testing.TB, dir string, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		d := filepath.Join(dir, fmt.Sprintf("groupe%04d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		raw := make([]byte, 32)
		rand.Read(raw)
		fp := "SHA256:" + base64.RawStdEncoding.EncodeToString(raw)
		name := filepath.Join(d, fmt.Sprintf("etu%06d_acces.md", i))
		if err := os.WriteFile(name, []byte(page(fp, i%7 == 0)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkValidate100k validates 100,000 files and writes the json
// report; compare with `grep -rc Connexion DIR` on the same folder
// (PRET_BENCH_DIR keeps one between runs). cmd/pret's TestScale checks
// the peak memory of the real command.
func BenchmarkValidate100k(b *testing.B) {
	dir, kept := os.Getenv("PRET_BENCH_DIR"), true
	if dir == "" {
		dir, kept = b.TempDir(), false
	}
	if _, err := os.Stat(dir); err != nil || !kept {
		course100k(b, dir, 100_000) // once for a new PRET_BENCH_DIR
	}
	b.ResetTimer()
	for range b.N {
		run := Read([]string{dir}, Options{Rules: testRules})
		checklist.WriteFilesReport(io.Discard, "json", checklist.FilesReport{Results: run})
	}
}
