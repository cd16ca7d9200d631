package acces

import (
	"bufio"
	"bytes"
	"html"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
)

// A block is a piece of acces.md that a reader of the rendered page reads
// as one: a paragraph with its wrapped lines joined, a heading, a table
// cell, a line of a code block. The rules read blocks, never source lines,
// so that they see what the organisers see once the page is rendered
// (CommonMark, with GitHub's tables).
type block struct {
	kind blockKind
	// text is what the page shows: markup gone, backslash escapes and
	// entities resolved, line breaks turned into spaces.
	text string
	sb   strings.Builder // text while the block is read
	// spans say which source line each part of text comes from:
	// text[spans[i].at:] starts on line spans[i].line (1-based).
	spans []span
	// codes are where code spans stand in text: a path in one is read
	// whole, spaces included ("C:\Users\Jean Dupont\.ssh\…").
	codes []codeRange
}

type codeRange struct{ at, end int }

type span struct{ at, line int }

type blockKind uint8

const (
	paragraph blockKind = iota // also a list item's text and a line of an HTML block
	heading
	cell // one cell of a table
	row  // the cells of a table row, joined: only the date rule reads it
	code // one line of a code block
)

// lineAt is the source line of the byte at off in b.text.
func (b *block) lineAt(off int) int {
	i := sort.Search(len(b.spans), func(i int) bool { return b.spans[i].at > off })
	return b.spans[max(i-1, 0)].line
}

func (b *block) add(s string, line int) {
	if s == "" {
		return
	}
	if n := len(b.spans); n == 0 || b.spans[n-1].line != line {
		b.spans = append(b.spans, span{b.sb.Len(), line})
	}
	b.sb.WriteString(s)
}

// markdown is built on first use: commands that never read acces.md do
// not pay for it when pret starts.
var markdown = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.Table))
})

// maxMarkdown is the largest file read as Markdown. A page is well under
// 2 KiB; goldmark's memory is a few hundred times the text it parses, and
// some shapes cost it time in the square of their size. A larger file,
// which no learner writes by hand, is read a line at a time, each line a
// block, and a line longer than maxPiece in pieces cut at spaces: memory
// and time stay linear whatever it holds (a 1 MiB file is validated in
// under 16 MiB).
const (
	maxMarkdown = 16 << 10
	maxPiece    = 4 << 10
)

// readBlocks calls visit with each block of text (LF line ends), in the
// order of the page.
func readBlocks(page string, visit func(*block)) {
	if len(page) > maxMarkdown || tooDeep(page) {
		for n := 1; page != ""; n++ {
			line, rest, _ := strings.Cut(page, "\n")
			for line != "" {
				piece := line
				if len(piece) > maxPiece {
					piece = piece[:cut(piece[:maxPiece])]
				}
				if strings.TrimSpace(piece) != "" {
					visit(&block{kind: paragraph, text: piece, spans: []span{{0, n}}})
				}
				line = line[len(piece):]
			}
			page = rest
		}
		return
	}
	src := []byte(page)
	// starts[i] is where line i+1 begins.
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	r := &reader{src: src, visit: visit, lineOf: func(off int) int { return sort.SearchInts(starts, off+1) }}
	r.blocks(markdown().Parser().Parse(text.NewReader(src)))
}

type reader struct {
	src    []byte
	visit  func(*block)
	lineOf func(off int) int
	// html follows the raw HTML of the block read, to leave out what a
	// script or a style holds.
	html htmlScanner
}

// maxNesting bounds the block quotes and list items one line opens: a
// page needs three, and goldmark's time grows with the square of their
// depth. A file past it is read a line at a time, as a large one.
const maxNesting = 16

// tooDeep reports whether a line of page opens more than maxNesting
// containers.
func tooDeep(page string) bool {
	for line := range strings.Lines(page) {
		depth := 0
		for {
			line = strings.TrimLeft(line, " \t")
			n := MarkerLen(line)
			if n == 0 {
				break
			}
			if depth++; depth > maxNesting {
				return true
			}
			line = line[n:]
		}
	}
	return false
}

// MarkerLen is the length of the block quote or list marker s starts
// with, 0 for none: >, a bullet (- + *) or one to nine digits then . or
// ), and a space or a tab after a list marker.
func MarkerLen(s string) int {
	if strings.HasPrefix(s, ">") {
		return 1
	}
	n := len(s) - len(strings.TrimLeft(s, "0123456789"))
	switch {
	case n == 0 && s != "" && strings.IndexByte("-+*", s[0]) >= 0:
	case n >= 1 && n <= 9 && n < len(s) && (s[n] == '.' || s[n] == ')'):
	default:
		return 0
	}
	if n++; n < len(s) && (s[n] == ' ' || s[n] == '\t') {
		return n + 1
	}
	return 0
}

// cut is where to end a piece of window: after its last space, else
// before its last character.
func cut(window string) int {
	if i := strings.LastIndexByte(window, ' '); i > 0 {
		return i + 1
	}
	n := len(window) - 1
	for n > 1 && !utf8.RuneStart(window[n]) {
		n--
	}
	return n
}

func (r *reader) blocks(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			r.inlineBlock(paragraph, c)
		case *ast.Heading:
			r.inlineBlock(heading, c)
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := c.Lines()
			for i := range lines.Len() {
				seg := lines.At(i)
				b := &block{kind: code}
				b.add(strings.TrimRight(string(seg.Value(r.src)), "\r\n"), r.lineOf(seg.Start))
				r.emit(b)
			}
		case *ast.HTMLBlock:
			r.htmlBlock(c)
		case *east.Table:
			r.table(c)
		case *ast.ThematicBreak, *ast.LinkReferenceDefinition:
			// Nothing a reader reads.
		default: // documents, block quotes, lists, list items
			r.blocks(c)
		}
	}
}

func (r *reader) emit(b *block) {
	b.text = b.sb.String()
	if strings.TrimSpace(b.text) != "" {
		r.visit(b)
	}
}

func (r *reader) inlineBlock(kind blockKind, n ast.Node) {
	if n.Lines().Len() == 0 {
		return // an empty heading
	}
	b := &block{kind: kind}
	r.html = htmlScanner{}
	r.inline(b, n, r.lineOf(n.Lines().At(0).Start))
	r.emit(b)
}

// inline appends to b the text a reader sees of n's inline children;
// line is the line of the text written last, for nodes that have no
// place of their own in the source.
func (r *reader) inline(b *block, n ast.Node, line int) int {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if r.html.hiding() {
			// Inside a script or a style, up to its end tag.
			switch c.(type) {
			case *ast.RawHTML:
			case *ast.Text, *ast.String, *ast.AutoLink, *ast.Image:
				continue
			default: // emphasis, links, code spans: look for the end tag in them
				line = r.inline(b, c, line)
				continue
			}
		}
		switch c := c.(type) {
		case *ast.Text:
			line = r.lineOf(c.Segment.Start)
			v := c.Segment.Value(r.src)
			if c.IsRaw() { // inside a code span: as written
				b.add(strings.ReplaceAll(string(v), "\n", " "), line)
			} else {
				b.add(resolve(v), line)
			}
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.add(" ", line)
			}
		case *ast.String:
			b.add(string(c.Value), line)
		case *ast.AutoLink:
			b.add(string(c.Label(r.src)), line)
		case *ast.RawHTML:
			// A tag or a comment is not shown, nor what a script or a
			// style it opens holds.
			for i := range c.Segments.Len() {
				seg := c.Segments.At(i)
				if v := r.html.scan(nil, seg.Value(r.src)); len(v) > 0 {
					line = r.lineOf(seg.Start)
					b.add(html.UnescapeString(string(v)), line)
				}
			}
			r.html.settle()
		case *ast.Image:
			// An image shows no text.
		case *ast.CodeSpan:
			at := b.sb.Len()
			line = r.inline(b, c, line)
			b.codes = append(b.codes, codeRange{at, b.sb.Len()})
		default: // emphasis, links, code spans
			line = r.inline(b, c, line)
		}
	}
	return line
}

// htmlBlock reads the text of an HTML block as a browser shows it: tags,
// comments, scripts and styles left out, entities resolved, a block per
// line. The closing line goldmark keeps apart (the --> of a comment, the
// </script> of a script) is read as one more line.
func (r *reader) htmlBlock(n *ast.HTMLBlock) {
	r.html = htmlScanner{}
	lines := n.Lines()
	for i := range lines.Len() {
		r.htmlLine(lines.At(i))
	}
	if n.HasClosure() {
		r.htmlLine(n.ClosureLine)
	}
}

func (r *reader) htmlLine(seg text.Segment) {
	b := &block{kind: paragraph}
	b.add(html.UnescapeString(string(r.html.scan(nil, seg.Value(r.src)))), r.lineOf(seg.Start))
	r.emit(b)
}

// An htmlScanner follows HTML a byte at a time, as a browser's tokenizer
// does, far enough to tell the text it shows from tags, comments and the
// content of a script or a style. Its state is kept from one line to the
// next: a tag or a comment may span lines.
type htmlScanner struct {
	state   htmlState
	end     bool    // the tag read is an end tag
	name    [6]byte // its name, lower case, while it is read…
	nameLen int     // … and its length
	eq      bool    // in a tag: an = read, its value not begun
	quote   byte    // in a tag: the quote that ends the value read
	dashes  int     // in a comment: the - just read
	bang    bool    // in a comment: --! just read
	raw     string  // in raw text: "script" or "style"
}

type htmlState uint8

const (
	htmlShown      htmlState = iota // text
	htmlTagOpen                     // after <
	htmlMarkup                      // after <!
	htmlMarkupDash                  // after <!-
	htmlEndOpen                     // after </
	htmlTagName                     // in a tag's name
	htmlAttrs                       // in a tag, after its name
	htmlQuoted                      // in a quoted attribute value
	htmlBogus                       // <?…>, <!…>: left out up to >
	htmlComment                     // <!-- … -->
	htmlRaw                         // in a script or a style, up to its end tag
)

// scan appends to shown the text of v a browser shows.
func (s *htmlScanner) scan(shown, v []byte) []byte {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch s.state {
		case htmlShown:
			if c == '<' {
				s.state = htmlTagOpen
			} else if c != '\n' && c != '\r' {
				shown = append(shown, c)
			}
		case htmlTagOpen:
			switch {
			case c == '!':
				s.state = htmlMarkup
			case c == '/':
				s.state = htmlEndOpen
			case c == '?':
				s.state = htmlBogus
			case htmlLetter(c):
				s.startTag(false, c)
			default: // a < that opens nothing is text
				shown = append(shown, '<')
				s.state = htmlShown
				i--
			}
		case htmlMarkup:
			if c == '-' {
				s.state = htmlMarkupDash
			} else {
				s.state = htmlBogus
				i--
			}
		case htmlMarkupDash:
			if c == '-' {
				s.state, s.dashes, s.bang = htmlComment, 2, false // <!--> and <!---> are whole comments
			} else {
				s.state = htmlBogus
				i--
			}
		case htmlEndOpen:
			switch {
			case htmlLetter(c):
				s.startTag(true, c)
			case c == '>': // </> is left out
				s.state = htmlShown
			default:
				s.state = htmlBogus
				i--
			}
		case htmlTagName:
			switch {
			case c == '>':
				s.endTag()
			case c == '/' || htmlSpace(c):
				s.state = htmlAttrs
			default:
				if s.nameLen < len(s.name) {
					s.name[s.nameLen] = asciiLower(c)
				}
				s.nameLen++
			}
		case htmlAttrs:
			switch {
			case c == '>':
				s.endTag()
			case c == '=':
				s.eq = true
			case (c == '"' || c == '\'') && s.eq:
				s.state, s.quote = htmlQuoted, c
			case !htmlSpace(c):
				s.eq = false
			}
		case htmlQuoted:
			if c == s.quote {
				s.state, s.eq = htmlAttrs, false
			}
		case htmlBogus:
			if c == '>' {
				s.state = htmlShown
			}
		case htmlComment:
			switch {
			case c == '>' && s.dashes >= 2:
				s.state = htmlShown
			case c == '-' && s.bang:
				s.dashes, s.bang = 1, false
			case c == '-':
				s.dashes++
			case c == '!' && s.dashes >= 2 && !s.bang:
				s.bang = true
			default:
				s.dashes, s.bang = 0, false
			}
		case htmlRaw:
			// Only the element's end tag ends it: no tag, no comment inside.
			if c == '<' && closes(v[i:], s.raw) {
				s.state, s.end, s.eq = htmlAttrs, true, false
				i += 1 + len(s.raw)
			}
		}
	}
	return shown
}

func (s *htmlScanner) startTag(end bool, c byte) {
	s.state, s.end, s.eq, s.nameLen = htmlTagName, end, false, 1
	s.name[0] = asciiLower(c)
}

// endTag is the > of a tag: a script or a style starts raw text.
func (s *htmlScanner) endTag() {
	s.state = htmlShown
	if s.end {
		return
	}
	// <script/> opens a script all the same: HTML ignores the /.
	for _, raw := range [...]string{"script", "style"} {
		if s.nameLen == len(raw) && string(s.name[:s.nameLen]) == raw {
			s.state, s.raw = htmlRaw, raw
		}
	}
}

// closes reports whether v starts with the end tag of a raw element
// name: </name, any case, then a space, / or >.
func closes(v []byte, name string) bool {
	n := 2 + len(name)
	if len(v) <= n || v[1] != '/' {
		return false
	}
	for i := range len(name) {
		if asciiLower(v[2+i]) != name[i] {
			return false
		}
	}
	c := v[n]
	return c == '>' || c == '/' || htmlSpace(c)
}

// settle follows a piece of inline raw HTML, which CommonMark holds to be
// a whole tag or comment: text that follows is shown, unless a script or
// a style is open, even where the scanner would read the piece otherwise.
func (s *htmlScanner) settle() {
	if s.state != htmlRaw {
		s.state = htmlShown
	}
}

// hiding reports whether text read now is inside a script or a style.
func (s *htmlScanner) hiding() bool { return s.state == htmlRaw }

func htmlLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func htmlSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c | 0x20
	}
	return c
}

// table gives each cell as a block, then each row as one.
func (r *reader) table(t *east.Table) {
	for tr := t.FirstChild(); tr != nil; tr = tr.NextSibling() {
		whole := &block{kind: row}
		for c := tr.FirstChild(); c != nil; c = c.NextSibling() {
			b := &block{kind: cell}
			r.html = htmlScanner{}
			line := r.inline(b, c, 0)
			if line == 0 {
				continue // an empty cell
			}
			r.emit(b)
			for i, s := range b.spans {
				end := len(b.text)
				if i+1 < len(b.spans) {
					end = b.spans[i+1].at
				}
				if i == 0 && whole.sb.Len() > 0 {
					whole.add(" ", s.line)
				}
				whole.add(b.text[s.at:end], s.line)
			}
		}
		r.emit(whole)
	}
}

// resolve is a text as CommonMark shows it: backslash escapes dropped,
// entities and numeric references resolved. goldmark's HTML writer does
// exactly that, escaping HTML as it goes; unescaping its output leaves
// the text.
func resolve(v []byte) string {
	if bytes.IndexByte(v, '\\') < 0 && bytes.IndexByte(v, '&') < 0 {
		return string(v)
	}
	var out strings.Builder
	w := bufio.NewWriterSize(&out, len(v))
	gmhtml.DefaultWriter.Write(w, v)
	w.Flush()
	return html.UnescapeString(out.String())
}
