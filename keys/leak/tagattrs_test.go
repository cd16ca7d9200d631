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
		z := html.NewTokenizer(strings.NewReader(tag))
		if tt := z.Next(); tt != html.StartTagToken && tt != html.SelfClosingTagToken || len(z.Raw()) != len(tag) {
			continue // not one tag for HTML (an open quote runs past '>'): tagAt reads no such tag
		}
		var want []string
		for _, a := range z.Token().Attr {
			want = append(want, fmt.Sprintf("%s=%q", a.Key, a.Val))
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
		compared++
	}
	if compared < 2000 {
		t.Fatalf("only %d tags compared", compared)
	}
}
