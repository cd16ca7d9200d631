package acces

import (
	"bytes"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/htmlshown"
	"golang.org/x/net/html"
)

// readOnlineText calls visit with each block of a Moodle online text, the HTML its
// editor wrote, as its author typed it and a reader sees it: a paragraph, a line
// after a <br>, a heading, a cell, a line of <pre> are each a block; <code> is a
// code span; entities are decoded (&nbsp; is a space); what a browser does not
// show (comments, scripts, hidden elements: htmlState) is not read. One
// tokenizer reads the page once: its cost is the page's size.
func readOnlineText(page string, visit func(*block)) (why string, line int) {
	o := &onlineReader{visit: visit, cur: &block{}, code: -1}
	z := html.NewTokenizer(strings.NewReader(page))
	line = 1
	for o.long == 0 {
		tt := z.Next()
		raw := string(z.Raw())
		switch tt {
		case html.ErrorToken:
			if o.flush(); o.long == 0 {
				return "", 0
			}
		case html.TextToken:
			if !o.st.hidden() {
				o.text(string(z.Text()), line+strings.Count(raw[:len(raw)-len(strings.TrimLeft(raw, " \t\r\n\f"))], "\n"))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			hidden := o.st.hidden()
			tag, br := o.st.start(z, tt == html.SelfClosingTagToken)
			if !hidden {
				o.startTag(tag, br)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			o.st.end(string(name))
			o.endTag(string(name))
		}
		line += strings.Count(raw, "\n")
	}
	return "un paragraphe de plus de 16 Kio", o.long
}

// onlineReader is a Moodle online text being read into blocks.
type onlineReader struct {
	visit func(*block)
	st    htmlState
	cur   *block // the block being read
	row   *block // the table row being read, nil out of one
	pre   int    // <pre> elements open: white space kept, a line a block
	code  int    // where the open <code> starts in cur, -1 for none
	long  int    // the line of the first block over maxMarkdown (bound), 0 none
}

// blockTags end the block before them and the one they hold.
var blockTags = []string{"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "dl", "dt", "dd",
	"blockquote", "pre", "table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "hr",
	"section", "article", "header", "footer", "main", "nav", "aside", "address", "figure", "figcaption",
	"details", "summary", "fieldset", "legend", "center"}

func (o *onlineReader) startTag(tag string, br bool) {
	switch {
	case br:
		o.flush()
	case tag == "code" && o.pre == 0:
		o.code = o.cur.sb.Len()
	case slices.Contains(blockTags, tag):
		o.flush()
		switch tag {
		case "h1", "h2", "h3", "h4", "h5", "h6":
			o.cur.kind = heading
		case "td", "th":
			o.cur.kind = cell
		case "tr":
			o.row = &block{kind: row}
		case "pre":
			o.pre++
		}
	}
}

func (o *onlineReader) endTag(tag string) {
	switch {
	case tag == "code" && o.code >= 0:
		o.cur.codes = append(o.cur.codes, [2]int{o.code, o.cur.sb.Len()})
		o.code = -1
	case slices.Contains(blockTags, tag):
		o.flush()
		switch tag {
		case "pre":
			o.pre = max(o.pre-1, 0)
		case "tr", "table":
			if o.row != nil {
				o.row.emit(o.visit)
				o.row = nil
			}
		}
	}
}

// text adds what a text shows: in a <pre>, a block per line; elsewhere its white
// space, no-break spaces included, as one space, as a browser shows it.
func (o *onlineReader) text(s string, line int) {
	if o.pre > 0 {
		for i, l := range strings.Split(s, "\n") {
			if i > 0 {
				o.flush()
				line++
			}
			o.cur.add(strings.TrimSuffix(l, "\r"), line)
			o.bound(o.cur, line)
		}
		return
	}
	o.cur.add(collapsed(s), line)
	o.bound(o.cur, line)
}

// bound notes the first block, or table row, over maxMarkdown: the page
// is then not read (readOnlineText), as a Markdown page with a line over
// 2 KiB. No field of acces.md is that long; read whole, a 1 MiB paragraph
// took 80 MiB of words, and cut, its end was read as a paragraph of its
// own (outside testers).
func (o *onlineReader) bound(b *block, line int) {
	if b.sb.Len() > maxMarkdown && o.long == 0 {
		o.long = line
	}
}

// collapsed is s with each run of white space as one space, as a
// browser shows it, in one pass: the words of a 1 MiB text cost 10 MiB.
func collapsed(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i, n := 0, 0; i < len(s); i += n {
		var r rune
		if r, n = utf8.DecodeRuneInString(s[i:]); isHTMLSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteString(s[i : i+n])
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

func isHTMLSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\u00a0' || r == '\u202f'
}

// flush gives the block read so far to the rules, and to its row if a cell.
func (o *onlineReader) flush() {
	b := o.cur
	if o.code >= 0 {
		b.codes = append(b.codes, [2]int{o.code, b.sb.Len()})
	}
	if b.emit(o.visit) && b.kind == cell && o.row != nil {
		if o.row.sb.Len() > 0 {
			o.row.add(" ", b.spans[0].line)
		}
		o.row.add(strings.TrimSpace(b.text), b.spans[0].line)
		o.bound(o.row, b.spans[0].line)
	}
	open := o.code >= 0 // a code span across a line break goes on in the next block
	o.cur, o.code = &block{}, -1
	if open {
		o.code = 0
	}
}

// OnlineTextPictures reports whether a Moodle online text shows no text, only
// pictures or nothing: it is no acces.md (organisateurs.md). pictures names
// the pictures it shows, by their file's name ("image.png" for
// <img src="@@PLUGINFILE@@/image.png">), as her export holds them. It stops at
// the first text shown, near the top of a page that holds some.
func OnlineTextPictures(page []byte) (pictures []string, empty bool) {
	var st htmlState
	seen := map[string]bool{}
	z := html.NewTokenizer(bytes.NewReader(page))
	for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
		switch tt {
		case html.TextToken:
			// As a block is no text when only spaces (block.emit).
			if !st.hidden() && strings.TrimFunc(string(z.Text()), isBlank) != "" {
				return nil, false
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			hidden := st.hidden()
			if tag, _ := st.start(z, tt == html.SelfClosingTagToken); tag == "img" && !hidden {
				if name := pictureName(z); name != "" && !seen[name] {
					seen[name] = true
					pictures = append(pictures, name)
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			st.end(string(name))
		}
	}
	return pictures, true
}

// pictureName is the file name of the <img> z is at, "" when it is hidden or
// has none (a data: URL).
func pictureName(z *html.Tokenizer) string {
	var src string
	for more := true; more; {
		var k, val []byte
		k, val, more = z.TagAttr()
		switch string(k) {
		case "hidden":
			return ""
		case "style":
			if htmlshown.StyleHides(string(val)) {
				return ""
			}
		case "src":
			src = string(val)
		}
	}
	if strings.HasPrefix(strings.TrimSpace(src), "data:") {
		return ""
	}
	src, _, _ = strings.Cut(src, "#")
	src, _, _ = strings.Cut(src, "?")
	if name, err := url.PathUnescape(path.Base(src)); err == nil {
		src = name
	}
	if src == "." || src == "/" {
		return ""
	}
	return src
}
