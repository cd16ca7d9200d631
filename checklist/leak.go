package checklist

import (
	"fmt"
	"strings"

	"github.com/romeo-pret/pret/keys/leak"
)

// LeakProblem is private-key-leak for the given lines (1-based, in
// order): the same code and message for every kind of file, naming the
// lines, never quoting them.
func LeakProblem(lines []int) Problem {
	return Problem{Code: "private-key-leak", Severity: SevError, Line: lines[0],
		Message: fmt.Sprintf("clé privée dans le fichier (%s) : supprimez ces lignes, et considérez cette clé comme compromise : créez-en une nouvelle", LineRanges(lines))}
}

// Guard is what every reader of a file pret may quote does first: the
// text with its lines of private key material emptied (leak.Redact), and
// private-key-leak when there were any. Parse the text it returns, never
// the original.
func Guard(data []byte) ([]byte, []Problem) {
	red, lines := leak.Redact(string(data))
	if len(lines) == 0 {
		return data, nil
	}
	return []byte(red), []Problem{LeakProblem(lines)}
}

// LineRanges writes [3 4 5 9] as "lignes 3 à 5, 9". A whole file of key
// lines must not make a message of megabytes: past 20 ranges, the rest
// is counted.
func LineRanges(nums []int) string {
	var parts []string
	for i := 0; i < len(nums); i++ {
		if len(parts) == 20 {
			parts = append(parts, fmt.Sprintf("et %d autres", len(nums)-i))
			break
		}
		start := nums[i]
		for i+1 < len(nums) && nums[i+1] == nums[i]+1 {
			i++
		}
		if start == nums[i] {
			parts = append(parts, fmt.Sprint(start))
		} else {
			parts = append(parts, fmt.Sprintf("%d à %d", start, nums[i]))
		}
	}
	word := "ligne "
	if len(nums) > 1 {
		word = "lignes "
	}
	return word + strings.Join(parts, ", ")
}
