package acces

import (
	"fmt"
	"strings"

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
	r.add("private-key-leak", checklist.SevError, marked[0],
		"clé privée dans le fichier (%s) : supprimez ces lignes, et considérez cette clé comme compromise : créez-en une nouvelle",
		lineRanges(marked))
}

// lineRanges writes [3 4 5 9] as "lignes 3 à 5, 9".
func lineRanges(nums []int) string {
	var parts []string
	for i := 0; i < len(nums); {
		if len(parts) == 20 {
			// A whole file of key lines must not make a message of
			// megabytes: the first ranges say where to look.
			parts = append(parts, fmt.Sprintf("et %d autres", len(nums)-i))
			break
		}
		j := i
		for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, fmt.Sprint(nums[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d à %d", nums[i], nums[j]))
		}
		i = j + 1
	}
	word := "ligne "
	if len(nums) > 1 {
		word = "lignes "
	}
	return word + strings.Join(parts, ", ")
}
