package onboarding

import (
	"fmt"
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/romeo-pret/pret/checklist"
)

// UnifiedDiff shows, as `diff -u` does, how the lines of old become those
// of new: three lines of context, @@ hunk headers. The comparison is Go's
// anchored diff (go-internal/diff): O(n log n), so a 1 MiB file costs no
// quadratic time. Colour (red removed, green added) only when color is
// set. Every line is shown through checklist.Escape: a file's bytes never
// drive the terminal.
func UnifiedDiff(oldName, newName string, old, new []byte, color bool) string {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	var lines []string
	for i, l := range strings.Split(string(diff.Diff("a", old, "b", new)), "\n") {
		switch {
		case i < 3 || l == "": // diff's own header, the end
		case l == `\ No newline at end of file`:
			lines[len(lines)-1] += "  (pas de saut de ligne final)"
		case strings.HasPrefix(l, "@@"):
			var a, b, c, d int
			fmt.Sscanf(l, "@@ -%d,%d +%d,%d @@", &a, &b, &c, &d)
			lines = append(lines, "@@ -"+hunkRange(a, b)+" +"+hunkRange(c, d)+" @@")
		default:
			lines = append(lines, l[:1]+checklist.Escape(l[1:]))
		}
	}
	var out strings.Builder
	out.WriteString(paint("1", "--- "+checklist.Escape(oldName)) + "\n")
	out.WriteString(paint("1", "+++ "+checklist.Escape(newName)) + "\n")
	colors := map[byte]string{'@': "36", '-': "31", '+': "32"}
	for _, l := range lines {
		if c, ok := colors[l[0]]; ok {
			l = paint(c, l)
		}
		out.WriteString(l + "\n")
	}
	return out.String()
}

// hunkRange writes a range as diff -u does: "5" for one line, "4,0" for
// none (the line before it).
func hunkRange(start, count int) string {
	if count == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}
