package submissions

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// TestOrderIsTotal: archives holding several entries of one name (with
// different contents, so different verdicts), folders and archives given
// in shuffled argument orders, read with 1 to 8 workers many times: the
// results come out in one order, by path and, for equal paths, by the
// entries' order in the archive.
func TestOrderIsTotal(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	for round := range 6 {
		dir := t.TempDir()
		var args []string
		for a := range 3 {
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			names := []string{"acces.md", "etu/acces.md", "Dupont Alice_1_assignsubmission_file_acces.md"}
			var written []string
			for e := range 4 + rng.IntN(6) {
				name := names[rng.IntN(len(names))]
				w, _ := zw.Create(name)
				// Entry e: its own key, broken or not, so each entry's
				// verdict tells it apart.
				w.Write([]byte(page(newKey(byte(100+e)).fp, e%2 == 1)))
				written = append(written, fmt.Sprintf("%s#%d", name, e))
			}
			zw.Close()
			p := filepath.Join(dir, fmt.Sprintf("lot%d.zip", a))
			os.WriteFile(p, buf.Bytes(), 0o644)
			args = append(args, p)
		}
		os.MkdirAll(filepath.Join(dir, "d", "etu"), 0o755)
		os.WriteFile(filepath.Join(dir, "d", "etu", "acces.md"), []byte(page(newKey(1).fp, false)), 0o644)
		args = append(args, filepath.Join(dir, "d"))
		var want string
		for run := range 12 {
			shuffled := append([]string(nil), args...)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			got := render(Validate(shuffled, Options{Rules: testRules, Workers: 1 + run%8}))
			if run == 0 {
				want = got
				continue
			}
			if got != want {
				t.Fatalf("round %d run %d (workers %d): another order\n%s\nwant\n%s", round, run, 1+run%8, got, want)
			}
		}
	}
}

// TestSameNameEntriesInArchiveOrder: entries of one name come out in
// the order they sit in the archive, whatever the workers.
func TestSameNameEntriesInArchiveOrder(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	const n = 12
	for e := range n {
		w, _ := zw.Create("acces.md") // at the root: each its own result
		w.Write([]byte(page(newKey(byte(150+e)).fp, false)))
	}
	zw.Close()
	p := filepath.Join(t.TempDir(), "lot.zip")
	os.WriteFile(p, buf.Bytes(), 0o644)
	for workers := 1; workers <= 8; workers++ {
		res := Validate([]string{p}, Options{Rules: testRules, Workers: workers})
		if len(res) != n {
			t.Fatalf("%d results", len(res))
		}
		for e, r := range res {
			if r.Fingerprint != newKey(byte(150+e)).fp {
				t.Fatalf("workers %d: result %d states %s, want entry %d's key", workers, e, r.Fingerprint, e)
			}
		}
	}
}

// render is every field of the results that a report shows, in order.
func render(res []checklist.FileResult) string {
	var b strings.Builder
	for _, r := range res {
		fmt.Fprintf(&b, "%s|%s|%s|%v|%s|%s\n", r.Path, r.Apprenant, r.Fingerprint, r.Valid, codesOfResult(r), strings.Join(r.DuplicateOf, ","))
	}
	return b.String()
}
