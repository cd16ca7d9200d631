// Package textwrap re-flows text for a terminal's width: the one wrapping
// of pret, for what cmd prints and for the wizard's questions.
package textwrap

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Text re-flows the lines of s wider than width (in display columns: an
// accent is one column, a wide character two, a combining mark none),
// breaking at spaces. A continuation line starts under the text of its
// column layout ("OK key-present   message…"), or 4 columns in when that
// column is past the middle. A word is never cut, even one wider than the
// terminal (a fingerprint at 40 columns): it gets a line of its own from
// the margin, left to the terminal's soft wrap, which a copy-paste
// rejoins, where a newline from pret would end up inside the copied
// fingerprint or path.
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
	old, new := 0, 0 // lines left in the current hunk
	for i, line := range lines {
		plain := StripEscapes(line)
		if old+new > 0 && plain != "" && strings.IndexByte(" -+", plain[0]) >= 0 {
			if plain[0] != '+' {
				old = max(old-1, 0)
			}
			if plain[0] != '-' {
				new = max(new-1, 0)
			}
			lines[i] = wrapDiffLine(line, width)
			continue
		}
		old, new = hunkCounts(plain)
		lines[i] = wrapLine(line, plain, width)
	}
	return strings.Join(lines, "\n")
}

var hunkHeader = regexp.MustCompile(`^@@ -\d+(,\d+)? \+\d+(,\d+)? @@`)

// hunkCounts reads the line counts of a hunk header "@@ -1,3 +1,4 @@"
// (a count left out is 1); zero for any other line.
func hunkCounts(plain string) (old, new int) {
	m := hunkHeader.FindStringSubmatch(plain)
	if m == nil {
		return 0, 0
	}
	count := func(c string) int {
		if c == "" {
			return 1
		}
		n, _ := strconv.Atoi(c[1:])
		return n
	}
	return count(m[1]), count(m[2])
}

// wrapLine wraps a line of text, or of comment (shell, ssh_config: "# …")
// whose continuations are comments too, at the same indent, so that a
// block copied from a narrow terminal reads as it was meant.
func wrapLine(line, plain string, width int) string {
	if Columns(line) <= width {
		return line
	}
	lead := len(line) - len(strings.TrimLeft(line, " "))
	var b strings.Builder
	if strings.HasPrefix(strings.TrimLeft(plain, " "), "#") {
		cont := line[:lead] + "# "
		if lead+2 > width/2 {
			cont = "# "
		}
		flow(&b, line, 0, width, cont, len(cont), false)
		return b.String()
	}
	hang := hangColumn(line, lead)
	if hang > width/2 {
		hang = min(lead+4, width/2)
	}
	flow(&b, line, 0, width, strings.Repeat(" ", hang), hang, true)
	return b.String()
}

// wrapDiffLine wraps one line of a hunk: its colour and marker first,
// then its text, each continuation starting with the marker and "↪ ".
func wrapDiffLine(line string, width int) string {
	if Columns(line) <= width {
		return line
	}
	i := len(colour.FindString(line))
	var b strings.Builder
	b.WriteString(line[:i+1])
	cont, contW := line[i:i+1]+"↪ ", 3
	if width < 6 {
		cont, contW = line[i:i+1], 1
	}
	flow(&b, line[i+1:], 1, width, cont, contW, false)
	return b.String()
}

// flow writes text from column col, breaking before a word that does
// not fit; each new line starts with cont, contW columns wide. A word is
// never cut: one wider than the room after cont starts a line of its own
// at the margin when bare allows (a fingerprint, a path or a command to
// copy), else after cont (a diff or comment line needs its marker). The
// spacing between words is kept within a line (the columns of a layout);
// a break drops the spaces where it falls.
func flow(b *strings.Builder, text string, col, width int, cont string, contW int, bare bool) {
	for k, u := range units(text) {
		gap, word := text[u[0]:u[1]], text[u[1]:u[2]]
		w := Columns(word)
		switch {
		case bare && col+len(gap)+w > width && contW+w > width:
			if k > 0 || col > 0 {
				b.WriteByte('\n')
			}
			col = 0
		case k > 0 && col+len(gap)+w > width:
			b.WriteString("\n" + cont)
			col = contW
		default:
			b.WriteString(gap)
			col += len(gap)
		}
		b.WriteString(word)
		col += w
	}
}

// units cuts text into words, each with the spaces before it, as offsets
// {gap, word, end}. The spaces French typography never breaks stay inside
// a word: before ':', ';', '?', '!' and a closing guillemet, and after an
// opening one. pret's messages write them as ordinary spaces, so a narrow
// terminal would otherwise start a line with a lone ':'; written as U+00A0
// or U+202F (no-break spaces), they are no break points in the first place.
func units(text string) [][3]int {
	var us [][3]int
	last := 0 // where the last word starts
	for i := 0; i < len(text); {
		w := i + len(text[i:]) - len(strings.TrimLeft(text[i:], " "))
		if w == len(text) {
			break // trailing spaces
		}
		end := strings.IndexByte(text[w:], ' ')
		if end < 0 {
			end = len(text)
		} else {
			end += w
		}
		n := len(us)
		first, _ := utf8.DecodeRuneInString(StripEscapes(text[w:end]))
		if n > 0 && (strings.HasSuffix(StripEscapes(text[last:i]), "«") || strings.ContainsRune(":;?!»", first)) {
			us[n-1][2] = end
		} else {
			us = append(us, [3]int{i, w, end})
		}
		i, last = end, w
	}
	return us
}

// hangColumn is where the text after the last wide gap (two spaces or
// more) begins: the message column of a checklist or flag line (colour
// escapes hold no spaces).
func hangColumn(line string, lead int) int {
	hang, rest := lead, line[lead:]
	for {
		i := strings.Index(rest, "  ")
		if i < 0 {
			return hang
		}
		j := len(rest) - len(strings.TrimLeft(rest[i:], " "))
		hang += Columns(rest[:j])
		rest = rest[j:]
	}
}

// Columns counts the display columns of s, without colour escapes: none
// for a combining mark or an invisible format character, two for an East
// Asian wide or fullwidth one (emoji included), one otherwise.
func Columns(s string) int {
	n := 0
	for _, r := range StripEscapes(s) {
		switch {
		case r < 0x300: // Latin, accents precomposed; combining marks start here
			n++
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		case width.LookupRune(r).Kind() == width.EastAsianWide, width.LookupRune(r).Kind() == width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

// escape is a CSI sequence (ESC [ … final byte, or to the end when
// unterminated), or a lone ESC.
var escape = regexp.MustCompile("\x1b(\\[[^\x40-\x7e]*([\x40-\x7e]|$))?")

var colour = regexp.MustCompile("^(" + escape.String() + ")*")

// StripEscapes is s without its colour escapes.
func StripEscapes(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	return escape.ReplaceAllString(s, "")
}
