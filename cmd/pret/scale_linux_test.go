package main

import (
	"archive/zip"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
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
	// Every format keeps a small record per file and writes the report
	// as it goes: none holds the report, or its rows, whole.
	for _, format := range checklist.FileFormats {
		kib := h.peakKiB("valider", "--format", format, "rendus")
		t.Logf("100,000 files, %s: peak resident %d KiB", format, kib)
		if kib > 64<<10 {
			t.Errorf("%s: peak resident memory %d KiB, over the 64 MiB of organisateurs.md", format, kib)
		}
	}
}

// TestScaleArchive is TestScale for the way platforms deliver: one zip
// of 100,000 entries, 100 per folder, one in seven invalid, half of them
// with their own key and half sharing one (every file of that half is
// then duplicate-fingerprint, naming ten others). The zip's directory,
// the records and the shared key's lists all fit in the 64 MiB of
// organisateurs.md (least of three runs, /usr/bin/time).
func TestScaleArchive(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 entries: not in -short")
	}
	h := newHome(t)
	f, err := os.Create(h.path("rendus.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	raw := make([]byte, 32)
	rand.Read(raw)
	shared := "SHA256:" + base64.RawStdEncoding.EncodeToString(raw)
	for i := range 100_000 {
		fp := shared
		if i%2 == 0 {
			rand.Read(raw)
			fp = "SHA256:" + base64.RawStdEncoding.EncodeToString(raw)
		}
		page := accesPage(fp)
		if i%7 == 0 {
			page = page[:len(page)-40] // the sentence cut short
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("groupe%04d/etu%06d/acces.md", i/100, i), Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(page))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r := h.pret("", "valider", "--format", "json", "rendus.zip")
	if r.code != 1 || len(r.stdout) < 100_000*100 || !strings.Contains(r.stdout, "duplicate-fingerprint") {
		t.Fatalf("exit %d, %d bytes of json\n%s", r.code, len(r.stdout), r.stderr)
	}
	kib := h.peakKiB("valider", "--format", "json", "rendus.zip")
	t.Logf("zip of 100,000 entries: peak resident %d KiB", kib)
	if kib > 64<<10 {
		t.Errorf("peak resident memory %d KiB, over the 64 MiB of organisateurs.md", kib)
	}
}
