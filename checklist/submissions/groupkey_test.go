package submissions

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// learnerGroup is the string a group was before groupKey.hash, the
// oracle of TestGroupHashIsLearnerGroups: hashing it must give what
// hashing by parts gives.
func learnerGroup(place, name, moodle string, learnerFolder bool) string {
	if moodle != "" {
		return "m:" + moodle
	}
	if !learnerFolder {
		// "//" cannot meet place + "/" + a key: a key is a file name.
		return place + "//" + name
	}
	return place + "/" + submissionKey(name)
}

// submissionKey is a file name without its copy mark, folded.
func submissionKey(name string) string {
	stem, _ := strings.CutSuffix(checklist.Fold(name), ".md")
	return trimCopyMark(stem)
}

// groupPieces are the bits learner groups are made of: folder ids,
// Moodle keys, copy marks, names that fold (accents, NFD, œ, case),
// invalid UTF-8, separators the joins could confuse.
var groupPieces = []string{"", "d:", "z:", "801:1f2:", "!/", "/", "//", "etu042", "acces", "Accès", "ACCES", "acce\u0300s", ".md", ".MD",
	" (1)", "(2)", " (1234567)", "-1", "_2", " 3", "(x)", "()", "(", ")", "m:", "Dupont Alice_12_", "œ", "Œ", "\xff", "é", " ", "0", "9"}

func randomPiece(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(5) {
		b.WriteString(groupPieces[rng.IntN(len(groupPieces))])
	}
	return b.String()
}

// TestGroupHashIsLearnerGroups: hashing a file's group by parts gives
// the hash of the string learnerGroup builds, for every kind of group
// and generated names, so two files count as one learner exactly as
// before.
func TestGroupHashIsLearnerGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 8))
	seed := maphash.MakeSeed()
	var h maphash.Hash
	h.SetSeed(seed)
	var buf []byte
	for range 20000 {
		g := groupKey{randomPiece(rng), randomPiece(rng), "", rng.IntN(2) == 0}
		if rng.IntN(4) == 0 {
			g.moodle = randomPiece(rng)
		}
		var got uint64
		got, buf = g.hash(&h, buf)
		if want := maphash.String(seed, learnerGroup(g.place, g.name, g.moodle, g.learnerFolder)); got != want {
			t.Fatalf("%+v: hash by parts %x, of learnerGroup %x", g, got, want)
		}
	}
}

// TestTrimCopyMarkBytes: the byte form of trimCopyMark cuts what the
// string form cuts.
func TestTrimCopyMarkBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range 20000 {
		s := randomPiece(rng)
		if got, want := string(trimCopyMark([]byte(s))), trimCopyMark(s); got != want {
			t.Fatalf("%q: bytes %q, string %q", s, got, want)
		}
	}
	for s, want := range map[string]string{"acces (1)": "acces", "acces  (12)": "acces", "acces (1234567)": "acces (1234567)", "acces-2": "acces", "acces2": "acces2", "12": "12", "acces ()": "acces ()"} {
		if got := trimCopyMark(s); got != want {
			t.Errorf("trimCopyMark(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestJoinPrefix: the folder's prefix and a listed name make what
// filepath.Join makes, for folders as typed (".", "/", "a//b/", "./x",
// "../y") and names a folder can list.
func TestJoinPrefix(t *testing.T) {
	dirs := []string{".", "./", "/", "//", "a", "a/", "a//b/", "./x", "../y", "x/../..", "x/./y", "/tmp/rendus", "a b", "é", "..", "...", "-"}
	names := []string{"acces.md", "...", ".md", "a b", "é", "x..", ".x", "acces (1).md", "\x1b[31m"}
	for _, d := range dirs {
		for _, n := range names {
			if got, want := joinPrefix(d)+n, filepath.Join(d, n); got != want {
				t.Errorf("joinPrefix(%q)+%q = %q, filepath.Join gives %q", d, n, got, want)
			}
		}
	}
}

// TestLargeCalledOnce: Options.Large is called once, and only when a
// run meets LargeRun files, whatever the workers.
func TestLargeCalledOnce(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{LargeRun - 1, LargeRun, 2*LargeRun + 5} {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("etu%05d/acces.md", i)
		}
		zp := filepath.Join(dir, fmt.Sprintf("lot%d.zip", n))
		if err := os.WriteFile(zp, zipOf(t, "", names, "x"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			calls := 0
			got := Read([]string{zp}, Options{Rules: testRules, Workers: workers, Large: func() { calls++ }})
			if got.Len() != n {
				t.Fatalf("%d entries: %d results", n, got.Len())
			}
			if want := map[bool]int{true: 1, false: 0}[n >= LargeRun]; calls != want {
				t.Errorf("%d files, %d workers: Large called %d times, want %d", n, workers, calls, want)
			}
		}
	}
}
