package acces

import (
	"bufio"
	htmlstd "html"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/romeo-pret/pret/internal/mdbounds"
	"github.com/romeo-pret/pret/internal/termtext"
)

// A block is what a reader of the rendered page (CommonMark, GitHub tables) reads as
// one: paragraph, heading, cell, code line. The rules read blocks, never source lines.
type block struct {
	kind  blockKind
	text  string          // as shown: markup gone, escapes resolved, line breaks as spaces
	sb    strings.Builder // text while the block is read
	spans []span          // text[spans[i].at:] starts on source line spans[i].line (1-based)
	codes [][2]int        // code spans [at, end): a path in one is read whole, spaces included
}

type span struct{ at, line int }

type blockKind uint8

const (
	paragraph blockKind = iota // also a list item's text, a line of an HTML block or of code
	heading
	cell // one cell of a table
	row  // the cells of a table row, joined: only the date rule reads it
)

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

// Built on first use: commands that never read acces.md do not pay for it.
var markdown = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(goldmark.WithParserOptions(parser.WithParagraphTransformers(util.Prioritized(tableTransformer{}, 200))))
})

// goldmark's memory is a few hundred times its input, and some shapes cost it quadratic
// time: a file over maxMarkdown (a page is under 2 KiB) is not read as Markdown. Read a
// line at a time, it would be read as no renderer shows it: it is too-large, unread.
const maxMarkdown = 16 << 10

// readBlocks calls visit with each block of page (LF line ends), in order; for a page
// it does not read, it says why and where.
func readBlocks(page string, visit func(*block)) (why string, line int) {
	// Blank lines at the end show nothing: the signature block's, emptied, do not count.
	page, why = strings.TrimRight(page, "\n"), "plus de 16 Kio"
	if deep := mdbounds.TooDeep(page); deep >= 0 {
		why, line = "une ligne ouvre plus de 16 citations ou listes imbriquées", 1+strings.Count(page[:deep], "\n")
	} else if long := longLine(page); long > 0 {
		why, line = "une ligne de plus de 2 Kio", long
	}
	if len(page) > maxMarkdown || line > 0 {
		return why, line
	}
	src := []byte(page)
	starts := make([]int, 1, 1+strings.Count(page, "\n"))
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	doc := markdown().Parser().Parse(text.NewReader(src))
	r := &reader{src: src, page: page, starts: starts, visit: visit, html: newHTMLView(doc, src)}
	r.blocks(doc)
	return "", 0
}

// goldmark reads a link's destination to the end of its line for each "](" on it, a
// square of the line's length: past maxLine (a pasted RSA key is under 1 KiB), the
// file is read as a large one.
const maxLine = 2 << 10

// longLine is the number of the first line of page over maxLine, 0 if none.
func longLine(page string) int {
	n := 0
	for l := range strings.Lines(page) {
		if n++; len(strings.TrimSuffix(l, "\n")) > maxLine {
			return n
		}
	}
	return 0
}

type reader struct {
	src    []byte
	page   string // src, whose pieces the blocks' text is made of: no copy
	starts []int  // starts[i] is where line i+1 begins
	visit  func(*block)
	html   *htmlView
	hidden bool // a script, a comment, a hidden element… is open: text is not shown
	inCell bool // in a table cell, where `\|` in a code span shows `|`
}

func (r *reader) lineOf(off int) int { return sort.SearchInts(r.starts, off+1) }

func (r *reader) blocks(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.after(r.html.opened(c)) // the tag a renderer opens c with ends a picture
		switch c := c.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			r.inlineBlock(paragraph, c)
		case *ast.Heading:
			r.inlineBlock(heading, c)
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			for _, seg := range c.Lines().Sliced(0, c.Lines().Len()) {
				if !r.hidden {
					b := &block{}
					b.add(strings.TrimRight(r.page[seg.Start:seg.Stop], "\r\n"), r.lineOf(seg.Start))
					b.emit(r.visit)
				}
			}
		case *ast.HTMLBlock: // as a browser shows it, a block per line, the closing one (-->) included
			segs := r.html.pieces(c)
			for i := range segs {
				b := &block{} // a paragraph
				for _, s := range segs[i].shown {
					b.add(s, r.lineOf(segs[i].Start))
				}
				b.emit(r.visit)
			}
			r.after(segs)
		case *east.Table:
			r.table(c)
		case *ast.ThematicBreak, *ast.LinkReferenceDefinition:
		default: // documents, block quotes, lists, list items
			r.blocks(c)
		}
	}
}

// isBlank: a character that shows nothing, a space or an invisible one
// (a byte order mark, a zero-width space, a soft hyphen, a Hangul filler).
func isBlank(r rune) bool { return unicode.IsSpace(r) || termtext.Invisible(r) }

// emit gives b to visit, the rules, unless it shows nothing.
func (b *block) emit(visit func(*block)) bool {
	b.text = b.sb.String()
	if strings.TrimFunc(b.text, isBlank) == "" {
		return false
	}
	visit(b)
	return true
}

func (r *reader) inlineBlock(kind blockKind, n ast.Node) {
	if n.Lines().Len() == 0 {
		return // an empty heading
	}
	b := &block{kind: kind}
	r.inline(b, n, r.lineOf(n.Lines().At(0).Start))
	r.closed(n)
	b.emit(r.visit)
}

// closed moves past the tag a renderer closes n with.
func (r *reader) closed(n ast.Node) { r.after(r.html.pieces(n)) }

// after moves past segs: what follows the last one is hidden or not.
func (r *reader) after(segs []htmlSeg) {
	if len(segs) > 0 {
		r.hidden = segs[len(segs)-1].hidden
	}
}

// inline appends the text shown of n's inline children; line is that of
// the text written last, for nodes with no place in the source.
func (r *reader) inline(b *block, n ast.Node, line int) int {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if r.hidden {
			switch c.(type) {
			case *ast.Text, *ast.String, *ast.AutoLink, *ast.Image:
				continue // inside a script or a style, up to its end tag
			}
		}
		switch c := c.(type) {
		case *ast.Text:
			line = r.lineOf(c.Segment.Start)
			v := r.page[c.Segment.Start:c.Segment.Stop]
			if c.IsRaw() { // inside a code span: as written, but for a cell's escaped pipes
				s := strings.ReplaceAll(v, "\n", " ")
				if r.inCell {
					s = strings.ReplaceAll(s, `\|`, "|")
				}
				b.add(s, line)
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
			segs := r.html.pieces(c)
			for _, seg := range segs {
				for _, s := range seg.shown {
					line = r.lineOf(seg.Start)
					b.add(s, line)
				}
			}
			r.after(segs)
		case *ast.Image: // no text
		case *ast.CodeSpan:
			at := b.sb.Len()
			line = r.inline(b, c, line)
			b.codes = append(b.codes, [2]int{at, b.sb.Len()})
		default: // emphasis, links
			line = r.inline(b, c, line)
		}
	}
	return line
}

// table gives each cell as a block, then each row as one.
func (r *reader) table(t *east.Table) {
	for tr := t.FirstChild(); tr != nil; tr = tr.NextSibling() {
		whole := &block{kind: row}
		for c := tr.FirstChild(); c != nil; c = c.NextSibling() {
			b := &block{kind: cell}
			r.inCell = true
			line := r.inline(b, c, 0)
			r.inCell = false
			r.closed(c)
			if line == 0 {
				continue // an empty cell
			}
			b.emit(r.visit)
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
		whole.emit(r.visit)
	}
}

// resolve drops backslash escapes and resolves entities as CommonMark does: as
// goldmark's HTML writer does, its output unescaped.
func resolve(v string) string {
	if !strings.ContainsAny(v, `\&`) {
		return v // nothing to resolve: most text
	}
	var out strings.Builder
	w := bufio.NewWriterSize(&out, len(v))
	gmhtml.DefaultWriter.Write(w, []byte(v))
	w.Flush()
	return htmlstd.UnescapeString(out.String())
}
