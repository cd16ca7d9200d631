package checklist

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/romeo-pret/pret/internal/htmlshown"
)

// TestHidingAgreesWithChromium holds internal/htmlshown, which the rules of
// acces.md, the signer and the leak detector ask what a browser hides, to
// what Chromium shows: each element, with and without attributes that hide,
// holds a word; Chromium says whether it lays the word out and leaves it
// visible. Left out: a closed <details>' <summary> (Chromium shows it, pret
// reads a closed <details> as hiding all it holds: acces-md.md), and the
// form controls <select> and <textarea>, which draw their text in a box of
// their own that no range reaches (internal/htmlshown's table has them).
func TestHidingAgreesWithChromium(t *testing.T) {
	needChromium(t)
	type attr = [2]string
	cases := []struct {
		name  string
		attrs []attr
	}{
		{"span", nil}, {"b", nil}, {"div", nil}, {"p", nil}, {"code", nil}, {"math", nil}, {"xmp", nil},
		{"span", []attr{{"hidden", ""}}}, {"div", []attr{{"hidden", "until-found"}}},
		{"span", []attr{{"style", "display: none"}}}, {"span", []attr{{"style", "color:red;DISPLAY:NONE !important"}}},
		{"span", []attr{{"style", "visibility:hidden"}}}, {"span", []attr{{"style", "visibility: collapse"}}},
		{"span", []attr{{"style", "display:block"}}}, {"span", []attr{{"title", "display:none"}}},
		{"span", []attr{{"class", "hidden"}}}, {"span", []attr{{"data-open", "x"}}},
		{"span", []attr{{"style", "display:block"}, {"style", "display:none"}}}, {"span", []attr{{"style", "display:none"}, {"style", "color:red"}}},
		{"script", nil}, {"style", nil}, {"title", nil}, {"template", nil}, {"noscript", nil},
		{"iframe", nil}, {"noembed", nil}, {"noframes", nil}, {"datalist", nil}, {"rp", nil},
		{"audio", nil}, {"audio", []attr{{"controls", ""}}}, {"video", nil}, {"canvas", nil}, {"svg", nil},
		{"dialog", nil}, {"dialog", []attr{{"open", ""}}}, {"details", nil}, {"details", []attr{{"open", ""}}},
		{"pre", nil}, {"object", nil}, {"head", nil}, {"ruby", nil}, {"mphantom", nil},
		// The inline cascade, and an inline display over the browser's own display:none.
		{"span", []attr{{"hidden", "until-found"}}}, {"span", []attr{{"hidden", "until-found"}, {"style", "display:block"}}},
		{"div", []attr{{"hidden", "until-found"}, {"style", "display:inline"}}}, {"p", []attr{{"hidden", "until-found"}}},
		{"span", []attr{{"style", "display:none;display:inline"}}}, {"span", []attr{{"style", "display:none !important;display:inline"}}},
		{"span", []attr{{"style", "display:none ! important"}}}, {"span", []attr{{"style", "visibility:hidden;visibility:visible"}}},
		{"span", []attr{{"hidden", ""}, {"style", "display:inline"}}}, {"div", []attr{{"hidden", "until-found"}, {"style", "display:block"}}},
		{"script", []attr{{"style", "display:block"}}}, {"style", []attr{{"style", "display:block"}}}, {"title", []attr{{"style", "display:block"}}},
		{"dialog", []attr{{"style", "display:block"}}}, {"datalist", []attr{{"style", "display:block"}}}, {"rp", []attr{{"style", "display:inline"}}},
		{"noscript", []attr{{"style", "display:block"}}}, {"template", []attr{{"style", "display:block"}}}, {"details", []attr{{"style", "display:block"}}},
		{"annotation-xml", []attr{{"encoding", "text/html"}}}, {"annotation", nil},
		{"video", []attr{{"style", "display:block"}}}, {"noembed", []attr{{"style", "display:block"}}}, {"noframes", []attr{{"style", "display:block"}}},
		{"annotation-xml", []attr{{"encoding", "text/html"}, {"style", "display:block"}}}, {"annotation", []attr{{"style", "display:block"}}},
		{"progress", nil}, {"meter", nil}, {"fencedframe", nil}, {"span", []attr{{"popover", ""}}}, {"div", []attr{{"popover", "manual"}}},
		{"div", []attr{{"popover", ""}, {"style", "display:block"}}}, {"dialog", []attr{{"style", "display:revert"}}},
		{"script", []attr{{"style", "display:revert"}}}, {"span", []attr{{"hidden", ""}, {"style", "display:revert"}}},
		{"div", []attr{{"style", "display:none; display:flow"}}}, {"div", []attr{{"style", "display:none; display:-webkit-flex"}}},
		{"div", []attr{{"style", "display:none; display:inline list-item"}}}, {"div", []attr{{"style", "display:none; display:list-item block"}}},
		{"div", []attr{{"style", "display:none; display:var(--x)"}}}, {"div", []attr{{"style", "display:none; display:flex grid"}}},
		{"div", []attr{{"style", "visibility:hidden; visibility:var(--x)"}}}, {"div", []attr{{"style", "display:none; display:table list-item"}}},
		// A value the browser does not know is dropped, with its declaration.
		{"span", []attr{{"style", "display:none;display:bogus"}}}, {"span", []attr{{"style", "display:none;display:inline block"}}},
		{"span", []attr{{"style", "display:none;display:inline flow-root"}}}, {"span", []attr{{"style", "display:none;display:"}}},
		{"span", []attr{{"style", "display:none;display:important"}}}, {"span", []attr{{"style", "display:none;display:revert"}}},
		{"span", []attr{{"style", "visibility:hidden;visibility:show"}}}, {"span", []attr{{"style", "display:none;x:{;display:inline}"}}},
		{"span", []attr{{"style", "display:none;x:'a;display:inline'"}}}, {"span", []attr{{"hidden", ""}, {"style", "display:bogus"}}},
		// content-visibility skips a box's contents, not an inline box's.
		{"div", []attr{{"style", "content-visibility:hidden"}}}, {"span", []attr{{"style", "content-visibility: hidden"}}},
		{"span", []attr{{"style", "display:block;content-visibility:hidden"}}}, {"div", []attr{{"style", "content-visibility:auto"}}},
		{"div", []attr{{"style", "content-visibility:hidden;content-visibility:visible"}}}, {"div", []attr{{"style", "content-visibility:hidden;content-visibility:bogus"}}},
		{"div", []attr{{"hidden", "until-found"}, {"style", "content-visibility:visible"}}}, {"div", []attr{{"hidden", "until-found"}, {"style", "content-visibility:revert"}}},
	}
	var page strings.Builder
	page.WriteString("<!doctype html><meta charset=utf-8><title>t</title><body>\n")
	for i, c := range cases {
		var at strings.Builder
		for _, a := range c.attrs {
			fmt.Fprintf(&at, " %s=%q", a[0], a[1])
		}
		// In a <span> its visibility can be asked of (the text itself of a
		// raw element: a script's, a title's).
		inner := fmt.Sprintf("<span>mot%d</span>", i)
		switch c.name {
		case "details":
			inner = "<summary>résumé</summary>" + inner
		case "math":
			inner = "<mtext>" + inner + "</mtext>"
		case "mphantom":
			fmt.Fprintf(&page, "<div>avant <math><mphantom><mtext>mot%d</mtext></mphantom></math> après</div>\n", i)
			continue
		case "annotation-xml", "annotation": // in a formula, beside what it annotates
			if c.name == "annotation" { // holds text, not HTML: a <span> would end the formula
				inner = fmt.Sprintf("mot%d", i)
			}
			fmt.Fprintf(&page, "<div>avant <math><semantics><mi>x</mi><%s%s>%s</%s></semantics></math> après</div>\n", c.name, at.String(), inner, c.name)
			continue
		case "svg": // a <span> would end the picture (HTML 13.2.6.5)
			inner = fmt.Sprintf("<desc>mot%d</desc>", i)
		}
		fmt.Fprintf(&page, "<div>avant <%s%s>%s</%s> après</div>\n", c.name, at.String(), inner, c.name)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "cas.html")
	if err := os.WriteFile(file, []byte(page.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	p := browserPage{ctx: startChromium(t, dir), url: (&url.URL{Scheme: "file", Path: file}).String()}
	p.do(t, chromedp.Navigate(p.url))
	// shown: a text node holding the word, laid out in a box of some size,
	// visible, under no element whose content is skipped (hidden=until-found,
	// a closed <details>: content-visibility).
	shown := evalAs[map[string]bool](t, p, `(() => {
		const seen = {};
		const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		for (let n; (n = w.nextNode()); ) {
			const m = n.data.match(/mot\d+/);
			if (!m) continue;
			const r = document.createRange();
			r.selectNodeContents(n);
			const laid = [...r.getClientRects()].some(b => b.width > 0 && b.height > 0);
			seen[m[0]] = laid && n.parentElement.checkVisibility({visibilityProperty: true});
		}
		return seen;
	})()`)
	hidden := 0
	for i, c := range cases {
		want := !shown[fmt.Sprintf("mot%d", i)] // absent from the tree (a template's): hidden
		got := htmlshown.Hides(c.name, func(yield func(string, string) bool) {
			for _, a := range c.attrs {
				if !yield(a[0], a[1]) {
					return
				}
			}
		})
		if got != want {
			t.Errorf("<%s %v>: htmlshown.Hides = %v, Chromium hides = %v", c.name, c.attrs, got, want)
		}
		if want {
			hidden++
		}
	}
	if hidden < 15 || len(cases)-hidden < 10 {
		t.Errorf("%d of %d cases hidden by Chromium: the page did not load as written", hidden, len(cases))
	}
}
