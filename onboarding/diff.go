package onboarding

import (
	"fmt"
	"strings"

	"github.com/romeo-pret/pret/checklist"
)

// maxDiffCells bounds the line comparison (lines of one × lines of the
// other, after the common start and end are set aside): acces.md has a
// dozen lines, and a file big enough to exceed this is shown as replaced
// whole rather than compared in quadratic time.
const maxDiffCells = 4 << 20

type diffOp struct {
	kind byte // ' ', '-', '+'
	text string
}

// UnifiedDiff shows, as `diff -u` does, how the lines of old become those
// of new: three lines of context, @@ hunk headers. Colour (red removed,
// green added) only when color is set. Control characters from the files
// are shown escaped: a file's bytes never drive the terminal.
func UnifiedDiff(oldName, newName string, old, new []byte, color bool) string {
	a, b := splitLines(string(old)), splitLines(string(new))
	ops := diffLines(a, b)
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	var out strings.Builder
	out.WriteString(paint("1", "--- "+escapeLine(oldName)) + "\n")
	out.WriteString(paint("1", "+++ "+escapeLine(newName)) + "\n")
	const context = 3
	// Walk the ops, grouping changes whose context overlaps into hunks.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := i - context
		if start < 0 {
			start = 0
		}
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end += min(context, run-end)
				break
			}
			end = run
		}
		oldLine, newLine := 1, 1
		for _, op := range ops[:start] {
			if op.kind != '+' {
				oldLine++
			}
			if op.kind != '-' {
				newLine++
			}
		}
		oldCount, newCount := 0, 0
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				oldCount++
			}
			if op.kind != '-' {
				newCount++
			}
		}
		out.WriteString(paint("36", fmt.Sprintf("@@ -%s +%s @@", hunkRange(oldLine, oldCount), hunkRange(newLine, newCount))) + "\n")
		for _, op := range ops[start:end] {
			line := string(op.kind) + escapeLine(op.text)
			switch op.kind {
			case '-':
				line = paint("31", line)
			case '+':
				line = paint("32", line)
			}
			out.WriteString(line + "\n")
		}
		i = end
	}
	return out.String()
}

func hunkRange(start, count int) string {
	if count == 0 {
		start-- // diff -u names the line before an empty range
	}
	if count == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}

// splitLines cuts after each newline; a missing final newline is shown as
// diff does, so that adding one is a visible change.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if strings.HasSuffix(l, "\n") {
			lines[i] = strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
			if strings.HasSuffix(l, "\r\n") {
				lines[i] += "\r"
			}
		} else {
			lines[i] = l + "\x00nonewline"
		}
	}
	return lines
}

// diffLines is the longest common subsequence of lines, after setting the
// common start and end aside.
func diffLines(a, b []string) []diffOp {
	var head, tail []diffOp
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		head = append(head, diffOp{' ', a[0]})
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		tail = append([]diffOp{{' ', a[len(a)-1]}}, tail...)
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	var mid []diffOp
	if len(a)*len(b) > maxDiffCells {
		for _, l := range a {
			mid = append(mid, diffOp{'-', l})
		}
		for _, l := range b {
			mid = append(mid, diffOp{'+', l})
		}
	} else {
		// lcs[i][j] is the LCS length of a[i:] and b[j:].
		n, m := len(a), len(b)
		lcs := make([]int32, (n+1)*(m+1))
		at := func(i, j int) int32 { return lcs[i*(m+1)+j] }
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				v := at(i+1, j)
				if a[i] == b[j] {
					v = at(i+1, j+1) + 1
				} else if w := at(i, j+1); w > v {
					v = w
				}
				lcs[i*(m+1)+j] = v
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && a[i] == b[j]:
				mid = append(mid, diffOp{' ', a[i]})
				i, j = i+1, j+1
			case j < m && (i == n || at(i, j+1) >= at(i+1, j)):
				mid = append(mid, diffOp{'+', b[j]})
				j++
			default:
				mid = append(mid, diffOp{'-', a[i]})
				i++
			}
		}
		// Removals before additions in each run, as diff -u shows them.
		for k := 0; k < len(mid); {
			if mid[k].kind == ' ' {
				k++
				continue
			}
			e := k
			for e < len(mid) && mid[e].kind != ' ' {
				e++
			}
			var minus, plus []diffOp
			for _, op := range mid[k:e] {
				if op.kind == '-' {
					minus = append(minus, op)
				} else {
					plus = append(plus, op)
				}
			}
			copy(mid[k:], append(minus, plus...))
			k = e
		}
	}
	return append(append(head, mid...), tail...)
}

// escapeLine shows a line through checklist.Escape, the one escaping of
// strings from files, and the marker of a missing final newline as words.
func escapeLine(s string) string {
	nonl := strings.HasSuffix(s, "\x00nonewline")
	s = checklist.Escape(strings.TrimSuffix(s, "\x00nonewline"))
	if nonl {
		s += "  (pas de saut de ligne final)"
	}
	return s
}
