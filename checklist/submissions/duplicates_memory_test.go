package submissions

import (
	"fmt"
	"math/rand/v2"
	"reflect"
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
		markDuplicates(recs, groups)
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
