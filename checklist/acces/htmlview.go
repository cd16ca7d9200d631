package acces

import (
	"bytes"
	htmlstd "html"
	"slices"
	"strings"

	"github.com/romeo-pret/pret/internal/htmlshown"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/net/html"
)

// htmlView is what a browser shows of a page's raw HTML. A browser reads the
// rendered page whole: a script, a style, a comment or a hidden element opened
// in one block hides the blocks after it, up to the raw HTML that closes it. So
// the page's HTML pieces (HTML block lines, inline tags, and the </p> a renderer
// writes after each paragraph) are read in order by one tokenizer, once: its cost
// is the page's size, however many pieces it has.
type htmlView struct {
	segs  []htmlSeg
	first map[ast.Node]int // where a node's pieces start in segs
	open  map[ast.Node]int // the piece standing for the tag a renderer opens a block with
	real  int              // pieces that are the page's own HTML
}

// shownPiece stands for any tag on a page with no HTML of its own.
var shownPiece = []htmlSeg{{}}

type htmlSeg struct {
	text.Segment
	node   ast.Node
	shown  []string // the text a browser shows of the piece; " " for a <br>
	hidden bool     // what follows the piece, up to the next one, is not shown
}

// closeTag is the piece a renderer writes after a paragraph, a heading or a
// cell; openTag stands for the one it opens a block with (<p>, <li>, <pre>…):
// any of them ends an <svg> (13.2.6.5), and a <br> does nothing else.
var closeTag, openTag = []byte("</p>"), []byte("<br>")

const (
	closing = -1 - iota // Segment.Start of a closeTag piece
	opening             // of an openTag piece
)

func newHTMLView(doc ast.Node, src []byte) *htmlView {
	if bytes.IndexByte(src, '<') < 0 {
		return &htmlView{} // no tag, no comment: nothing hides anything
	}
	v := &htmlView{first: map[ast.Node]int{}, open: map[ast.Node]int{}}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n.(type) {
		case *ast.Paragraph, *ast.Heading, *ast.List, *ast.ListItem, *ast.Blockquote, *ast.FencedCodeBlock,
			*ast.CodeBlock, *ast.ThematicBreak, *east.Table:
			if entering {
				v.open[n] = len(v.segs)
				v.segs = append(v.segs, htmlSeg{Segment: text.Segment{Start: opening}})
			}
		}
		switch n := n.(type) {
		case *ast.Image: // its text is an attribute, never read as HTML
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			if entering {
				v.real++
				v.add(n, n.Lines().Sliced(0, n.Lines().Len()))
				if n.HasClosure() {
					v.segs = append(v.segs, htmlSeg{Segment: n.ClosureLine, node: n})
				}
			}
		case *ast.RawHTML:
			if entering {
				v.real++
				v.add(n, n.Segments.Sliced(0, n.Segments.Len()))
			}
		case *ast.Paragraph, *ast.TextBlock, *ast.Heading, *east.TableCell:
			if !entering {
				v.add(n, []text.Segment{{Start: closing}}) // the renderer's closing tag
			}
		}
		return ast.WalkContinue, nil
	})
	if v.real == 0 {
		v.segs, v.first, v.open = nil, nil, nil // nothing hides anything: no piece to read
		return v
	}
	v.read(src)
	return v
}

// pieces are n's: an HTML block's lines, an inline tag's, the tag closing a paragraph;
// nil for a node the view never met.
func (v *htmlView) pieces(n ast.Node) []htmlSeg {
	if v.segs == nil {
		return shownPiece
	}
	i, ok := v.first[n]
	if !ok {
		return nil // none of its pieces read: what was hidden stays so
	}
	end := i + 1
	for end < len(v.segs) && v.segs[end].node == n {
		end++
	}
	return v.segs[i:end]
}

// opened is the piece standing for the tag a renderer opens n with; nil
// for none, or a page with no HTML of its own.
func (v *htmlView) opened(n ast.Node) []htmlSeg {
	if i, ok := v.open[n]; ok {
		return v.segs[i : i+1]
	}
	return nil
}

func (v *htmlView) add(n ast.Node, segs []text.Segment) {
	v.first[n] = len(v.segs)
	for _, s := range segs {
		v.segs = append(v.segs, htmlSeg{Segment: s, node: n})
	}
}

// read tokenizes the pieces as one text and gives each piece what it shows.
func (v *htmlView) read(src []byte) {
	var in []byte
	starts := make([]int, len(v.segs)+1)
	for i, s := range v.segs {
		starts[i] = len(in)
		switch s.Start {
		case closing:
			in = append(in, closeTag...)
		case opening:
			in = append(in, openTag...)
		default:
			in = append(in, s.Value(src)...)
		}
	}
	starts[len(v.segs)] = len(in)
	var st htmlState
	z := html.NewTokenizer(bytes.NewReader(in))
	at, done := 0, 0 // done: the pieces whose state after them is known
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		n := len(raw)
		switch tt {
		case html.TextToken:
			if !st.hidden() {
				v.text(in, starts, done, at, at+n)
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			if _, br := st.start(z, tt == html.SelfClosingTagToken); br {
				i := done
				for starts[i+1] <= at {
					i++
				}
				v.segs[i].shown = append(v.segs[i].shown, " ")
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			st.end(string(name))
		}
		// A piece that ends inside a comment, or where one left open runs on, is followed by hidden text.
		comment := tt == html.CommentToken && openComment(raw)
		for ; done < len(v.segs) && starts[done+1] <= at+n; done++ {
			v.segs[done].hidden = st.hidden() || tt == html.CommentToken && (starts[done+1] < at+n || comment)
		}
		at += n
	}
	for ; done < len(v.segs); done++ {
		v.segs[done].hidden = true // inside a tag or a comment the input ends in
	}
}

// text gives the text in[lo:hi] to the pieces it spans (from the i-th on), line ends dropped.
func (v *htmlView) text(in []byte, starts []int, i, lo, hi int) {
	for ; i < len(v.segs) && starts[i] < hi; i++ {
		if a, b := max(lo, starts[i]), min(hi, starts[i+1]); a < b {
			if s := htmlstd.UnescapeString(lineBreaks.Replace(string(in[a:b]))); s != "" {
				v.segs[i].shown = append(v.segs[i].shown, s)
			}
		}
	}
}

// openComment: a comment that reached the end of its input without its end runs on.
func openComment(c []byte) bool {
	if !bytes.HasPrefix(c, []byte("<!--")) {
		return !bytes.HasSuffix(c, []byte(">")) // <?…>, <!…>: up to the next >
	}
	return !bytes.HasSuffix(c, []byte("-->")) && !bytes.HasSuffix(c, []byte("--!>")) && string(c) != "<!-->" && string(c) != "<!--->"
}

var lineBreaks = strings.NewReplacer("\n", "", "\r", "")

// htmlState is what hides text at a point of the page.
type htmlState struct {
	hide   string // the outermost element not shown (htmlshown.Hides)
	depth  int    // its elements of the same name open
	inHTML int    // in a hidden foreign element: its parts that hold HTML open (htmlshown.HoldsHTML)
}

func (s *htmlState) hidden() bool { return s.hide != "" }

// start reads a start tag, its name in tag; br reports a shown <br>. A
// self-closed <svg/> holds nothing (htmlshown.EmptyWhenSelfClosed). A
// script, style, title… holds no tag for the tokenizer: its text runs to
// its own end tag.
func (s *htmlState) start(z *html.Tokenizer, selfClosed bool) (tag string, br bool) {
	name, more := z.TagName()
	tag = string(name)
	empty := slices.Contains(voidElements, tag) || selfClosed && htmlshown.EmptyWhenSelfClosed(tag)
	attrs := htmlshown.TagAttrs(z, more)
	if tag == "font" {
		attrs = htmlshown.Collected(attrs) // read twice, when it ends a picture
	}
	if htmlshown.Foreign(s.hide) && s.inHTML == 0 && htmlshown.EndsForeign(tag, false, attrs) {
		*s = htmlState{} // the browser closes the picture: the tag is read as any other
	}
	switch {
	case s.hide != "":
		if tag == s.hide && !empty {
			s.depth++
		}
		if htmlshown.Foreign(s.hide) && htmlshown.HoldsHTML(tag) && !selfClosed {
			s.inHTML++
		}
	case slices.Contains(voidElements, tag):
		return tag, tag == "br" && !htmlshown.Hides(tag, attrs)
	case empty:
	case htmlshown.Hides(tag, attrs):
		s.hide, s.depth = tag, 1
	}
	return tag, false
}

func (s *htmlState) end(tag string) {
	switch {
	case htmlshown.Foreign(s.hide) && s.inHTML > 0:
		if htmlshown.HoldsHTML(tag) {
			s.inHTML--
		}
	case htmlshown.Foreign(s.hide) && htmlshown.EndsForeign(tag, true, nil):
		*s = htmlState{}
	case tag == s.hide:
		if s.depth--; s.depth == 0 {
			s.hide = ""
		}
	case tag == "p" && slices.Contains(endsWithParagraph, s.hide):
		s.hide = ""
	}
}

var (
	voidElements = []string{"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
	// Elements a paragraph's end closes (a browser closes them at </p>; it re-opens a
	// formatting element such as <b> in the next paragraph, and a <div> runs on;
	// a <select> ignores it, a <details> or <dialog> closes the paragraph first).
	endsWithParagraph = []string{"audio", "canvas", "datalist", "rp", "video", "span", "abbr", "cite", "dfn", "kbd", "label", "mark", "q", "samp", "sub", "sup", "time", "var", "data", "bdi", "bdo", "ins", "del", "output", "meter", "progress", "ruby"}
)
