package leak

import (
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestTagAttrsAsTokenizer holds tagAttrs to golang.org/x/net/html's
// tokenizer, on written tags and random ones built of what makes a tag's
// syntax (spaces, slashes, quotes, '=', letters).
func TestTagAttrsAsTokenizer(t *testing.T) {
	tags := []string{
		`<span hidden>`, `<span hidden/>`, `<span style="display: none">`, `<i style='a b' hidden>`,
		`<a =x y=>`, `<a x = "1" y=2 z>`, `<a x="a>b">`, `<a/x/y="1">`, `<div  hidden = until-found >`,
		`<a x='"' y="'">`, `<details open>`, `<a x=a"b>`, `<a x="">`, `<svg/>`,
		`<a style="display&#58;none">`, `<a style="&#x64;isplay:&#110;one">`, `<a title="&lt;&amp;&gt;">`,
	}
	rng := mrand.New(mrand.NewPCG(7, 7))
	atoms := []string{" ", "\t", "/", "=", `"`, "'", "a", "hidden", "style", "x", "none", "-"}
	for range 5000 {
		var b strings.Builder
		b.WriteString("<span")
		for range rng.IntN(12) {
			b.WriteString(atoms[rng.IntN(len(atoms))])
		}
		tags = append(tags, b.String()+">")
	}
	compared := 0
	for _, tag := range tags {
		if sameAttrs(t, tag) {
			compared++
		}
	}
	if compared < 2000 {
		t.Fatalf("only %d tags compared", compared)
	}
}

// FuzzTagAttrs: any tag HTML reads as one start tag has the attributes its tokenizer gives.
func FuzzTagAttrs(f *testing.F) {
	f.Add(`<a x="1" y=2 z>`)
	f.Add(`<span style='display:none' hidden/>`)
	f.Fuzz(func(t *testing.T, tag string) {
		// NUL: the tokenizer writes U+FFFD for it, in no name that hides.
		if strings.HasPrefix(tag, "<") && strings.HasSuffix(tag, ">") && len(tag) <= maxTag && !strings.Contains(tag, "\x00") {
			sameAttrs(t, strings.ToLower(tag))
		}
	})
}

// sameAttrs compares tagAttrs with the tokenizer on tag, and reports
// whether HTML reads tag as one start tag (otherwise nothing is compared).
func sameAttrs(t *testing.T, tag string) bool {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(tag))
	if tt := z.Next(); tt != html.StartTagToken && tt != html.SelfClosingTagToken || len(z.Raw()) != len(tag) {
		return false // not one tag for HTML (an open quote runs past '>'): tagAt reads no such tag
	}
	var want []string
	for _, a := range z.Token().Attr {
		want = append(want, fmt.Sprintf("%s=%q", a.Key, a.Val))
	}
	if strings.Contains(tag, "&") {
		// In a value the tokenizer reads "&notit=" as written (13.2.5.73), where
		// html.UnescapeString reads "¬it=": a tag with a value that still holds
		// a '&' once read is left out.
		for _, a := range z.Token().Attr {
			if strings.Contains(a.Val, "&") {
				return false
			}
		}
	}
	var got, names []string
	for k, v := range tagAttrs(tag) {
		if !slices.Contains(names, k) { // the tokenizer's Token keeps the first
			got = append(got, fmt.Sprintf("%s=%q", k, v))
		}
		names = append(names, k)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%q: attributes %v, tokenizer %v", tag, got, want)
	}
	return true
}
