package termtext_test

import (
	"testing"

	"github.com/romeo-pret/pret/internal/termtext"
)

// TestLineRanges: runs of lines are ranges, and past 20 ranges the rest
// is counted, not listed.
func TestLineRanges(t *testing.T) {
	many := make([]int, 30)
	for i := range many {
		many[i] = 2 * i
	}
	for _, c := range []struct {
		in   []int
		want string
	}{
		{[]int{7}, "ligne 7"},
		{[]int{3, 4, 5, 9}, "lignes 3 à 5, 9"},
		{[]int{1, 3, 4}, "lignes 1, 3 à 4"},
		{many, "lignes 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, et 10 autres"},
	} {
		if got := termtext.LineRanges(c.in); got != c.want {
			t.Errorf("termtext.LineRanges(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
