// Package textwrap re-flows text for a terminal's width: the one wrapping
// of pret, for what cmd prints and for the wizard's questions.
package textwrap

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Text re-flows the lines of s wider than width, so that a narrow
// terminal never cuts a word in two and no line is wider than the
// terminal but for a single word wider than it (counted in display columns: an accent is one column, a wide
// character two, a combining mark none). Lines break at spaces. A
// continuation line starts under the text of its column layout ("OK
// key-present   message…"), or 4 columns in when that column is past the
// middle; a word too wide for that room starts a line at the margin,
// whole. A word is never cut, even one wider than the terminal (a
// fingerprint at 40 columns): that word alone is left to the terminal's
// soft wrap, which a copy-paste rejoins, where a newline from pret would
// end up inside the copied fingerprint or path.
//
// A comment line ("# …", after spaces or not) continues as a comment:
// each continuation starts with "# ".
//
// The lines of a unified diff's hunks (after an "@@ -a,b +c,d @@" line,
// as many as its counts say) are diff lines: each continuation repeats
// the line's marker ('-', '+' or ' ') followed by "↪ ", so a wrapped
// removed line still reads as removed and not as two lines. width <= 0
// changes nothing.
func Text(s string, width int) string {
	if width <= 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	var b strings.Builder
	oldLeft, newLeft := 0, 0 // lines left in the current hunk
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		plain := StripEscapes(line)
		if oldLeft+newLeft > 0 && plain != "" && strings.IndexByte(" -+", plain[0]) >= 0 {
			switch plain[0] {
			case ' ':
				oldLeft, newLeft = max(oldLeft-1, 0), max(newLeft-1, 0)
			case '-':
				oldLeft = max(oldLeft-1, 0)
			case '+':
				newLeft = max(newLeft-1, 0)
			}
			b.WriteString(wrapDiffLine(line, width))
			continue
		}
		oldLeft, newLeft = hunkCounts(plain)
		if t := strings.TrimLeft(plain, " "); strings.HasPrefix(t, "#") {
			b.WriteString(wrapComment(line, width))
			continue
		}
		b.WriteString(wrapLine(line, width))
	}
	return b.String()
}

// hunkCounts reads the line counts of a hunk header "@@ -1,3 +1,4 @@";
// zero for any other line.
func hunkCounts(plain string) (old, new int) {
	rest, ok := strings.CutPrefix(plain, "@@ -")
	if !ok {
		return 0, 0
	}
	oldRange, rest, ok := strings.Cut(rest, " +")
	if !ok {
		return 0, 0
	}
	newRange, _, ok := strings.Cut(rest, " @@")
	if !ok {
		return 0, 0
	}
	count := func(r string) (int, bool) {
		start, n, found := strings.Cut(r, ",")
		if _, err := strconv.Atoi(start); err != nil {
			return 0, false
		}
		if !found {
			return 1, true
		}
		c, err := strconv.Atoi(n)
		return c, err == nil && c >= 0
	}
	o, ok1 := count(oldRange)
	n, ok2 := count(newRange)
	if !ok1 || !ok2 {
		return 0, 0
	}
	return o, n
}

func wrapLine(line string, width int) string {
	if Columns(line) <= width {
		return line
	}
	lead := len(line) - len(strings.TrimLeft(line, " "))
	hang := hangColumn(line, lead)
	if hang > width/2 {
		hang = min(lead+4, width/2)
	}
	var b strings.Builder
	flow(&b, line, 0, width, strings.Repeat(" ", hang), hang, true)
	return b.String()
}

// wrapDiffLine wraps one line of a hunk: its colour and marker first,
// then its text, each continuation starting with the marker and "↪ ".
func wrapDiffLine(line string, width int) string {
	if Columns(line) <= width {
		return line
	}
	i := 0
	for i < len(line) && line[i] == 0x1b {
		i += escapeLen(line[i:])
	}
	marker := line[i : i+1]
	var b strings.Builder
	b.WriteString(line[:i+1])
	cont, contW := marker+"↪ ", 3
	if width < 6 {
		cont, contW = marker, 1
	}
	flow(&b, line[i+1:], 1, width, cont, contW, false)
	return b.String()
}

// wrapComment wraps a comment line (shell, ssh_config: "# …"): each
// continuation is a comment too, at the same indent, so that a block
// copied from a narrow terminal reads as it was meant.
func wrapComment(line string, width int) string {
	if Columns(line) <= width {
		return line
	}
	lead := len(line) - len(strings.TrimLeft(line, " "))
	cont := line[:lead] + "# "
	if lead+2 > width/2 {
		cont = "# "
	}
	var b strings.Builder
	flow(&b, line, 0, width, cont, len(cont), false)
	return b.String()
}

// flow writes text from column col, breaking before a word that does
// not fit; each new line starts with cont, contW columns wide. A word is
// never cut: one wider than the room after cont starts a line of its own
// at the margin when bare allows (a fingerprint, a path or a command to
// copy: the terminal's own soft wrap keeps it one word when copied, a
// newline would not), else after cont (a diff or comment line needs its
// marker). The spacing between words is kept within a line (the columns
// of a layout); a break drops the spaces where it falls. The spaces
// French puts around « : », « ; », « ? », « ! » and guillemets are no
// break points (glued).
func flow(b *strings.Builder, text string, col, width int, cont string, contW int, bare bool) {
	first := true
	for rest := text; rest != ""; {
		spaces := len(rest) - len(strings.TrimLeft(rest, " "))
		gap := rest[:spaces]
		rest = rest[spaces:]
		end := strings.IndexByte(rest, ' ')
		if end < 0 {
			end = len(rest)
		}
		if end == 0 {
			break // trailing spaces
		}
		end = glued(rest, end)
		word := rest[:end]
		rest = rest[end:]
		w := Columns(word)
		switch {
		case bare && col+len(gap)+w > width && contW+w > width:
			// Too wide after the indent: a line of its own from the
			// margin, whole.
			if !first || col > 0 {
				b.WriteByte('\n')
			}
			col = 0
		case !first && col+len(gap)+w > width:
			b.WriteByte('\n')
			b.WriteString(cont)
			col = contW
		default:
			b.WriteString(gap)
			col += len(gap)
		}
		first = false
		b.WriteString(word)
		col += w
	}
}

// glued is where the word text[:end] ends once extended over the spaces
// French typography never breaks: before ':', ';', '?', '!' and a
// closing guillemet, and after an opening one. pret's messages write
// them as ordinary spaces, so a narrow terminal would otherwise start a
// line with a lone ':'; written as U+00A0 or U+202F (no-break spaces),
// they are no break points in the first place.
func glued(text string, end int) int {
	last := text[:end]
	for {
		next := strings.TrimLeft(text[end:], " ")
		if len(next) == len(text)-end || next == "" {
			return end
		}
		n := strings.IndexByte(next, ' ')
		if n < 0 {
			n = len(next)
		}
		if !opensGlued(StripEscapes(last)) && !closesGlued(StripEscapes(next[:n])) {
			return end
		}
		last = next[:n]
		end = len(text) - len(next) + n
	}
}

// closesGlued: a word starting with French high punctuation or a closing
// guillemet, which stays on the line of the word before it.
func closesGlued(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return strings.ContainsRune(":;?!»", r)
}

// opensGlued: a word ending with an opening guillemet, which stays on
// the line of the word after it.
func opensGlued(w string) bool { return strings.HasSuffix(w, "«") }

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
			i += escapeLen(line[i:])
			continue
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		i += size
		col += runeWidth(r)
	}
	return hang
}

// Columns counts the display columns of s, without colour escapes.
func Columns(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i += escapeLen(s[i:])
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n += runeWidth(r)
	}
	return n
}

// runeWidth is how many columns a terminal gives a character: none for a
// combining mark or an invisible format character, two for an East Asian
// wide or fullwidth one (emoji included), one otherwise.
func runeWidth(r rune) int {
	switch {
	case r < 0x300: // Latin, accents precomposed; combining marks start here
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// StripEscapes is s without its colour escapes.
func StripEscapes(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i += escapeLen(s[i:])
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
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
