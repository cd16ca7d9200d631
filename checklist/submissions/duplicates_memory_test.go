package submissions

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// oldMarkDuplicates is markDuplicates as it was before the files past the
// first maxDuplicateOf of a run shared their list and message: one list,
// one message and one problem per file.
func oldMarkDuplicates(recs []record, groups []string) {
	runs := map[string][]int{}
	var fps []string
	for i := range recs {
		if fp := recs[i].fp; fp != "" {
			if runs[fp] == nil {
				fps = append(fps, fp)
			}
			runs[fp] = append(runs[fp], i)
		}
	}
	for _, fp := range fps {
		run := runs[fp]
		learners := map[string]bool{}
		for _, i := range run {
			learners[groups[i]] = true
		}
		if len(run) < 2 || len(learners) < 2 {
			continue
		}
		for _, i := range run {
			var others []string
			for _, j := range run {
				if j != i && len(others) < maxDuplicateOf {
					others = append(others, recs[j].path)
				}
			}
			rec := &recs[i]
			if rec.more == nil {
				rec.more = &recordMore{}
			}
			rec.more.duplicateOf, rec.more.duplicateCount = others, len(run)-1
			rec.problems = append(rec.problems, checklist.Problem{
				Code: "duplicate-fingerprint", Severity: checklist.SevError, Line: int(rec.fpLine),
				Message: fmt.Sprintf("la même empreinte figure aussi dans %s : deux personnes ne partagent pas une clé", listPaths(others, len(run)-1)),
			})
			rec.valid = false
		}
	}
}

// TestMarkDuplicatesShared: sharing the tail of a large run's lists,
// messages and problem lists changes no result: every file reads what
// one list per file gave, over generated runs of every size around
// maxDuplicateOf, with and without other problems, one learner or many.
func TestMarkDuplicatesShared(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 11))
	for c := range 300 {
		n := 1 + r.IntN(60)
		recs := make([]record, n)
		groups := make([]string, n)
		for i := range recs {
			recs[i] = record{path: fmt.Sprintf("r/%03d/acces.md", i), valid: true, fpLine: int32(1 + r.IntN(3))}
			if r.IntN(8) > 0 {
				recs[i].fp = fmt.Sprintf("SHA256:%d", r.IntN(3))
			}
			if r.IntN(4) == 0 {
				recs[i].problems = []checklist.Problem{{Code: "missing-date", Severity: checklist.SevError}}
				recs[i].valid = false
			}
			groups[i] = fmt.Sprintf("g%d", r.IntN(1+r.IntN(n)))
		}
		want := make([]record, n)
		for i := range recs {
			want[i] = recs[i]
			want[i].problems = append([]checklist.Problem(nil), recs[i].problems...)
		}
		oldMarkDuplicates(want, groups)
		l := listOf(recs)
		markDuplicates(l, hashGroups(groups))
		for i := range recs {
			recs[i] = *l.at(i)
		}
		for i := range recs {
			if !reflect.DeepEqual(recs[i].problems, want[i].problems) || recs[i].valid != want[i].valid ||
				(recs[i].more == nil) != (want[i].more == nil) || recs[i].more != nil && !reflect.DeepEqual(*recs[i].more, *want[i].more) {
				t.Fatalf("case %d, file %d: got %+v %+v, want %+v %+v", c, i, recs[i].problems, recs[i].more, want[i].problems, want[i].more)
			}
		}
		// A problem appended to one file (as --strict or a writer
		// could) reaches no other.
		for i := range recs {
			if len(recs[i].problems) > 0 {
				recs[i].problems = append(recs[i].problems, checklist.Problem{Code: "x"})
				break
			}
		}
		for i := range recs {
			for _, p := range recs[i].problems[:min(len(recs[i].problems), len(want[i].problems))] {
				if p.Code == "x" {
					t.Fatalf("case %d: an append to one file's problems reached file %d", c, i)
				}
			}
		}
	}
}

// TestArchiveEntryFromPath: an archive entry's result names its archive
// and its entry as before they were read back from its path, whatever
// the names hold ("!/", accents, folders, a zip in a folder named like
// one), and a shared key between entries still lists the others.
func TestArchiveEntryFromPath(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "a!", "x.zip!")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{"acces.md", "kim/acces.md", "é!/acces.md", "a/b/c/acces.md", "x!/y!/acces.md", "Dupont Alice_123_assignsubmission_file_acces.md"}
	zp := filepath.Join(dir, "rendus.zip")
	if err := os.WriteFile(zp, zipOf(t, "", names, page(newKey(4).fp, false)), 0o644); err != nil {
		t.Fatal(err)
	}
	results := Validate([]string{zp}, Options{Rules: testRules})
	if len(results) != len(names) {
		t.Fatalf("%d results for %d entries", len(results), len(names))
	}
	seen := map[string]bool{}
	for _, r := range results {
		if r.Archive != zp || r.Path != zp+"!/"+r.Entry || !slices.Contains(names, r.Entry) {
			t.Errorf("path %q: archive %q, entry %q", r.Path, r.Archive, r.Entry)
		}
		seen[r.Entry] = true
		if r.DuplicateCount == 0 && len(r.DuplicateOf) == 0 && codesOfResult(r) == "" {
			continue
		}
		for _, o := range r.DuplicateOf {
			if o == r.Path || !strings.HasPrefix(o, zp+"!/") {
				t.Errorf("%s: duplicate_of %q", r.Path, o)
			}
		}
	}
	if len(seen) != len(names) {
		t.Errorf("entries read: %v", seen)
	}
}

// hashGroups is Read's reading of learner groups: one hash each.
func hashGroups(groups []string) []uint64 {
	seed := maphash.MakeSeed()
	out := make([]uint64, len(groups))
	for i, g := range groups {
		out[i] = maphash.String(seed, g)
	}
	return out
}
