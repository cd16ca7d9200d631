package submissions

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchiveReadByWindows: an archive of more learners than a window
// holds is read a window at a time, and gives what reading it whole
// gives: every learner once, each submission paired with the .pub
// beside it (a wrong one is fingerprint-mismatch, wherever the window
// cuts), every learner without acces.md reported. An archive whose
// learners' entries are not together is read whole, with the same
// results.
func TestArchiveReadByWindows(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	n := 3 * windowRecords / 2 // two or three entries each: several windows
	files := map[string]entry{}
	want := map[string]string{}
	for i := range n {
		k := newKey(byte(i))
		dir := fmt.Sprintf("Nom%05d Prénom_%d_assignsubmission_file_/", i, 1000+i)
		if i == 5 {
			files[dir+strings.Repeat("n", 3000)+".txt"] = entry{body: "a long name"}
		}
		if i%3 == 0 {
			files[dir+"z-notes.txt"] = entry{body: "x"} // learners of 2 and 3 entries: a window's edge cuts between any two
		}
		switch i % 10 {
		case 3: // no acces.md
			files[dir+"acces.docx"] = entry{body: "PK"}
			files[dir+"id_ed25519_romeo.pub"] = entry{body: string(k.pub)}
			want[dir] = "no-acces-md"
			continue
		case 7: // another key beside
			files[dir+"id_ed25519_romeo.pub"] = entry{body: string(newKey(byte(i + 1)).pub)}
			want[dir+"acces.md"] = "fingerprint-mismatch"
		default:
			files[dir+"id_ed25519_romeo.pub"] = entry{body: string(k.pub)}
			want[dir+"acces.md"] = ""
		}
		// The keys of 256 seeds repeat: one fingerprint per learner.
		files[dir+"acces.md"] = entry{body: strings.Replace(page(k.fp, false), "seance-novembre", fmt.Sprintf("seance-%d", i), 1)}
	}
	grouped := zipLayout(t, files) // sorted by name: each learner's entries together
	if w := directoryWindows(bytes.NewReader(grouped), int64(len(grouped))); len(w) < 2 {
		t.Fatalf("%d windows: the fixture must span several", len(w))
	}
	shuffled := shuffledZip(t, files)
	for name, data := range map[string][]byte{"grouped": grouped, "shuffled": shuffled} {
		zp := filepath.Join(t.TempDir(), "lot.zip")
		os.WriteFile(zp, data, 0o644)
		res := byPath(Validate([]string{zp}, Options{Rules: testRules}), zp+"!/")
		if len(res) != len(want) {
			t.Fatalf("%s: %d results, want %d", name, len(res), len(want))
		}
		for p, codes := range want {
			r, ok := res[p]
			if !ok {
				t.Fatalf("%s: no result for %s", name, p)
			}
			// Keys repeat every 256 learners: duplicates are not this test's.
			got := strings.TrimSpace(strings.ReplaceAll(codesOfResult(r), "duplicate-fingerprint", ""))
			if got != codes {
				t.Errorf("%s %s: %q, want %q", name, p, got, codes)
			}
		}
	}
	if w := directoryWindows(bytes.NewReader(shuffled), int64(len(shuffled))); w != nil {
		t.Fatalf("learners' entries apart, yet %d windows", len(w))
	}
}

// shuffledZip is files as a zip in a random order.
func shuffledZip(t *testing.T, files map[string]entry) []byte {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[n].body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// directoryWindows are the windows scanDirectory cuts, under no cap.
func directoryWindows(r io.ReaderAt, size int64) []window {
	w, _ := scanDirectory(r, size, math.MaxUint64, math.MaxInt64)
	return w
}
