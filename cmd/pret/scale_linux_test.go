package main

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestScale runs `pret valider --format json` on 100,000 one-page files,
// 100 per folder, each with its own fingerprint and one in seven invalid,
// and checks the peak resident memory that organisateurs.md allows:
// 64 MiB, measured by /usr/bin/time (least of three runs). No time is
// asserted; checklist/submissions' BenchmarkValidate100k gives figures.
func TestScale(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 files: not in -short")
	}
	h := newHome(t)
	dir := h.path("rendus")
	for i := range 100_000 {
		d := filepath.Join(dir, fmt.Sprintf("groupe%04d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		raw := make([]byte, 32)
		rand.Read(raw)
		page := accesPage("SHA256:" + base64.RawStdEncoding.EncodeToString(raw))
		if i%7 == 0 {
			page = page[:len(page)-40] // the sentence cut short
		}
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("etu%06d_acces.md", i)), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := h.pret("", "valider", "--format", "json", "rendus")
	if r.code != 1 || len(r.stdout) < 100_000*100 {
		t.Fatalf("exit %d, %d bytes of json\n%s", r.code, len(r.stdout), r.stderr)
	}
	kib := h.peakKiB("valider", "--format", "json", "rendus")
	t.Logf("100,000 files: peak resident %d KiB", kib)
	if kib > 64<<10 {
		t.Errorf("peak resident memory %d KiB, over the 64 MiB of organisateurs.md", kib)
	}
}
