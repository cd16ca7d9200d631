package submissions

import (
	"archive/zip"
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// FuzzWindowsReadTheWholeDirectory: whatever the archive's bytes, when
// its directory is read by windows, the windows give together the
// entries zip.NewReader gives reading it whole, in the same order, with
// the same data offsets; and each learner's entries are in one window.
func FuzzWindowsReadTheWholeDirectory(f *testing.F) {
	defer func(n int) { windowRecords = n }(windowRecords)
	windowRecords = 3
	for _, names := range [][]string{
		{"a/acces.md", "a/k.pub", "b/acces.md", "b/k.pub", "c/acces.md", "d/x", "d/y"},
		{"Dupont Alice_1_assignsubmission_file_acces.md", "Dupont Alice_1_assignsubmission_file_k.pub", "Martin Bob_2_assignsubmission_file_/acces.md",
			"Martin Bob_2_assignsubmission_file_/k.pub", "r.md", "s.md", "e/../f/acces.md", "f/k.pub"},
		{"a/1", "b/1", "a/2", "c/1", "c/2", "c/3"},
	} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for i, n := range names {
			w, _ := zw.Create(n)
			fmt.Fprintf(w, "entry %d", i)
		}
		zw.Close()
		f.Add(buf.Bytes())
		if names[0] == "a/acces.md" && directoryWindows(bytes.NewReader(buf.Bytes()), int64(buf.Len())) == nil {
			f.Fatal("the first seed must be read by windows")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		windows := directoryWindows(r, int64(len(data)))
		if windows == nil {
			return
		}
		whole, err := zip.NewReader(r, int64(len(data)))
		if err != nil && err != zip.ErrInsecurePath {
			t.Fatalf("windows for an archive archive/zip refuses: %v", err)
		}
		var got []string
		where := map[string]int{}
		for k, w := range windows {
			v := w.reader(r)
			zr, err := zip.NewReader(v, v.Size())
			if err != nil && err != zip.ErrInsecurePath {
				t.Fatalf("window %d: %v", k, err)
			}
			for _, zf := range zr.File {
				off, _ := zf.DataOffset()
				got = append(got, fmt.Sprintf("%q@%d", zf.Name, off))
				g := learnerGroupOf(zf.Name)
				if seen, ok := where[g]; ok && seen != k {
					t.Fatalf("%q in windows %d and %d", zf.Name, seen, k)
				}
				where[g] = k
			}
		}
		var want []string
		for _, zf := range whole.File {
			off, _ := zf.DataOffset()
			want = append(want, fmt.Sprintf("%q@%d", zf.Name, off))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("windows give\n%v\nwhole gives\n%v", got, want)
		}
	})
}
