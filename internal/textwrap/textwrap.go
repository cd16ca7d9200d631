// Package textwrap re-flows text for a terminal's width: the one wrapping
// of pret, for what cmd prints and for the wizard's questions.
package textwrap

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Text re-flows the lines of s wider than width columns (<= 0: none) at spaces, a
// continuation under a layout's last column. A word is never cut: one wider than the
// terminal gets its own line, left to the soft wrap, which a copy rejoins. A comment
// continues as one; a diff hunk's line with its marker and "↪ ".
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
		old, new = 0, 0
		if m := hunkHeader().FindStringSubmatch(plain); m != nil {
			old, new = hunkCount(m[1]), hunkCount(m[2])
		}
		lines[i] = wrapLine(line, plain, width)
	}
	return strings.Join(lines, "\n")
}

// The patterns compile on first use: off a terminal nothing is wrapped,
// and no command pays for them at start-up.
var hunkHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@`)
})

// hunkCount is a hunk header's line count; one when left out.
func hunkCount(c string) int {
	if n, err := strconv.Atoi(c); err == nil {
		return n
	}
	return 1
}

// wrapLine wraps a line of text, or of comment continued as comments at the same indent.
func wrapLine(line, plain string, width int) string {
	if Columns(line) <= width {
		return line
	}
	lead := len(line) - len(strings.TrimLeft(line, " "))
	if strings.HasPrefix(strings.TrimLeft(plain, " "), "#") {
		cont := line[:lead] + "# "
		if lead+2 > width/2 {
			cont = "# "
		}
		return flow(line, 0, width, cont, len(cont), false)
	}
	// Under the text after the last gap of two spaces or more: a layout's last column.
	hang, rest := lead, line[lead:]
	if i := strings.LastIndex(rest, "  "); i >= 0 {
		hang += Columns(rest[:len(rest)-len(strings.TrimLeft(rest[i:], " "))])
	}
	if hang > width/2 {
		hang = min(lead+4, width/2)
	}
	return flow(line, 0, width, strings.Repeat(" ", hang), hang, true)
}

// wrapDiffLine wraps one line of a hunk, after its colour and marker.
func wrapDiffLine(line string, width int) string {
	if Columns(line) <= width {
		return line
	}
	i := len(colour().FindString(line))
	cont, contW := line[i:i+1]+"↪ ", 3
	if width < 6 {
		cont, contW = line[i:i+1], 1
	}
	return line[:i+1] + flow(line[i+1:], 1, width, cont, contW, false)
}

// flow lays text out from column col, breaking before a word that does not fit; a new
// line starts with cont (contW wide), or at the margin when bare for a word too wide.
func flow(text string, col, width int, cont string, contW int, bare bool) string {
	var b strings.Builder
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
			if k == 0 && col+len(gap)+w > width { // an indent wider than the terminal: the word first (fuzzed)
				gap = gap[:max(width-col-w, 0)]
			}
			b.WriteString(gap)
			col += len(gap)
		}
		b.WriteString(word)
		col += w
	}
	return b.String()
}

// units cuts text into words, each with the spaces before it, as offsets
// {gap, word, end}. The spaces French never breaks (before ':', ';', '?',
// '!', '»', after '«') stay inside a word: pret writes them as ordinary ones.
func units(text string) [][3]int {
	var us [][3]int
	last := 0 // where the last word starts
	for i := 0; i < len(text); {
		w := len(text) - len(strings.TrimLeft(text[i:], " "))
		if w == len(text) {
			break // trailing spaces
		}
		word, _, _ := strings.Cut(text[w:], " ")
		end := w + len(word)
		first, _ := utf8.DecodeRuneInString(StripEscapes(text[w:end]))
		if len(us) > 0 && (strings.HasSuffix(StripEscapes(text[last:i]), "«") || strings.ContainsRune(":;?!»", first)) {
			us[len(us)-1][2] = end
		} else {
			us = append(us, [3]int{i, w, end})
		}
		i, last = end, w
	}
	return us
}

// Columns counts the display columns of s, without colour escapes: none for
// a combining mark or format character, two for an East Asian wide one.
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

// escape is a CSI sequence (to the end when unterminated), or a lone ESC.
var escape = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\x1b(\\[[^\x40-\x7e]*([\x40-\x7e]|$))?")
})

var colour = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^(" + escape().String() + ")*")
})

// StripEscapes is s without its colour escapes.
func StripEscapes(s string) string {
	return escape().ReplaceAllString(s, "")
}
