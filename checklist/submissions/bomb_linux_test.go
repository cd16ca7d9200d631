// Beside hostile_linux_test.go, whose helpers (bomb, only, page) it uses.

package submissions

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/testenv"
)

// sharedStreamBomb is a zip whose n central-directory entries all point
// at one deflate stream that inflates to size bytes: small on disk, n
// times size to inflate.
func sharedStreamBomb(t testing.TB, n int, size int64) []byte {
	one := bomb(t, "e00000/acces.md", size)
	eocd := bytes.LastIndex(one, []byte("PK\x05\x06"))
	cd := int(binary.LittleEndian.Uint32(one[eocd+16:]))
	rec := one[cd:eocd]
	var out bytes.Buffer
	out.Write(one[:cd])
	for i := range n {
		r := append([]byte(nil), rec...)
		copy(r[46:], fmt.Sprintf("e%05d", i))
		out.Write(r)
	}
	end := append([]byte(nil), one[eocd:]...)
	binary.LittleEndian.PutUint16(end[8:], uint16(n))
	binary.LittleEndian.PutUint16(end[10:], uint16(n))
	binary.LittleEndian.PutUint32(end[12:], uint32(n*len(rec)))
	out.Write(end)
	return out.Bytes()
}

// TestSharedStreamBombIsBounded: however many entries share one stream,
// and whether that stream inflates past the cap or under it, the entries
// an archive inflates stay within its budget (one entry beyond it); the
// rest are unreadable with a French reason, none skipped: too-large is
// for an entry over 1 MiB (acces-md.md), which these are not all.
func TestSharedStreamBombIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	for _, size := range []int64{900 << 10, 2 << 20} {
		for _, n := range []int{500, 3000} {
			data := sharedStreamBomb(t, n, size)
			p := filepath.Join(t.TempDir(), "bombe.zip")
			os.WriteFile(p, data, 0o644)
			const workers = 2
			res := Validate([]string{p}, Options{Rules: testRules, Workers: workers})
			if len(res) != n {
				t.Fatalf("%d entries of %d bytes: %d results", n, size, len(res))
			}
			inflated := 0
			for _, r := range res {
				if len(r.Problems) == 0 {
					t.Fatalf("%s read as valid", r.Path)
				}
				if strings.Contains(r.Problems[0].Message, "bombe zip") {
					if r.Problems[0].Code != "unreadable" {
						t.Errorf("%+v", r.Problems[0])
					}
					continue
				}
				inflated++
			}
			perEntry := min(size, 1<<20+1)
			// The documented budget: 16 MiB plus twenty times the archive.
			if limit := int((16<<20+20*int64(len(data)))/perEntry) + workers + 1; inflated > limit {
				t.Errorf("%d entries of %d bytes (archive %d bytes): %d inflated, budget allows %d", n, size, len(data), inflated, limit)
			}
		}
	}
}

// TestArchiveInArchive: a .zip inside a .zip is not opened but said,
// as unreadable with a French reason, wherever it sits and whatever
// its case; the submissions beside it are read.
func TestArchiveInArchive(t *testing.T) {
	for _, name := range []string{"lot.zip", "Dupont Alice_1_assignsubmission_file_/rendu.ZIP", "a/b/c.zip"} {
		var inner, outer bytes.Buffer
		zw := zip.NewWriter(&inner)
		w, _ := zw.Create("kim/acces.md")
		w.Write([]byte(page(newKey(1).fp, false)))
		zw.Close()
		zw = zip.NewWriter(&outer)
		w, _ = zw.Create(name)
		w.Write(inner.Bytes())
		w, _ = zw.Create("lee/acces.md")
		w.Write([]byte(page(newKey(2).fp, false)))
		zw.Close()
		p := filepath.Join(t.TempDir(), "export.zip")
		os.WriteFile(p, outer.Bytes(), 0o644)
		res := Validate([]string{p}, Options{Rules: testRules})
		if len(res) != 2 {
			t.Fatalf("%s: %d results: %+v", name, len(res), res)
		}
		nested := only(t, res, p+"!/"+name)
		if !isUnreadable(nested) || !strings.Contains(nested.Problems[0].Message, "archive dans une archive") {
			t.Errorf("%s: %+v", name, nested)
		}
		if r := only(t, res, p+"!/lee/acces.md"); !r.Valid {
			t.Errorf("beside it: %+v", r)
		}
	}
}

// TestArchiveBudgetIsDeterministic: an archive whose entries inflate
// past its budget (pages padded with spaces to 1 MiB, which compress a
// thousand to one, among short pages) has the same entries read and the
// same refused on every run, whatever the workers: the budget is spent
// in the walk's order, so the refused entries are those after the
// budget ran out, every one of them, and those read stay within it.
func TestArchiveBudgetIsDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	const n = 60
	for i := range n {
		text := page(newKey(byte(i)).fp, false)
		if i%2 == 0 {
			text += strings.Repeat(" ", 1<<20-len(text))
		}
		w, err := zw.Create(fmt.Sprintf("etu%03d/acces.md", i))
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(text))
	}
	zw.Close()
	p := filepath.Join(t.TempDir(), "export.zip")
	os.WriteFile(p, buf.Bytes(), 0o644)
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	size := map[string]int64{}
	for _, zf := range zr.File {
		size[p+"!/"+zf.Name] = int64(zf.UncompressedSize64)
	}
	var first []string
	// Three runs show a budget that depends on the workers or the run;
	// the long run (PRET_LONG=1) repeats them.
	for _, workers := range []int{1, 8, 2, 3, 2, 1}[:max(3, testenv.Scaled(3, 6))] {
		res := Validate([]string{p}, Options{Rules: testRules, Workers: workers})
		if len(res) != n {
			t.Fatalf("%d results, want %d", len(res), n)
		}
		var got []string
		refused, spent := false, int64(0)
		for _, r := range res {
			bomb := len(r.Problems) > 0 && strings.Contains(r.Problems[0].Message, "bombe zip")
			switch {
			case bomb:
				if r.Problems[0].Code != "unreadable" {
					t.Fatalf("workers %d: %s refused for the budget as %+v, want unreadable (it is not over 1 MiB)", workers, r.Path, r.Problems[0])
				}
				refused = true
			case refused:
				t.Fatalf("workers %d: %s read after an entry refused for the budget", workers, r.Path)
			case !r.Valid && !(len(r.Problems) == 1 && r.Problems[0].Code == "too-large"):
				// Padded past 16 KiB, an entry is read whole, then too-large unread.
				t.Fatalf("workers %d: %s: %+v", workers, r.Path, r.Problems)
			default:
				spent += size[r.Path]
			}
			got = append(got, fmt.Sprintf("%s %v %v", r.Path, r.Valid, bomb))
		}
		if !refused {
			t.Fatalf("workers %d: the budget never ran out: the test reads nothing it means to", workers)
		}
		if budget := archiveBudget(int64(buf.Len())); spent > budget+1<<20 {
			t.Fatalf("workers %d: %d bytes inflated, budget %d", workers, spent, budget)
		}
		if first == nil {
			first = got
		} else if !slices.Equal(got, first) {
			t.Fatalf("workers %d: not the results of the first run", workers)
		}
	}
}
