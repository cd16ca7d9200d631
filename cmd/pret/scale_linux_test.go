package main

import (
	"archive/zip"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/testenv"
)

// TestScale runs `pret valider --format json` on 100,000 one-page files,
// 100 per folder, each with its own fingerprint and one in seven invalid,
// and checks the peak resident memory that organisateurs.md allows:
// 64 MiB, measured by /usr/bin/time (least of three runs). No time is
// asserted; checklist/submissions' BenchmarkValidate100k gives figures.
func TestScale(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // the four scale tests share the cores, not the memory measure
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
		writeFile(t, filepath.Join(d, fmt.Sprintf("etu%06d_acces.md", i)), []byte(page), 0o644)
	}
	// Every format keeps a small record per file and writes the report
	// as it goes: none holds the report, or its rows, whole.
	for _, format := range checklist.FileFormats {
		kib, r := h.peakRun(64<<10, "valider", "--format", format, "rendus")
		if r.code != 1 || format == "json" && len(r.stdout) < 100_000*100 {
			t.Fatalf("%s: exit %d, %d bytes\n%s", format, r.code, len(r.stdout), r.stderr)
		}
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
	h, shared := scaleHome(t)
	raw := make([]byte, 32)
	bigZip(t, h.path("rendus.zip"), func(i int, put func(string, []byte)) {
		fp := shared
		if i%2 == 0 {
			rand.Read(raw)
			fp = "SHA256:" + base64.RawStdEncoding.EncodeToString(raw)
		}
		page := accesPage(fp)
		if i%7 == 0 {
			page = page[:len(page)-40] // the sentence cut short
		}
		put(fmt.Sprintf("groupe%04d/etu%06d/acces.md", i/100, i), []byte(page))
	})
	kib, r := h.peakRun(64<<10, "valider", "--format", "json", "rendus.zip")
	if r.code != 1 || len(r.stdout) < 100_000*100 || !strings.Contains(r.stdout, "duplicate-fingerprint") {
		t.Fatalf("exit %d, %d bytes of json\n%s", r.code, len(r.stdout), r.stderr)
	}
	t.Logf("zip of 100,000 entries: peak resident %d KiB", kib)
	if kib > 64<<10 {
		t.Errorf("peak resident memory %d KiB, over the 64 MiB of organisateurs.md", kib)
	}
}

// TestScaleMoodle is TestScaleArchive for a Moodle export of 100,000
// learners, each with her folder, an acces.md and a .pub whose
// fingerprint is not the stated one: every file is fingerprint-mismatch,
// a message quoting two fingerprints. It stays in the 64 MiB of
// organisateurs.md (least of three runs, /usr/bin/time), and so do the
// json and html reports written with --sortie, streamed into their
// temporary file. The csv report is logged, not bounded: it holds a sort
// key per row for the French order (organisateurs.md, « Échelle »).
func TestScaleMoodle(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	h := newHome(t)
	raw := make([]byte, 32)
	bigZip(t, h.path("rendus.zip"), func(i int, put func(string, []byte)) {
		dir := fmt.Sprintf("Nom%06d Prénom_%d_assignsubmission_file_/", i, 100000+i)
		rand.Read(raw)
		put(dir+"acces.md", []byte(accesPage("SHA256:"+base64.RawStdEncoding.EncodeToString(raw))))
		rand.Read(raw)
		key, err := ssh.NewPublicKey(ed25519.PublicKey(raw))
		if err != nil {
			t.Fatal(err)
		}
		put(dir+"id_ed25519_romeo.pub", ssh.MarshalAuthorizedKey(key))
	})
	kib, r := h.peakRun(64<<10, "valider", "--format", "json", "rendus.zip")
	if r.code != 1 || strings.Count(r.stdout, `"code": "fingerprint-mismatch"`) != 100_000 {
		t.Fatalf("exit %d, %d fingerprint-mismatch\n%s", r.code, strings.Count(r.stdout, `"code": "fingerprint-mismatch"`), r.stderr)
	}
	t.Logf("Moodle zip of 100,000 learners, fingerprint-mismatch: peak resident %d KiB", kib)
	if kib > 64<<10 {
		t.Errorf("peak resident memory %d KiB, over the 64 MiB of organisateurs.md", kib)
	}
	// Built whole before its rename, the html report took 440 MiB.
	for _, format := range []string{"json", "csv", "html"} {
		out := "rapport." + format
		kib := h.peakUnder(64<<10, "valider", "--format", format, "--sortie", out, "rendus.zip")
		t.Logf("Moodle zip of 100,000 learners, %s --sortie: peak resident %d KiB", format, kib)
		if st, err := os.Stat(h.path(out)); err != nil || st.Size() < 100_000*100 {
			t.Fatalf("%s: %v", out, err)
		}
		if kib > 64<<10 && format != "csv" {
			t.Errorf("%s --sortie: peak resident memory %d KiB, over the 64 MiB of organisateurs.md", format, kib)
		}
	}
}

// bigZip writes at path a zip of 100,000 learners, each adding her
// entries with put.
func bigZip(t *testing.T, path string, learner func(i int, put func(name string, data []byte))) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for i := range 100_000 {
		learner(i, func(name string, data []byte) {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(data)
		})
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestScaleMoodleOneKey: 100,000 Moodle learners who all state one
// fingerprint form one group of duplicate-fingerprint; the report lists
// the group's 100,000 paths and still stays in the 64 MiB.
func TestScaleMoodleOneKey(t *testing.T) {
	h, fp := scaleHome(t)
	page := []byte(accesPage(fp))
	bigZip(t, h.path("rendus.zip"), func(i int, put func(string, []byte)) {
		put(fmt.Sprintf("Nom%06d Prénom_%d_assignsubmission_file_/acces.md", i, 100000+i), page)
	})
	kib, r := h.peakRun(64<<10, "valider", "--format", "json", "rendus.zip")
	if n := strings.Count(r.stdout, `"code": "duplicate-fingerprint"`); r.code != 1 || n != 100_000 {
		t.Fatalf("exit %d, %d duplicate-fingerprint\n%s", r.code, n, r.stderr)
	}
	t.Logf("Moodle zip of 100,000 learners, one fingerprint: peak resident %d KiB", kib)
	if kib > 64<<10 {
		t.Errorf("peak resident memory %d KiB, over the 64 MiB of organisateurs.md", kib)
	}
}

// scaleHome is a home for a 100,000-file test, a long test, and a
// random fingerprint to state.
func scaleHome(t *testing.T) (*home, string) {
	testenv.Long(t)
	t.Parallel()
	raw := make([]byte, 32)
	rand.Read(raw)
	return newHome(t), "SHA256:" + base64.RawStdEncoding.EncodeToString(raw)
}

// TestScaleFlat: a Moodle export unzipped, 100,000 learners' folders side
// by side in one folder. The walk keeps no trace of a folder once read
// (only of those it is in), so this too stays in the 64 MiB of
// organisateurs.md; it kept all 100,000 and took 74 MiB.
func TestScaleFlat(t *testing.T) {
	h, fp := scaleHome(t)
	page := []byte(accesPage(fp))
	for i := range 100_000 {
		d := h.path(fmt.Sprintf("rendus/Nom%06d Prénom_%d_assignsubmission_file_", i, 100000+i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(d, "acces.md"), page, 0o644)
	}
	kib, r := h.peakRun(64<<10, "valider", "--format", "json", "rendus")
	if n := strings.Count(r.stdout, `"apprenant": "Nom`); r.code != 1 || n != 100_000 {
		t.Fatalf("exit %d, %d learners\n%s", r.code, n, r.stderr)
	}
	t.Logf("100,000 Moodle learners' folders in one folder: peak resident %d KiB", kib)
	if kib > 64<<10 {
		t.Errorf("peak resident memory %d KiB, over the 64 MiB of organisateurs.md", kib)
	}
}
