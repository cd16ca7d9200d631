package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/testenv"
)

// generated is the minute an html report says it was made.
var generated = regexp.MustCompile(`<span id="generated">[^<]*</span>`)

// TestValiderOrderEveryWorkers: an archive with several entries of one
// name gives byte-identical reports on standard output and in --sortie,
// for every format and every --paralleles tried.
func TestValiderOrderEveryWorkers(t *testing.T) {
	t.Parallel()
	notShort(t)
	h := newHome(t)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for e := range 10 {
		w, _ := zw.Create([]string{"etu/acces.md", "acces.md"}[e%2])
		fp := fpOne
		if e%3 == 0 {
			fp = fpTwo
		}
		page := accesPage(fp)
		if e%4 == 1 {
			page = strings.Replace(page, "Connexion", "Connex", 1)
		}
		w.Write([]byte(page))
	}
	zw.Close()
	os.WriteFile(h.path("lot.zip"), buf.Bytes(), 0o644)
	for _, f := range checklist.FileFormats {
		var want string
		// Three runs show an order that depends on the workers or the
		// run; the long run (PRET_LONG=1) tries six.
		for i, workers := range []int{1, 8, 2, 3, 1, 4}[:max(3, testenv.Scaled(3, 6))] {
			args := []string{"valider", "--tous", "--format", f, "--paralleles", fmt.Sprint(workers), "lot.zip"}
			r := h.pret("", args...)
			out := h.path("rapport")
			s := h.pret("", append(args, "--sortie", out)...)
			got, _ := os.ReadFile(out)
			// The html report says the minute it was made: two runs may
			// straddle one.
			r.stdout = generated.ReplaceAllString(r.stdout, "")
			if r.code != s.code || generated.ReplaceAllString(string(got), "") != r.stdout {
				t.Fatalf("%s, %d workers: --sortie differs from standard output", f, workers)
			}
			if i == 0 {
				want = r.stdout
			} else if r.stdout != want {
				t.Fatalf("%s, %d workers: another report", f, workers)
			}
		}
	}
}
