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

// hidingElements show none of what they hold. From the HTML standard's
// rendering section (15.3.1: datalist, noembed, noframes, rp, script, style,
// template, title are display:none), with what shows something else:
// <noscript> (scripts are on in a browser as shipped), <iframe>, <audio>,
// <video> and <canvas> (their content is a fallback), <select> (its options,
// in a list), <svg> (a picture: its text is drawn, not read). Not <head>: in
// a page's body a browser ignores the tag and shows what follows.
var hidingElements = []string{
	"audio", "canvas", "datalist", "iframe", "noembed", "noframes", "noscript",
	"rp", "script", "select", "style", "svg", "template", "title", "video",
}

// Hides reports whether a browser shows nothing of what the element name
// (lower case) holds, given its attributes (keys in lower case; nil for
// none). A <dialog>
// or <details> without open counts whole, its <summary> too: pret does not
// read that far.
func Hides(name string, attrs iter.Seq2[string, string]) bool {
	if slices.Contains(hidingElements, name) {
		return true
	}
	if attrs == nil {
		return name == "dialog" || name == "details"
	}
	open, styled := false, false
	for k, v := range attrs {
		switch k {
		case "hidden":
			return true
		case "style": // the first: a browser drops an attribute written again
			if !styled && StyleHides(v) {
				return true
			}
			styled = true
		case "open":
			open = true
		}
	}
	return (name == "dialog" || name == "details") && !open
}

// StyleHides reads an inline style's declarations: display:none,
// visibility:hidden or collapse (!important or not, any case, any spacing).
func StyleHides(style string) bool {
	for _, d := range strings.Split(strings.ToLower(style), ";") {
		prop, val, ok := strings.Cut(d, ":")
		if !ok {
			continue
		}
		val = strings.Join(strings.Fields(strings.ReplaceAll(val, "!important", "")), " ")
		switch strings.TrimSpace(prop) + ":" + val {
		case "display:none", "visibility:hidden", "visibility:collapse":
			return true
		}
	}
	return false
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
