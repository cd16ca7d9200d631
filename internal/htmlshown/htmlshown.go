// Package htmlshown decides which HTML elements a browser, as shipped, does
// not show the content of. Three readers of a learner's page ask it: the
// rules of acces.md (checklist/acces), the signer (keys/signing) and the
// leak detector (keys/leak). One answer, so that a fingerprint, a signature
// and a private key hidden the same way are read the same way.
package htmlshown

import (
	"iter"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

var (
	// styledHidden are display:none in the browser's own style sheet (the HTML
	// standard's rendering section, 15.3.1, and MathML's for annotations),
	// which an inline display overrides: <script style="display:block">
	// shows its text.
	styledHidden = []string{"annotation", "annotation-xml", "datalist", "noframes", "rp", "script", "style", "title"}
	// neverShown show none of what they hold, whatever their style: a
	// <template>'s content is inert; <noscript> and <noembed> are
	// display:none !important where scripts and plugins are on (Chromium:
	// TestHidingAgreesWithChromium); a MathML <mphantom> takes room, unseen;
	// <progress> and <meter> draw a bar; <iframe>, <fencedframe>, <audio>,
	// <video> and <canvas> hold a fallback; an <svg> is a picture, its text
	// drawn, not read; a <select> shows one option in its box, nothing else
	// it holds (the option is read as hidden too: a sentence has no business
	// there). Not <head>: in a page's body a browser ignores the tag and
	// shows what follows.
	neverShown = []string{"audio", "canvas", "fencedframe", "iframe", "meter", "mphantom", "noembed", "noscript",
		"progress", "select", "svg", "template", "video"}
)

// Hides reports whether a browser shows nothing of what the element name
// (lower case) holds, given its attributes (keys in lower case; nil for
// none). A <details> without open counts whole, its <summary> too: pret
// does not read that far.
func Hides(name string, attrs iter.Seq2[string, string]) bool {
	if slices.Contains(neverShown, name) {
		return true
	}
	if attrs == nil {
		attrs = func(func(string, string) bool) {}
	}
	// One variable set by the loop, whose body is a closure: each variable
	// it sets would be an allocation of its own, for every tag.
	var a struct {
		hidden, untilFound, styled, open, popover bool
		display, visibility, content              string
	}
	for k, v := range attrs { // the first of a name: a browser drops one written again
		switch {
		case k == "hidden" && !a.hidden:
			a.hidden, a.untilFound = true, strings.EqualFold(v, "until-found")
		case k == "style" && !a.styled:
			a.styled = true
			a.display, a.visibility, a.content = Declared(v)
		case k == "open":
			a.open = true
		case k == "popover":
			a.popover = true // not open until a script opens it
		}
	}
	hidden, untilFound, open, popover := a.hidden, a.untilFound, a.open, a.popover
	display, visibility, content := a.display, a.visibility, a.content
	// What the browser's own style sheet hides, which "revert" goes back to.
	byBrowser := slices.Contains(styledHidden, name) || name == "dialog" && !open || popover
	switch {
	case display == "none", visibility == "hidden", visibility == "collapse":
		return true
	case (content == "hidden" || content == "" && untilFound) && laidAsBlock(name, display), name == "details" && !open:
		return true // content-visibility (not on an inline box), or a closed slot: no display shows it
	case display == "revert" || display == "revert-layer":
		return byBrowser
	case display != "":
		return false
	}
	return hidden && !untilFound || byBrowser
}

// laidAsBlock reports an element whose box is not an inline one: what
// content-visibility (hidden="until-found") applies to.
func laidAsBlock(name, display string) bool {
	switch display {
	case "inline", "contents", "inline flow", "ruby", "ruby-text":
		return false
	case "":
		return slices.Contains(blockElements, name)
	}
	return true
}

// blockElements are display:block (or list-item, table) in the browser's
// own style sheet (the HTML standard's rendering section, 15.3).
var blockElements = []string{"address", "article", "aside", "blockquote", "center", "dd", "details", "dialog",
	"dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
	"h5", "h6", "header", "hgroup", "hr", "legend", "li", "listing", "main", "menu", "nav", "ol", "p",
	"plaintext", "pre", "search", "section", "summary", "table", "ul", "xmp"}

// Declared reads an inline style's display, visibility and
// content-visibility as the cascade does: the last valid declaration of
// each (an unknown value is dropped, as a browser drops it), unless an
// earlier one is !important and it is not; values in lower case ("" for
// none). Declarations end at a ';' outside brackets and quotes. Comments
// and escapes are not read (acces-md.md).
func Declared(style string) (display, visibility, content string) {
	var important [3]bool
	values := [3]*string{&display, &visibility, &content}
	for _, d := range declarations(strings.ToLower(style)) {
		prop, val, ok := strings.Cut(d, ":")
		if !ok {
			continue
		}
		val = strings.Join(strings.Fields(val), " ")
		val, imp := strings.CutSuffix(val, "important")
		if imp {
			if val, imp = strings.CutSuffix(strings.TrimRight(val, " "), "!"); !imp {
				continue // "important" alone: not a value
			}
			val = strings.TrimRight(val, " ")
		}
		i := slices.Index([]string{"display", "visibility", "content-visibility"}, strings.TrimSpace(prop))
		if i < 0 || !known(i, val) || important[i] && !imp {
			continue
		}
		important[i], *values[i] = imp, val
	}
	return display, visibility, content
}

// declarations splits a declaration list at its ';', those in brackets
// or quotes (a value "{;display:inline}") not counted.
func declarations(style string) []string {
	var out []string
	depth, quote, from := 0, rune(0), 0
	for i, r := range style {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case strings.ContainsRune("([{", r):
			depth++
		case strings.ContainsRune(")]}", r):
			depth = max(0, depth-1)
		case r == ';' && depth == 0:
			out, from = append(out, style[from:i]), i+1
		}
	}
	return append(out, style[from:])
}

// known reports a value of display (i 0), visibility (1) or
// content-visibility (2) a browser takes.
// A function (var(), attr(), env()) is taken as written and read later: not
// none (an unknown variable makes the declaration unset).
func known(i int, val string) bool {
	switch {
	case val == "":
		return false
	case strings.Contains(val, "("), slices.Contains(wideValues, val):
		return true
	case i == 1:
		return slices.Contains([]string{"visible", "hidden", "collapse"}, val)
	case i == 2:
		return slices.Contains([]string{"visible", "hidden", "auto"}, val)
	case slices.Contains(displayWords, val):
		return true
	}
	// CSS Display 3: an outer and an inner display, list-item with flow or flow-root.
	var outer, inner, item int
	innerWord := ""
	for _, w := range strings.Fields(val) {
		switch w {
		case "block", "inline":
			outer++
		case "flow", "flow-root", "table", "flex", "grid", "ruby", "math":
			inner, innerWord = inner+1, w
		case "list-item":
			item++
		default:
			return false
		}
	}
	listItem := innerWord == "" || innerWord == "flow" || innerWord == "flow-root"
	return outer <= 1 && inner <= 1 && item <= 1 && (item == 0 || listItem)
}

var (
	// displayWords are display's one-word values.
	displayWords = []string{"none", "contents", "block", "inline", "inline-block", "flow", "flow-root", "list-item",
		"flex", "inline-flex", "grid", "inline-grid", "table", "inline-table", "table-row-group",
		"table-header-group", "table-footer-group", "table-row", "table-cell", "table-column-group",
		"table-column", "table-caption", "ruby", "ruby-text", "math", "-webkit-box", "-webkit-inline-box",
		"-webkit-flex", "-webkit-inline-flex"}
	wideValues = []string{"inherit", "initial", "unset", "revert", "revert-layer"}
)

// StyleHides reports an inline style that hides its element: display:none,
// visibility:hidden or collapse.
func StyleHides(style string) bool {
	d, v, _ := Declared(style)
	return d == "none" || v == "hidden" || v == "collapse"
}

// TagAttrs are the attributes of the start tag z is at (more as
// z.TagName gave it), read once.
func TagAttrs(z *html.Tokenizer, more bool) iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for more {
			var k, v []byte
			k, v, more = z.TagAttr()
			if !yield(string(k), string(v)) {
				return
			}
		}
	}
}

// Inside an <svg> or a MathML annotation, an HTML start tag ends it (HTML
// 13.2.6.5: the browser closes the foreign element and shows what follows),
// and so do </p> and </br>, except in the parts that hold HTML: an svg's
// desc, title and foreignObject, MathML's text (mi, mo, mn, ms, mtext)
// and annotation-xml (read here as holding HTML, whatever its encoding).
var (
	endsForeign = []string{"b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed",
		"h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre",
		"ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var"}
	foreignHTML = []string{"desc", "title", "foreignobject", "mi", "mo", "mn", "ms", "mtext", "annotation-xml"}
)

// Foreign reports a hiding element (Hides) that an HTML tag ends: an <svg>,
// a MathML <annotation>.
func Foreign(name string) bool { return name == "svg" || name == "annotation" }

// EndsForeign reports a start tag (end tag if end) that ends the Foreign
// element it stands in, outside the parts that hold HTML (HoldsHTML). A
// <font> ends it with a color, face or size only.
func EndsForeign(tag string, end bool, attrs iter.Seq2[string, string]) bool {
	switch {
	case end:
		return tag == "p" || tag == "br"
	case tag == "font" && attrs != nil:
		for k := range attrs {
			if k == "color" || k == "face" || k == "size" {
				return true
			}
		}
	}
	return slices.Contains(endsForeign, tag)
}

// EmptyWhenSelfClosed reports an element that holds nothing when written
// self-closed (<svg/>): HTML reads the / on SVG and MathML elements only
// (13.2.6.5), and what follows is shown. A <script/> opens a script.
func EmptyWhenSelfClosed(name string) bool {
	return slices.Contains([]string{"svg", "math", "annotation", "annotation-xml"}, name)
}

// HoldsHTML reports the parts of a Foreign element in which an HTML tag
// does not end it.
func HoldsHTML(tag string) bool { return slices.Contains(foreignHTML, tag) }

// Collected is attrs read once and kept, to be read again.
func Collected(attrs iter.Seq2[string, string]) iter.Seq2[string, string] {
	var kv [][2]string
	for k, v := range attrs {
		kv = append(kv, [2]string{k, v})
	}
	return func(yield func(string, string) bool) {
		for _, a := range kv {
			if !yield(a[0], a[1]) {
				return
			}
		}
	}
}
