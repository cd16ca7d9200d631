package main

import (
	"strings"
	"unicode/utf8"
)

// wrapText re-flows the lines of s wider than width at spaces, so that a
// narrow terminal never cuts a word in two. A continuation line starts
// under the text of its column layout ("OK   key-present   message…"),
// or 4 columns in when that column is past the middle. A word wider than
// the line stays whole on a line of its own. width <= 0 changes nothing.
func wrapText(s string, width int) string {
	if width <= 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	var b strings.Builder
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(wrapLine(line, width))
	}
	return b.String()
}

func wrapLine(line string, width int) string {
	if visibleWidth(line) <= width {
		return line
	}
	lead := len(line) - len(strings.TrimLeft(line, " "))
	hang := hangColumn(line, lead)
	if hang > width/2 {
		hang = min(lead+4, width/2)
	}
	var b strings.Builder
	col := 0
	// Tokens keep the spacing inside the first line (the columns); a
	// break drops the spaces where it falls.
	rest := line
	first := true
	for rest != "" {
		spaces := len(rest) - len(strings.TrimLeft(rest, " "))
		gap := rest[:spaces]
		rest = rest[spaces:]
		end := strings.IndexByte(rest, ' ')
		if end < 0 {
			end = len(rest)
		}
		word := rest[:end]
		rest = rest[end:]
		if word == "" {
			break // trailing spaces
		}
		w := visibleWidth(word)
		if !first && col+len(gap)+w > width {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat(" ", hang))
			col = hang
		} else {
			b.WriteString(gap)
			col += len(gap)
		}
		b.WriteString(word)
		col += w
		first = false
	}
	return b.String()
}

// hangColumn is where the text after the last wide gap (two spaces or
// more) begins: the message column of a checklist or flag line.
func hangColumn(line string, lead int) int {
	col, hang := 0, lead
	for i := 0; i < len(line); {
		if i >= lead && strings.HasPrefix(line[i:], "  ") {
			j := i
			for j < len(line) && line[j] == ' ' {
				j++
			}
			hang = col + (j - i)
			col += j - i
			i = j
			continue
		}
		if line[i] == 0x1b {
			n := escapeLen(line[i:])
			i += n
			continue
		}
		_, size := utf8.DecodeRuneInString(line[i:])
		i += size
		col++
	}
	return hang
}

// visibleWidth counts the columns of s: runes, without colour escapes.
func visibleWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i += escapeLen(s[i:])
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return n
}

// escapeLen is the length of the CSI sequence (ESC [ … letter) at the
// start of s, or 1 for a lone ESC.
func escapeLen(s string) int {
	if len(s) < 2 || s[1] != '[' {
		return 1
	}
	for i := 2; i < len(s); i++ {
		if c := s[i]; c >= 0x40 && c <= 0x7e {
			return i + 1
		}
	}
	return len(s)
}
