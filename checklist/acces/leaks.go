package acces

import (
	"github.com/romeo-pret/pret/checklist"
)

// leaks reports the lines of private key material (keys.MaterialMask,
// computed by readLines) by number only.
func (d *document) leaks(r *Result) {
	var marked []int
	for i, m := range d.leak {
		if m {
			marked = append(marked, i+1)
		}
	}
	if len(marked) == 0 {
		return
	}
	r.Problems = append(r.Problems, checklist.LeakProblem(marked))
}
