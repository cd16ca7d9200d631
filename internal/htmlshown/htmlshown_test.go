package htmlshown

import (
	"iter"
	"testing"
)

func attrs(kv ...string) iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for i := 0; i+1 < len(kv); i += 2 {
			if !yield(kv[i], kv[i+1]) {
				return
			}
		}
	}
}

// TestHides is written by hand from the HTML standard's rendering section
// (15.3.1) and each element's own section; checklist's
// TestHidingAgreesWithChromium asks a real browser the same.
func TestHides(t *testing.T) {
	for _, c := range []struct {
		name string
		kv   []string
		want bool
	}{
		{"span", nil, false},
		{"p", []string{"class", "hidden"}, false},
		{"span", []string{"title", "display:none"}, false},
		{"span", []string{"hidden", ""}, true},
		{"div", []string{"hidden", "until-found"}, true},
		{"span", []string{"hidden", "until-found"}, false}, // content-visibility: not on an inline box
		{"span", []string{"hidden", "until-found", "style", "display:block"}, true},
		{"div", []string{"hidden", "until-found", "style", "display:inline"}, false},
		{"span", []string{"style", "display: none"}, true},
		{"span", []string{"style", "color: red ; Display:None !IMPORTANT"}, true},
		{"span", []string{"style", "visibility:hidden"}, true},
		{"span", []string{"style", "visibility : collapse"}, true},
		{"span", []string{"style", "display:block"}, false},
		{"span", []string{"style", "display:block", "style", "display:none"}, false}, // the first counts
		{"span", []string{"style", "display:none", "style", "display:block"}, true},
		{"span", []string{"style", "display:none-ish"}, false},
		{"span", []string{"style", "content:'display:none'"}, false},
		{"script", nil, true}, {"style", nil, true}, {"title", nil, true},
		{"template", nil, true}, {"noscript", nil, true}, {"iframe", nil, true},
		{"noembed", nil, true}, {"noframes", nil, true}, {"datalist", nil, true},
		{"rp", nil, true}, {"audio", nil, true}, {"video", nil, true},
		{"canvas", nil, true}, {"svg", nil, true}, {"annotation-xml", nil, true}, {"annotation", nil, true},
		{"select", nil, true}, // one option in its box, read as hidden too
		{"textarea", nil, false}, {"pre", nil, false}, {"head", nil, false}, {"math", nil, false},
		{"dialog", nil, true}, {"dialog", []string{"open", ""}, false},
		{"details", nil, true}, {"details", []string{"open", ""}, false},
		{"details", []string{"class", "x"}, true},
		// The inline cascade: the last declaration wins, unless an earlier one is !important.
		{"span", []string{"style", "display:none;display:inline"}, false},
		{"span", []string{"style", "display:none !important;display:inline"}, true},
		{"span", []string{"style", "display:none ! important"}, true},
		{"span", []string{"style", "visibility:hidden;visibility:visible"}, false},
		// An inline display overrides the browser's own display:none, not what never shows.
		{"span", []string{"hidden", "", "style", "display:inline"}, false},
		{"div", []string{"hidden", "until-found", "style", "display:block"}, true},
		{"script", []string{"style", "display:block"}, false},
		{"title", []string{"style", "display:block"}, false},
		{"dialog", []string{"style", "display:block"}, false},
		{"noscript", []string{"style", "display:block"}, true},
		{"noembed", []string{"style", "display:block"}, true},
		{"datalist", []string{"style", "display:block"}, false},
		{"annotation", []string{"style", "display:block"}, false},
		// A value a browser does not know is dropped, with its declaration.
		{"span", []string{"style", "display:none;display:bogus"}, true},
		{"span", []string{"style", "display:none;display:inline block"}, true},
		{"span", []string{"style", "display:none;display:inline flow-root"}, false},
		{"span", []string{"style", "display:none;display:"}, true},
		{"span", []string{"style", "display:none;display:important"}, true},
		{"span", []string{"style", "display:none;display:revert"}, false},
		{"span", []string{"style", "visibility:hidden;visibility:show"}, true},
		{"span", []string{"style", "display:none;x:{;display:inline}"}, true},
		{"span", []string{"style", "display:none;x:'a;display:inline'"}, true},
		{"span", []string{"hidden", "", "style", "display:bogus"}, true},
		{"div", []string{"style", "display:none;display:inline list-item"}, false},
		{"div", []string{"style", "display:none;display:flex grid"}, true},
		{"div", []string{"style", "display:none;display:var(--x)"}, false}, // read later: unset
		{"dialog", []string{"style", "display:revert"}, true},              // back to the browser's own
		{"span", []string{"hidden", "", "style", "display:revert"}, false},
		{"progress", nil, true}, {"meter", nil, true}, {"fencedframe", nil, true}, {"mphantom", nil, true},
		{"span", []string{"popover", ""}, true}, {"div", []string{"popover", "", "style", "display:block"}, false},
		{"template", []string{"style", "display:block"}, true},
		{"details", []string{"style", "display:block"}, true},
		{"span", []string{"hidden", "", "hidden", "until-found", "style", "display:inline"}, false}, // the first hidden
		{"div", []string{"hidden", "until-found", "hidden", ""}, true},
	} {
		var a iter.Seq2[string, string]
		if c.kv != nil {
			a = attrs(c.kv...)
		}
		if got := Hides(c.name, a); got != c.want {
			t.Errorf("Hides(%q, %q) = %v, want %v", c.name, c.kv, got, c.want)
		}
	}
}
