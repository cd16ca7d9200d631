package acces

import (
	"fmt"
	"strings"

	"github.com/romeo-pret/pret/checklist"
)

// leaks marks every line of private key material and reports them by
// number only.
func (d *document) leaks(r *Result) {
	var marked []int
	inPEM, inPuTTY := false, false
	for i := range d.lines {
		l := &d.lines[i]
		raw := l.raw
		switch {
		case strings.Contains(raw, "-----BEGIN") && strings.Contains(raw, "PRIVATE KEY"):
			inPEM = !strings.Contains(raw, "-----END")
			l.leak = true
		case inPEM:
			l.leak = true
			if strings.Contains(raw, "-----END") {
				inPEM = false
			}
		case strings.Contains(raw, "PuTTY-User-Key-File-"):
			inPuTTY, l.leak = true, true
		case inPuTTY:
			l.leak = true
			if strings.Contains(raw, "Private-MAC:") || strings.TrimSpace(raw) == "" {
				inPuTTY = false
			}
		case strings.Contains(raw, "b3BlbnNzaC1rZXktdjE") || strings.Contains(raw, "-----END") && strings.Contains(raw, "PRIVATE KEY"):
			l.leak = true
		}
		if l.leak {
			marked = append(marked, l.no)
			// Nothing of this line is read by the other rules.
			l.folded, l.cells, l.words, l.blank = "", nil, nil, true
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
