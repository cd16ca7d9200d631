package main

import (
	"archive/zip"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// TestScaleMoodle is TestScaleArchive for a Moodle export of 100,000
// learners, each with her folder, an acces.md and a .pub whose
// fingerprint is not the stated one: every file is fingerprint-mismatch,
// a message quoting two fingerprints. It stays in the 64 MiB of
// organisateurs.md (least of three runs, /usr/bin/time).
func TestScaleMoodle(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 learners: not in -short")
	}
	h := newHome(t)
	f, err := os.Create(h.path("rendus.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	raw := make([]byte, 32)
	for i := range 100_000 {
		dir := fmt.Sprintf("Nom%06d Prénom_%d_assignsubmission_file_/", i, 100000+i)
		rand.Read(raw)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: dir + "acces.md", Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(accesPage("SHA256:" + base64.RawStdEncoding.EncodeToString(raw))))
		rand.Read(raw)
		key, err := ssh.NewPublicKey(ed25519.PublicKey(raw))
		if err != nil {
			t.Fatal(err)
		}
		if w, err = zw.CreateHeader(&zip.FileHeader{Name: dir + "id_ed25519_romeo.pub", Method: zip.Deflate}); err != nil {
			t.Fatal(err)
		}
		w.Write(ssh.MarshalAuthorizedKey(key))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r := h.pret("", "valider", "--format", "json", "rendus.zip")
	if r.code != 1 || strings.Count(r.stdout, `"code": "fingerprint-mismatch"`) != 100_000 {
		t.Fatalf("exit %d, %d fingerprint-mismatch\n%s", r.code, strings.Count(r.stdout, `"code": "fingerprint-mismatch"`), r.stderr)
	}
	kib := h.peakKiB("valider", "--format", "json", "rendus.zip")
	t.Logf("Moodle zip of 100,000 learners, fingerprint-mismatch: peak resident %d KiB", kib)
	if kib > 64<<10 {
		t.Errorf("peak resident memory %d KiB, over the 64 MiB of organisateurs.md", kib)
	}
}
