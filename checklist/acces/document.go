package acces

import (
	"strings"
	"unicode"

	"github.com/romeo-pret/pret/checklist"
)

type document struct{ lines []line }

func readLines(s string) *document {
	raw := strings.Split(s, "\n")
	if len(raw) > 0 && raw[len(raw)-1] == "" {
		raw = raw[:len(raw)-1]
	}
	d := &document{lines: make([]line, len(raw))}
	for i, l := range raw {
		l = strings.TrimSuffix(l, "\r")
		text, heading, starts, cells := stripDecoration(l)
		d.lines[i] = line{no: i + 1, raw: l, heading: heading, starts: starts, cells: cells}
		d.lines[i].folded = checklist.Fold(text)
		d.lines[i].words = words(d.lines[i].folded)
		d.lines[i].blank = len(d.lines[i].words) == 0
	}
	return d
}

// line is one line of acces.md, read once into the forms the rules need.
type line struct {
	no      int    // 1-based
	raw     string // as written, without the line break
	folded  string // Markdown decoration removed, then fold
	blank   bool   // nothing left once decoration is removed
	heading bool
	// starts is true when the line opens a new block: a list item, a
	// heading, a table row; other non-blank lines continue the block above.
	starts bool
	cells  []string // table cells, decoration removed
	leak   bool     // private key material: never read further, never shown
	words  []string // words(folded), computed once
}

// stripDecoration removes the Markdown around the words: block quotes,
// list markers, headings, emphasis and code markers, quotes.
func stripDecoration(raw string) (text string, heading, starts bool, cells []string) {
	s := strings.TrimSpace(raw)
	for strings.HasPrefix(s, ">") {
		s = strings.TrimSpace(s[1:])
	}
	if strings.HasPrefix(s, "|") {
		parts := strings.Split(strings.Trim(s, "|"), "|")
		for _, p := range parts {
			p = cleanInline(strings.TrimSpace(p))
			if strings.Trim(p, "-: ") != "" {
				cells = append(cells, p)
			}
		}
		return strings.Join(cells, " "), false, true, cells
	}
	if h := strings.TrimLeft(s, "#"); len(h) < len(s) && (h == "" || h[0] == ' ') {
		return cleanInline(strings.TrimSpace(h)), true, true, nil
	}
	if rest, ok := listMarker(s); ok {
		s, starts = rest, true
	}
	return cleanInline(s), false, starts, nil
}

func listMarker(s string) (string, bool) {
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' {
		return strings.TrimSpace(s[2:]), true
	}
	i := 0
	for i < len(s) && i < 4 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
		return strings.TrimSpace(s[i+2:]), true
	}
	return s, false
}

// cleanInline drops emphasis, code and quote marks. An underscore inside a
// word (id_ed25519_romeo) is kept; one at a word's edge is emphasis.
func cleanInline(s string) string {
	if !strings.ContainsAny(s, "*_`\"«»“”") {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch r {
		case '*', '`', '"', '«', '»', '“', '”':
			continue
		case '_':
			inWord := i > 0 && i+1 < len(rs) && isWordRune(rs[i-1]) && isWordRune(rs[i+1])
			if !inWord {
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// words splits folded text into words and punctuation marks, the units the
// sentence is compared in.
func words(folded string) []string {
	out := make([]string, 0, len(folded)/5+1)
	start := -1
	for i, r := range folded {
		if isWordRune(r) || r == '\'' || r == '-' && start >= 0 {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, folded[start:i])
			start = -1
		}
		if !unicode.IsSpace(r) {
			out = append(out, string(r))
		}
	}
	if start >= 0 {
		out = append(out, folded[start:])
	}
	return out
}

// blocks groups lines into the units a sentence lives in: a paragraph, a
// list item with its wrapped lines, a table cell. Each block keeps where
// its lines start and end among its words, since a sentence written on a
// line of its own needs no full stop before it.
type block struct {
	first  int
	folded string
	words  []string
	edges  []int // word indexes where a line starts or ends, ascending
}

// edge reports whether a line starts or ends at word index i.
func (b *block) edge(i int) bool {
	for _, e := range b.edges {
		if e == i {
			return true
		}
	}
	return false
}

func (b *block) addLine(folded string, ws []string) {
	if len(b.edges) == 0 || b.edges[len(b.edges)-1] != len(b.words) {
		b.edges = append(b.edges, len(b.words))
	}
	if b.folded != "" {
		b.folded += " "
	}
	b.folded += folded
	if b.words == nil {
		b.words = ws // the common one-line block shares the line's words
	} else {
		b.words = append(b.words[:len(b.words):len(b.words)], ws...)
	}
	b.edges = append(b.edges, len(b.words))
}

// eachBlock hands the blocks out one at a time, in order: a file of
// 90 000 table rows never holds its 180 000 blocks at once.
func (d *document) eachBlock(use func(b *block)) {
	var cur *block
	flush := func() {
		if cur != nil {
			use(cur)
			cur = nil
		}
	}
	for _, l := range d.lines {
		switch {
		case l.blank:
			flush()
		case l.cells != nil:
			flush()
			for _, c := range l.cells {
				b := block{first: l.no}
				f := checklist.Fold(c)
				b.addLine(f, words(f))
				use(&b)
			}
		case l.starts || cur == nil:
			flush()
			cur = &block{first: l.no}
			cur.addLine(l.folded, l.words)
			if l.heading {
				flush()
			}
		default:
			cur.addLine(l.folded, l.words)
		}
	}
	flush()
}
