package termtext

import (
	"fmt"
	"strings"
)

// Plural is the French plural "s" of a count: 0 and 1 are singular.
func Plural(n int) string {
	if n > 1 {
		return "s"
	}
	return ""
}

// LineRanges: "lignes 3 à 5, 9"; past 20 ranges the rest is counted.
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
	return "ligne" + Plural(len(nums)) + " " + strings.Join(parts, ", ")
}
