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
	// standard's rendering section, 15.3.1), which an inline display overrides:
	// <script style="display:block"> shows its text.
	styledHidden = []string{"noframes", "rp", "script", "style", "title"}
	// neverShown show none of what they hold, whatever their style: a
	// <template>'s content is inert; <noscript> and <noembed> are
	// display:none !important where scripts and plugins are on (Chromium:
	// TestHidingAgreesWithChromium), a <datalist> too; <iframe>, <audio>,
	// <video> and <canvas> hold a fallback; an <svg> is a picture, its text
	// drawn, not read; a MathML annotation is not drawn; a <select> shows one option in its box, nothing else
	// it holds (the option is read as hidden too: a sentence has no business
	// there). Not <head>: in a page's body a browser ignores the tag and
	// shows what follows.
	neverShown = []string{"annotation", "annotation-xml", "audio", "canvas", "datalist", "iframe", "noembed", "noscript", "select", "svg", "template", "video"}
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
	var hidden, untilFound, styled, open bool
	var display, visibility string
	for k, v := range attrs { // the first of a name: a browser drops one written again
		switch {
		case k == "hidden" && !hidden:
			hidden, untilFound = true, strings.EqualFold(v, "until-found")
		case k == "style" && !styled:
			styled = true
			display, visibility = Declared(v)
		case k == "open":
			open = true
		}
	}
	switch {
	case display == "none", visibility == "hidden", visibility == "collapse":
		return true
	case untilFound, name == "details" && !open:
		return true // content-visibility, or a closed slot: no display shows it
	case display != "":
		return false
	}
	return hidden || slices.Contains(styledHidden, name) || name == "dialog" && !open
}

// Declared reads an inline style's display and visibility as the cascade
// does: the last declaration of each, unless an earlier one is !important
// and it is not; values in lower case, white space dropped ("" for none).
func Declared(style string) (display, visibility string) {
	var important [2]bool
	for _, d := range strings.Split(strings.ToLower(style), ";") {
		prop, val, ok := strings.Cut(d, ":")
		if !ok {
			continue
		}
		val = strings.Join(strings.Fields(val), "")
		val, imp := strings.CutSuffix(val, "!important") // "! important" too: spaces are dropped
		var i int
		switch strings.TrimSpace(prop) {
		case "display":
			i = 0
		case "visibility":
			i = 1
		default:
			continue
		}
		if important[i] && !imp {
			continue
		}
		important[i] = imp
		if i == 0 {
			display = val
		} else {
			visibility = val
		}
	}
	return display, visibility
}

// StyleHides reports an inline style that hides its element: display:none,
// visibility:hidden or collapse.
func StyleHides(style string) bool {
	d, v := Declared(style)
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

// Inside an <svg>, an HTML start tag ends the picture (HTML 13.2.6.5: the
// browser closes it and shows what follows), and so do </p> and </br>,
// except in the parts of the picture that hold HTML (desc, title,
// foreignObject). <font> ends it only with a color, face or size: it is
// read here as not ending it.
var (
	endsPicture = []string{"b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed",
		"h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre",
		"ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var"}
	pictureHTML = []string{"desc", "title", "foreignobject"}
)

// EndsPicture reports a start tag (end tag if end) that ends an <svg> it
// stands in, outside the parts that hold HTML (PictureHTML).
func EndsPicture(tag string, end bool) bool {
	if end {
		return tag == "p" || tag == "br"
	}
	return slices.Contains(endsPicture, tag)
}

// PictureHTML reports the elements of an <svg> that hold HTML: in them an
// HTML tag does not end the picture.
func PictureHTML(tag string) bool { return slices.Contains(pictureHTML, tag) }
