package acces

import (
	"bytes"
	"iter"
	"math/bits"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/textfold"
	"github.com/romeo-pret/pret/keys"
)

// document is acces.md as lines, read again by each rule rather than
// kept: a 1 MiB file of short lines would otherwise cost a hundred bytes
// and a few allocations per line, held until the end. What stays is one
// offset and one leak flag per line.
type document struct {
	text   string
	starts []int32 // line i is text[starts[i]:starts[i+1]], its break included
	leak   []bool  // private key material (keys.MaterialMask)
	// hideFrom and hideTo (0-based, half-open) are the lines of the
	// signature marker and block: no rule reads them as words.
	hideFrom, hideTo int
	// forms holds every line's form, read once for the rules that read
	// them all (date, sentence), when the file is small enough
	// (maxFormLines, maxFormBytes); formsHide is the hidden range it was
	// read with. A larger file is read again line by line, as before:
	// its memory does not grow with its lines.
	forms     []lineForm
	formsText string   // the folded text of every line, one after the other
	formRows  []string // the table rows among the lines
	formsHide [2]int

	// spareForms is the array forms was read into for the file before,
	// kept for the next: a pooled document reads a page with no
	// allocation of its own (readLines, release).
	spareForms []lineForm
}

// docPool holds documents between files: the struct, its line offsets
// and its forms, which no rule keeps once Validate returns.
var docPool = &sync.Pool{New: func() any { return new(document) }}

// maxPooledLines bounds the arrays a document keeps in the pool: those
// of a page, not those of a 1 MiB file of empty lines.
const maxPooledLines = 4 * maxFormLines

// A file of up to maxFormLines lines and maxFormBytes bytes has its
// forms read once and kept: at most 64 KiB of lines (64 bytes each) and
// its folded text (one string, a few times its size at worst).
const (
	maxFormLines = 1024
	maxFormBytes = 64 << 10
)

func readLines(s string) *document {
	d := docPool.Get().(*document)
	d.text = s
	if n := strings.Count(s, "\n") + 2; cap(d.starts) < n {
		d.starts = make([]int32, 0, n)
	}
	for off := 0; off < len(s); {
		d.starts = append(d.starts, int32(off))
		j := strings.IndexByte(s[off:], '\n')
		if j < 0 {
			off = len(s)
		} else {
			off += j + 1
		}
	}
	d.starts = append(d.starts, int32(len(s)))
	// The detector reads these offsets, not a copy of its own.
	d.leak = keys.MaterialMaskAt(s, d.starts)
	return d
}

// release hands d back to docPool once Validate is done with it: its
// arrays stay for the next file, its strings (the text, the rows) go.
func (d *document) release() {
	starts, forms, rows := d.starts[:0], d.spareForms[:0], d.formRows
	clear(rows) // substrings of the text
	*d = document{}
	if cap(starts) <= maxPooledLines && cap(forms) <= maxPooledLines && cap(rows) <= maxPooledLines {
		d.starts, d.spareForms, d.formRows = starts, forms, rows[:0]
	}
	docPool.Put(d)
}

// raw yields each line with only no, raw and leak set. A leak line's raw
// text is never handed out: no rule can quote it.
func (d *document) raw() iter.Seq[line] {
	return func(yield func(line) bool) {
		for i := 0; i+1 < len(d.starts); i++ {
			if !yield(d.rawLine(i)) {
				return
			}
		}
	}
}

func (d *document) rawLine(i int) line {
	if i < len(d.leak) && d.leak[i] {
		return line{no: i + 1, leak: true, blank: true}
	}
	if i >= d.hideFrom && i < d.hideTo {
		return line{no: i + 1, blank: true}
	}
	l := d.text[d.starts[i]:d.starts[i+1]]
	l = strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
	return line{no: i + 1, raw: l}
}

// all yields each line read into every form the rules need.
func (d *document) all() iter.Seq[line] {
	return func(yield func(line) bool) {
		if d.cached() {
			for i := range d.forms {
				if !yield(d.cachedForm(i)) {
					return
				}
			}
			return
		}
		for i := 0; i+1 < len(d.starts); i++ {
			if !yield(d.readForm(i)) {
				return
			}
		}
	}
}

// form is line i read into every form the rules need.
func (d *document) form(i int) line {
	if d.cached() {
		return d.cachedForm(i)
	}
	return d.readForm(i)
}

// cached reports whether d.forms holds every line's form, reading them
// first when the file is small enough.
func (d *document) cached() bool {
	hide := [2]int{d.hideFrom, d.hideTo}
	if d.forms != nil && d.formsHide == hide {
		return true
	}
	n := len(d.starts) - 1
	if n <= 0 || n > maxFormLines || len(d.text) > maxFormBytes {
		return false
	}
	// Pointer-free: the garbage collector neither scans it nor slows
	// its writes.
	forms := d.spareForms[:0]
	if cap(forms) < n {
		forms = make([]lineForm, 0, n)
	}
	forms = forms[:n]
	clear(forms)
	d.spareForms = forms
	d.formRows = d.formRows[:0]
	fb := formBufPool.Get().(*formBufs)
	buf, folded := fb.text[:0], fb.folded[:0]
	for i := range forms {
		l := d.rawLine(i)
		f := &forms[i]
		f.from = int32(len(folded))
		switch {
		case l.leak:
			f.flags = formLeak
		case l.raw == "" && l.blank:
			f.flags = formHidden // the signature's lines
		}
		f.rawTo = d.starts[i] + int32(len(l.raw))
		if !l.leak {
			text, built, heading, starts, row := stripText(buf[:0], l.raw)
			if built != nil {
				buf = built
				folded = textfold.AppendFoldBytes(folded, built)
			} else {
				folded = textfold.AppendFold(folded, text)
			}
			if heading {
				f.flags |= formHeading
			}
			if starts {
				f.flags |= formStarts
			}
			if row != "" {
				d.formRows = append(d.formRows, row)
				f.row = int32(len(d.formRows))
			}
		}
		f.to = int32(len(folded))
	}
	// One string for the folded text of every line.
	d.formsText = string(folded)
	fb.text, fb.folded = buf, folded
	formBufPool.Put(fb)
	d.forms, d.formsHide = forms, hide
	return true
}

// cachedForm is readForm(i) from what cached kept.
func (d *document) cachedForm(i int) line {
	f := d.forms[i]
	switch {
	case f.flags&formLeak != 0:
		return line{no: i + 1, leak: true, blank: true}
	case f.flags&formHidden != 0:
		return line{no: i + 1, blank: true}
	}
	l := line{no: i + 1, raw: d.text[d.starts[i]:f.rawTo]}
	l.folded = d.formsText[f.from:f.to]
	// Fold leaves no space at either end: a line has words (or
	// punctuation) exactly when its folded form is not empty.
	l.blank = l.folded == ""
	l.heading, l.starts = f.flags&formHeading != 0, f.flags&formStarts != 0
	if f.row > 0 {
		l.row = d.formRows[f.row-1]
	}
	return l
}

// lineForm is what cached keeps of a line's form: where its folded text
// is in formsText, where its raw text ends in text (its break left
// out), its flags, and its row (1-based in formRows, 0 for none).
type lineForm struct {
	from, to, rawTo, row int32
	flags                uint8
}

const (
	formHeading = 1 << iota
	formStarts
	formLeak   // private key material: blank, never read
	formHidden // the signature's lines, or an empty line
)

// formBufs are the buffers cached reads the lines through, kept from
// file to file: a run over many files makes none.
type formBufs struct {
	text, folded []byte
}

var formBufPool = sync.Pool{New: func() any { return new(formBufs) }}

// readForm is line i read into every form the rules need, kept nowhere.
func (d *document) readForm(i int) line {
	l := d.rawLine(i)
	if !l.leak {
		text, heading, starts, row := stripDecoration(l.raw)
		l.heading, l.starts, l.row = heading, starts, row
		l.folded = checklist.Fold(text)
		// Fold leaves no space at either end: a line has words
		// (or punctuation) exactly when its folded form is not empty.
		l.blank = l.folded == ""
	}
	return l
}

// line is one line of acces.md, read once into the forms the rules need.
type line struct {
	no     int    // 1-based
	raw    string // as written, without the line break
	folded string // Markdown decoration removed, then fold
	// row is a table row with at least one cell, between its outer
	// pipes: eachCell reads its cells when a rule needs them, so a row
	// of 300 000 cells is never held as a slice.
	row     string
	blank   bool // nothing left once decoration is removed
	heading bool
	// starts is true when the line opens a new block: a list item, a
	// heading, a table row; other non-blank lines continue the block above.
	starts bool
	leak   bool // private key material: never read further, never shown
}

// stripDecoration removes the Markdown around the words: block quotes,
// list markers, headings, emphasis and code markers, quotes.
// A table row's text is its cells joined by a space; row is the row
// between its outer pipes when it has a cell, "" otherwise.
func stripDecoration(raw string) (text string, heading, starts bool, row string) {
	s := strings.TrimSpace(raw)
	for strings.HasPrefix(s, ">") {
		s = strings.TrimSpace(s[1:])
	}
	if strings.HasPrefix(s, "|") {
		row = strings.Trim(s, "|")
		var b strings.Builder
		n := 0
		eachCell(row, func(c string) bool {
			if n == 1 {
				b.Grow(len(row))
			}
			if n > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(c)
			if n == 0 {
				text = c // one cell: no copy, as strings.Join
			}
			n++
			return true
		})
		switch n {
		case 0:
			return "", false, true, ""
		case 1:
			return text, false, true, row
		}
		return b.String(), false, true, row
	}
	if h := strings.TrimLeft(s, "#"); len(h) < len(s) && (h == "" || h[0] == ' ') {
		return cleanInline(strings.TrimSpace(h)), true, true, ""
	}
	if rest, ok := listMarker(s); ok {
		s, starts = rest, true
	}
	return cleanInline(s), false, starts, ""
}

// appendStripped is stripDecoration with the text appended to dst
// rather than made a string: the same text, heading, starts and row.
func appendStripped(dst []byte, raw string) (text []byte, heading, starts bool, row string) {
	s := strings.TrimSpace(raw)
	for strings.HasPrefix(s, ">") {
		s = strings.TrimSpace(s[1:])
	}
	if strings.HasPrefix(s, "|") {
		row = strings.Trim(s, "|")
		base, n := len(dst), 0
		for rest := row; ; {
			i := strings.IndexByte(rest, '|')
			p := rest
			if i >= 0 {
				p = rest[:i]
			}
			// A cell as eachCell reads it, after a space when one
			// came before; taken back when empty or a separator.
			mark := len(dst)
			if n > 0 {
				dst = append(dst, ' ')
			}
			from := len(dst)
			dst = appendCleanInline(dst, strings.TrimSpace(p))
			if len(bytes.Trim(dst[from:], "-: ")) > 0 {
				n++
			} else {
				dst = dst[:mark]
			}
			if i < 0 {
				break
			}
			rest = rest[i+1:]
		}
		if n == 0 {
			return dst[:base], false, true, ""
		}
		return dst, false, true, row
	}
	if h := strings.TrimLeft(s, "#"); len(h) < len(s) && (h == "" || h[0] == ' ') {
		return appendCleanInline(dst, strings.TrimSpace(h)), true, true, ""
	}
	if rest, ok := listMarker(s); ok {
		s, starts = rest, true
	}
	return appendCleanInline(dst, s), false, starts, ""
}

// stripText is stripDecoration for cached: the text is a part of raw
// (text) when no mark had to be taken out, else written to dst (built,
// non-nil), so most lines are folded straight from raw.
func stripText(dst []byte, raw string) (text string, built []byte, heading, starts bool, row string) {
	s := strings.TrimSpace(raw)
	for strings.HasPrefix(s, ">") {
		s = strings.TrimSpace(s[1:])
	}
	switch {
	case strings.HasPrefix(s, "|"):
		built, heading, starts, row = appendStripped(dst, raw)
		return "", built, heading, starts, row
	case strings.HasPrefix(s, "#"):
		if h := strings.TrimLeft(s, "#"); h == "" || h[0] == ' ' {
			s, heading, starts = strings.TrimSpace(h), true, true
		}
	}
	if !heading {
		s, starts = listMarker(s)
	}
	if hasInlineMark(s) {
		return "", appendCleanMarks(dst, s), heading, starts, ""
	}
	return s, nil, heading, starts, ""
}

// eachCell gives yield the cells of a table row (between its outer
// pipes), decoration removed, empty and separator cells left out, one at
// a time until it returns false.
func eachCell(row string, yield func(string) bool) {
	for {
		i := strings.IndexByte(row, '|')
		p := row
		if i >= 0 {
			p = row[:i]
		}
		p = cleanInline(strings.TrimSpace(p))
		if strings.Trim(p, "-: ") != "" && !yield(p) {
			return
		}
		if i < 0 {
			return
		}
		row = row[i+1:]
	}
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
	if !hasInlineMark(s) {
		return s
	}
	return string(appendCleanInline(make([]byte, 0, len(s)), s))
}

// appendCleanInline appends cleanInline(s) to b.
func appendCleanInline(b []byte, s string) []byte {
	if !hasInlineMark(s) {
		return append(b, s...)
	}
	return appendCleanMarks(b, s)
}

// appendCleanMarks is appendCleanInline of a text with marks: the text
// between marks is copied whole; only a mark's bytes are looked at (an
// underscore's neighbours are the runes on either side of it).
func appendCleanMarks(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		return appendCleanRunes(b, s)
	}
	from := 0 // the start of the text not yet copied
	for i := 0; ; {
		if i = nextLead(s, i); i >= len(s) {
			break
		}
		c := s[i]
		n, drop := 1, false
		switch c {
		case '*', '`', '"':
			drop = true
		case '_':
			if i > 0 && i+1 < len(s) {
				prev, _ := utf8.DecodeLastRuneInString(s[:i])
				next, _ := utf8.DecodeRuneInString(s[i+1:])
				drop = !isWordRune(prev) || !isWordRune(next)
			} else {
				drop = true
			}
		case 0xc2: // « »
			if i+1 < len(s) && (s[i+1] == 0xab || s[i+1] == 0xbb) {
				n, drop = 2, true
			}
		case 0xe2: // “ ”
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0x9c || s[i+2] == 0x9d) {
				n, drop = 3, true
			}
		}
		if drop {
			b = append(b, s[from:i]...)
			from = i + n
		}
		i += n
	}
	return append(b, s[from:]...)
}

// hasInlineMark is strings.ContainsAny(s, "*_`\"«»“”") on bytes: « and »
// are C2 AB and C2 BB, “ and ” E2 80 9C and E2 80 9D.
func hasInlineMark(s string) bool {
	for i := nextLead(s, 0); i < len(s); i = nextLead(s, i+1) {
		if markAt(s, i) {
			return true
		}
	}
	return false
}

// nextLead is the index of the first byte of inlineLead in s at or
// after i, len(s) if none: eight ASCII bytes at a time, the lowest byte
// hasZero flags being always a true one.
func nextLead(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		x := load8(s[i : i+8])
		if x&hiBits != 0 {
			for k := i; k < i+8; k++ {
				if inlineLead[s[k]] {
					return k
				}
			}
			continue
		}
		if m := zeroMask(x^'*'*lowBits) | zeroMask(x^'_'*lowBits) | zeroMask(x^'`'*lowBits) | zeroMask(x^'"'*lowBits); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s); i++ {
		if inlineLead[s[i]] {
			return i
		}
	}
	return len(s)
}

// zeroMask sets the top bit of the lowest zero byte of x, and maybe of
// bytes above it; none when no byte is zero.
func zeroMask(x uint64) uint64 { return (x - lowBits) &^ x & hiBits }

// load8 reads the eight bytes of b as a little-endian word (one load).
func load8(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// markAt reports whether a mark of hasInlineMark starts at s[i], a byte
// of inlineLead.
func markAt(s string, i int) bool {
	switch s[i] {
	case 0xc2:
		return i+1 < len(s) && (s[i+1] == 0xab || s[i+1] == 0xbb)
	case 0xe2:
		return i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0x9c || s[i+2] == 0x9d)
	}
	return true
}

const (
	lowBits = 0x0101010101010101
	hiBits  = 0x8080808080808080
)

// appendCleanRunes is appendCleanMarks rune by rune: text that is not
// UTF-8 has each bad byte written as U+FFFD, as it always was.
func appendCleanRunes(b []byte, s string) []byte {
	prev := rune(-1) // the rune before r in s, -1 at the start
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		drop := false
		switch r {
		case '*', '`', '"', '«', '»', '“', '”':
			drop = true
		case '_':
			next, _ := utf8.DecodeRuneInString(s[i+n:])
			inWord := prev >= 0 && i+n < len(s) && isWordRune(prev) && isWordRune(next)
			drop = !inWord
		}
		if !drop {
			b = utf8.AppendRune(b, r)
		}
		prev = r
		i += n
	}
	return b
}

// inlineLead marks the bytes a mark of hasInlineMark starts with.
var inlineLead = [256]bool{'*': true, '_': true, '`': true, '"': true, 0xc2: true, 0xe2: true}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		// ASCII: the same answer without the tables.
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// words splits folded text into words and punctuation marks, the units the
// sentence is compared in.
func words(folded string) []string {
	out := make([]string, 0, len(folded)/5+1)
	for w := range wordSeq(folded) {
		out = append(out, w)
	}
	return out
}

// wordSeq yields the words of folded one at a time, for the rules that
// read a line without keeping it.
func wordSeq(folded string) iter.Seq[string] {
	return func(yield func(string) bool) { eachWord(folded, yield) }
}

// eachWord gives yield the words of folded one at a time, until it
// returns false: wordSeq without an iterator to allocate.
func eachWord(folded string, yield func(string) bool) {
	for i := 0; ; {
		w, next := nextWord(folded, i)
		if w == "" || !yield(w) {
			return
		}
		i = next
	}
}

// Kinds of ASCII byte for nextWord.
const (
	byteMark  = iota // punctuation: a word of its own
	byteWord         // letter, digit, apostrophe
	byteDash         // in a word once one has started, else a mark
	byteSpace        // between words
)

var asciiKind = func() (t [utf8.RuneSelf]uint8) {
	for c := range t {
		switch r := rune(c); {
		case isWordRune(r) || r == '\'':
			t[c] = byteWord
		case r == '-':
			t[c] = byteDash
		case unicode.IsSpace(r):
			t[c] = byteSpace
		}
	}
	return t
}()

// nextWord is the word or punctuation mark of folded (valid UTF-8) at or
// after i, and where to look for the one after; "" when none is left.
// Words are letters, digits, apostrophes and inner dashes; any other
// rune but a space is a mark of its own.
func nextWord(folded string, i int) (string, int) {
	// The common case first: spaces, then a word of ASCII letters ended
	// by ASCII or the end; anything else is read by the loop below.
	for i < len(folded) && folded[i] == ' ' {
		i++
	}
	if i < len(folded) && folded[i] < utf8.RuneSelf && asciiKind[folded[i]] == byteWord {
		j := i + 1
		for j < len(folded) && folded[j] < utf8.RuneSelf && (asciiKind[folded[j]] == byteWord || asciiKind[folded[j]] == byteDash) {
			j++
		}
		switch {
		case j == len(folded):
			return folded[i:j], j
		case folded[j] >= utf8.RuneSelf:
			// A rune: it may go on with the word; the loop decides.
		case asciiKind[folded[j]] == byteSpace:
			return folded[i:j], j + 1
		default:
			return folded[i:j], j // the mark comes next
		}
	}
	start := -1
	for i < len(folded) {
		if c := folded[i]; c < utf8.RuneSelf {
			switch asciiKind[c] {
			case byteWord:
				if start < 0 {
					start = i
				}
				i++
				continue
			case byteDash:
				if start >= 0 {
					i++
					continue
				}
			case byteSpace:
				if start >= 0 {
					return folded[start:i], i + 1
				}
				i++
				continue
			}
			if start >= 0 {
				return folded[start:i], i // the mark comes next
			}
			return folded[i : i+1], i + 1
		}
		r, n := utf8.DecodeRuneInString(folded[i:])
		switch {
		case isWordRune(r):
			if start < 0 {
				start = i
			}
			i += n
			continue
		case unicode.IsSpace(r):
			if start >= 0 {
				return folded[start:i], i + n
			}
			i += n
			continue
		}
		if start >= 0 {
			return folded[start:i], i
		}
		return folded[i : i+n], i + n
	}
	if start >= 0 {
		return folded[start:], len(folded)
	}
	return "", len(folded)
}
