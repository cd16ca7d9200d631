package acces

import (
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// TestTablesReadAsGoldmarkExtension: pret's table transformer gives the rules the
// blocks goldmark's table extension gives them, for every table a page holds, the
// empty cells it pads rows with aside (they show nothing).
func TestTablesReadAsGoldmarkExtension(t *testing.T) {
	pages := []string{
		"| Élément | Valeur |\n|---|---|\n| Date | 2026-10-20 |\n| Clé | `~/.ssh/a.pub` |\n",
		"a | b\n--|:-:\nc | d | e\nf\n",
		"Texte au-dessus\n| a | b |\n| - | -: |\n| `x\\|y` | \\| z |\n\nsuite\n",
		"|a|b|c|\n|:--|--:|---|\n|1|\n|1|2|3|4|\n",
		"| `a\\|b` `c` | d\\|e |\n|---|---|\n| `\\|` | x |\n",
		"|a|\n|-|-|\n|b|\n",
		"- | a | b |\n  |---|---|\n  | c | d |\n",
		"> | a |\n> |---|\n> | b |\n",
		"| a |\n|---|\n| **b** <!-- c --> d |\n",
		"|a|\n---\n",
		"|a|\n|:-:|\n",
		"| a |\n| --- |\n|\n| |\n",
	}
	ext := goldmark.New(goldmark.WithExtensions(extension.Table))
	for _, p := range pages {
		got, want := readWith(markdown(), p), readWith(ext, p)
		if !slices.Equal(got, want) {
			t.Errorf("%q:\n got %q\nwant %q", p, got, want)
		}
	}
}

func readWith(md goldmark.Markdown, page string) []string {
	src := []byte(page)
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	doc := md.Parser().Parse(text.NewReader(src))
	var out []string
	r := &reader{src: src, page: page, starts: starts, html: newHTMLView(doc, src),
		visit: func(b *block) { out = append(out, strings.Repeat("#", int(b.kind))+b.text) }}
	r.blocks(doc)
	return out
}
