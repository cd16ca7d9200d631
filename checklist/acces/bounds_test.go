package acces

import (
	"crypto/rand"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/keys"
)

// markdownShapes are the pages that cost goldmark, and the reading of its tree,
// most for their size: table cells a renderer pads, escaped pipes, nested
// containers at the depth read, link definitions and references, links left
// open, emphasis runs, HTML blocks and inline tags. Each fills n bytes.
var markdownShapes = []struct {
	name string
	make func(n int) string
}{
	{"table-issue-30", func(n int) string {
		s := strings.Repeat("|a", 1020) + "\n" + strings.Repeat("|-", 1020) + "\n" // lines of 2 KiB, the most read
		return s + strings.Repeat("|\n", (n-len(s))/2)
	}},
	{"table-wide-full", func(n int) string {
		s := strings.Repeat("|a", 90) + "\n" + strings.Repeat("|-", 90) + "\n"
		return s + repeatTo(strings.Repeat("|a", 90)+"\n", n-len(s))
	}},
	{"table-delimiter-rows", func(n int) string { return "|a|\n" + repeatTo("|-|\n", n-4) }},
	{"table-escaped-pipes", func(n int) string { return "|a|b|\n|-|-|\n" + repeatTo("|`a\\|b\\|c\\|d\\|`|\n", n-12) }},
	{"tables", func(n int) string { return repeatTo("|a|\n|-|\n\n", n) }},
	{"nested-16", func(n int) string { return repeatTo(strings.Repeat("> ", 16)+"a\n", n) }},
	{"nested-lists-16", func(n int) string { return repeatTo(strings.Repeat("- ", 16)+"a\n", n) }},
	{"link-definitions", func(n int) string { return repeatTo("[a]: b\n", n) }},
	{"link-references", func(n int) string { return repeatTo("[a]: b\n", n/2) + onLines("[a] ", n/2) }},
	{"links-open", func(n int) string { return onLines("[a](", n) }},
	{"links-angle", func(n int) string { return onLines("[a](< ", n) }},
	{"links-title", func(n int) string { return repeatTo("[a](b \"\n", n) }},
	{"images-open", func(n int) string { return onLines("![", n) }},
	{"emphasis-lines", func(n int) string { return repeatTo("*a\n", n) }},
	{"emphasis-runs", func(n int) string { return onLines("**_", n) }},
	{"setext", func(n int) string { return repeatTo("a\n=\n", n) }},
	{"lazy-quote", func(n int) string { return "> a\n" + repeatTo("b\n", n-4) }},
	{"html-blocks", func(n int) string { return repeatTo("<a>\n\n", n) }},
	{"html-br", func(n int) string { return onLines("<br>", n) }},
	{"html-hidden", func(n int) string { return repeatTo("<span hidden>a</span>\n", n) }},
	{"html-comments-open", func(n int) string { return repeatTo("<!-- a\n\n", n) }},
	{"scripts-open", func(n int) string { return repeatTo("<script>\n\n", n) }},
	{"svg", func(n int) string { return onLines("<svg><desc>a</desc>", n) }},
}

func repeatTo(s string, n int) string { return strings.Repeat(s, max(n, 0)/len(s)) }

// onLines repeats s on lines of 2 KiB, the longest read, to n bytes.
func onLines(s string, n int) string { return repeatTo(repeatTo(s, maxLine-1)+"\n", n) }

// TestMarkdownShapesBounded: every shape at 16 KiB, the most read as Markdown, is
// read (not refused as too-large), allocates under 16 MiB in all, and twice the
// page costs about twice the bytes and allocations, never four times. Bytes and
// allocations, not time: they do not depend on the machine's load.
func TestMarkdownShapesBounded(t *testing.T) {
	const bound = 16 << 20
	for _, s := range markdownShapes {
		page := s.make(maxMarkdown)
		if len(page) < maxMarkdown*9/10 || len(page) > maxMarkdown {
			t.Fatalf("%s: %d bytes, not a 16 KiB page", s.name, len(page))
		}
		if r := Validate([]byte(page), Rules{}); hasCode(r, "too-large") {
			t.Fatalf("%s: too-large, so goldmark never reads it: %v", s.name, r.Problems)
		}
		b1, a1 := cost([]byte(s.make(maxMarkdown / 2)))
		b2, a2 := cost([]byte(page))
		t.Logf("%s: %d KiB, %d allocs at 8 KiB; %d KiB, %d allocs at 16 KiB", s.name, b1>>10, a1, b2>>10, a2)
		if b2 > bound {
			t.Errorf("%s: %d bytes allocated for a 16 KiB page, over %d", s.name, b2, bound)
		}
		if float64(b2) > 2.6*float64(b1)+64<<10 || float64(a2) > 2.6*float64(a1)+64 {
			t.Errorf("%s: grows faster than the page: %d B, %d allocs at 8 KiB; %d B, %d allocs at 16 KiB", s.name, b1, a1, b2, a2)
		}
	}
}

func hasCode(r *Result, code checklist.Code) bool {
	for _, p := range r.Problems {
		if p.Code == code {
			return true
		}
	}
	return false
}

// TestLongLineIsTooLarge: a line over 2 KiB would let goldmark's link parser
// read it once per "](": the page is too-large, on that line.
func TestLongLineIsTooLarge(t *testing.T) {
	page := "Date de la demande : 2026-10-20\n" + strings.Repeat("[a](", maxLine/4+1) + "\n"
	r := Validate([]byte(page), Rules{})
	for _, p := range r.Problems {
		if p.Code == "too-large" && p.Line == 2 && strings.Contains(p.Message, "2 Kio") {
			return
		}
	}
	t.Fatalf("no too-large on line 2: %+v", r.Problems)
}

// BenchmarkMarkdownShapes is the time of each shape at 16 KiB (100 ms at most, on
// one core of a laptop): go test ./checklist/acces -run '^$' -bench MarkdownShapes -benchmem
func BenchmarkMarkdownShapes(b *testing.B) {
	for _, s := range markdownShapes {
		page := []byte(s.make(maxMarkdown))
		b.Run(fmt.Sprintf("%s-16KiB", s.name), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				Validate(page, Rules{})
			}
		})
	}
}

// TestSharedPubReadOnce: a .pub of 64 KiB beside 10,000 entries of an archive is
// one PubFile; only the first validation reads it, the others cost what a page
// without it costs, and all get its verdict.
func TestSharedPubReadOnce(t *testing.T) {
	_, line, err := keys.Generate(rand.Reader, "kim", []byte("passphrase"))
	if err != nil {
		t.Fatal(err)
	}
	pub := []byte(strings.TrimSpace(string(line)) + strings.Repeat("c", 64<<10-len(line)) + "\n") // a 64 KiB comment
	page := []byte(strings.Repeat("Date de la demande : 2026-10-16\n", 2))
	shared := Rules{Beside: &PubFile{Name: "id_ed25519_romeo.pub", Data: pub}}
	// Bytes per validation, over k of them: sync.Pool's machines, emptied by a GC, are
	// made again once, not k times.
	withRules := func(rl Rules, k int) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range k {
			if r := Validate(page, rl); rl.Beside != nil && hasCode(r, "bad-public-key") {
				t.Fatalf("the .pub does not read: %v", r.Problems)
			}
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / uint64(k)
	}
	Validate(page, Rules{Beside: &PubFile{Data: pub}}) // the rules' first use builds their readers
	none, first := withRules(Rules{}, 20), withRules(shared, 1)
	again := withRules(shared, 20)
	t.Logf("first %d B, again %d B, without a .pub %d B", first, again, none)
	if first < none+64<<10 || again > none+8<<10 {
		t.Errorf("a shared .pub is read again: first %d B, again %d B, without %d B", first, again, none)
	}
}

// TestIssue30TablePage: the page of issue 30 (a 2,040-cell header over 4,078
// one-cell rows: 11.8 s and 2.2 GiB) has lines over 2 KiB: too-large, unread, for
// under 1 MiB.
func TestIssue30TablePage(t *testing.T) {
	page := []byte(strings.Repeat("|a", 2040) + "\n" + strings.Repeat("|-", 2040) + "\n" + strings.Repeat("|\n", 4078))
	if r := Validate(page, Rules{}); !hasCode(r, "too-large") {
		t.Fatalf("not too-large: %v", r.Problems)
	}
	if b, _ := cost(page); b > 1<<20 {
		t.Errorf("%d bytes allocated", b)
	}
}
