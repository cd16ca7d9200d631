package textwrap_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/internal/textwrap"
	"github.com/romeo-pret/pret/onboarding"
)

// wrapWords are the words generated texts are made of: accents
// precomposed and combining (one column each), wide characters (two),
// colour, punctuation, and words longer than any line.
var wrapWords = []string{
	"a", "de", "clé", "accès", "NŒUD", "e\u0301te\u0301", "Où", "démarrez", "l'agent", "ssh-add", "«", "»", ":", ";",
	"日本語", "🙂", "\x1b[31mmissing-date\x1b[0m", "\x1b[1mÉCHEC\x1b[0m", "~/.ssh/id_ed25519_romeo",
	"SHA256:2f3Kq0yA9cFq1l8HcN4tT9zWm2bXj5vU7rPpL0sDkQe", "/home/très-long-nom-d-utilisateur/projets/romeo/acces.md",
	"https://romeo.univ-reims.fr/documentation/acces/compte", strings.Repeat("x", 130), "entrées", "organisateurs.",
}

func wrapSample(rng *rand.Rand, long bool) string {
	var lines []string
	for range 1 + rng.IntN(6) {
		var b strings.Builder
		b.WriteString(strings.Repeat(" ", rng.IntN(7)))
		for k := range 1 + rng.IntN(25) {
			if k > 0 {
				b.WriteString(strings.Repeat(" ", 1+rng.IntN(3)*rng.IntN(2)))
			}
			n := len(wrapWords)
			if !long {
				n = 18 // the short words only
			}
			b.WriteString(wrapWords[rng.IntN(n)])
		}
		lines = append(lines, b.String())
	}
	return strings.Join(lines, "\n")
}

// TestWrapProperties: for generated texts and every width from 20 to
// 120, no line is wider than the width in display columns unless it holds
// a single word, the text is kept character for character in order, and
// no word is ever cut (rejoining the lines gives back the words), not
// even one wider than a line.
func TestWrapProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	wordChecks, n := 0, testenv.Scaled(100, 400)
	for i := range n {
		long := i%2 == 0
		text := wrapSample(rng, long)
		for width := 20; width <= 120; width += 1 + rng.IntN(4) {
			got := textwrap.Text(text, width)
			for _, line := range strings.Split(got, "\n") {
				checkWidth(t, line, width)
			}
			if testenv.NonSpace(got) != testenv.NonSpace(text) {
				t.Fatalf("width %d: text changed:\n%q\n%q", width, text, got)
			}
			// No word is ever cut, not even one wider than a line.
			if maxWord(text) > width {
				wordChecks++
			}
			if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(text), " ") {
				t.Fatalf("width %d: a word was cut:\n%q\n%q", width, text, got)
			}
			if textwrap.Columns(text) <= width && !strings.Contains(text, "\n") && got != text {
				t.Fatalf("width %d: a line that fits was changed: %q", width, got)
			}
		}
	}
	if wordChecks*4 < n*5 { // 500 of the 400 texts of a long run
		t.Fatalf("words wider than the line checked at only %d widths", wordChecks)
	}
}

var frenchGlue = regexp.MustCompile(` +([:;?!»])|(«) +`)

// checkWidth fails when line is wider than width but for a single word;
// a word and the French punctuation glued to it ("mot !", "« mot") are
// one unit: the rule never breaks between them.
func checkWidth(t *testing.T, line string, width int) {
	t.Helper()
	// Any run of spaces: "0000  !0" cannot break before its '!' either (fuzzing found it).
	glued := frenchGlue.ReplaceAllString(line, "$1$2")
	if w := textwrap.Columns(line); w > width && !testenv.OneWordOverflow(glued) {
		t.Fatalf("width %d: line of %d columns %q", width, w, line)
	}
}

func maxWord(s string) int {
	m := 0
	for _, w := range strings.Fields(s) {
		m = max(m, textwrap.Columns(w))
	}
	return m
}

// TestVisibleWidth: display columns, not bytes or runes.
func TestVisibleWidth(t *testing.T) {
	for s, want := range map[string]int{
		"é": 1, "e\u0301": 1, "NŒUD": 4, "日本": 4, "🙂": 2, "\x1b[31mé\x1b[0m": 1, "a\u200db": 2, "": 0,
	} {
		if got := textwrap.Columns(s); got != want {
			t.Errorf("textwrap.Columns(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestWrapDiffKeepsMarkers: unified diffs of generated acces.md-like
// texts, with and without colour, at every width from 20 to 120: no line
// is wider than the width, every continuation of a hunk line starts with
// that line's marker and "↪ ", and rejoining each line's continuations
// gives back the line.
func TestWrapDiffKeepsMarkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	continued := 0
	n := testenv.Scaled(50, 200)
	for i := range n {
		var oldL, newL []string
		for range 1 + rng.IntN(12) {
			l := wrapSample(rng, i%2 == 0)
			l = strings.ReplaceAll(l, "\x1b", "") // the diff escapes them: keep the sample to printable text
			l = strings.ReplaceAll(l, "\n", " ")
			switch rng.IntN(3) {
			case 0:
				oldL = append(oldL, l)
			case 1:
				newL = append(newL, l)
			default:
				oldL, newL = append(oldL, l), append(newL, l)
			}
		}
		color := rng.IntN(2) == 0
		diff := onboarding.UnifiedDiff("a", "b", []byte(strings.Join(oldL, "\n")+"\n"), []byte(strings.Join(newL, "\n")+"\n"), color)
		in := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
		for width := 20; width <= 120; width += 1 + rng.IntN(3) {
			out := strings.Split(strings.TrimSuffix(textwrap.Text(diff, width), "\n"), "\n")
			// Group the output lines: a line starting "X↪ " continues
			// the one before it; any other starts the next input line.
			var groups [][]string
			for _, line := range out {
				checkWidth(t, line, width)
				plain := textwrap.StripEscapes(line)
				if _, after, ok := strings.Cut(plain, "↪ "); ok && len(plain)-len(after) == 1+len("↪ ") {
					if len(groups) == 0 {
						t.Fatalf("width %d: a continuation first", width)
					}
					g := groups[len(groups)-1]
					if marker := textwrap.StripEscapes(g[0])[0]; plain[0] != marker {
						t.Fatalf("width %d: continuation %q of %q has another marker", width, plain, g[0])
					}
					groups[len(groups)-1] = append(g, after)
					continued++
					continue
				}
				groups = append(groups, []string{line})
			}
			// As many groups as diff lines: no continuation lost its
			// marker (it would start a group of its own).
			if len(groups) != len(in) {
				t.Fatalf("width %d: %d lines became %d groups:\n%s", width, len(in), len(groups), strings.Join(out, "\n"))
			}
			for k, g := range groups {
				if testenv.NonSpace(strings.Join(g, " ")) != testenv.NonSpace(in[k]) {
					t.Fatalf("width %d: %q rejoined as %q", width, in[k], g)
				}
				if len(g) > 1 && strings.IndexByte(" -+", textwrap.StripEscapes(in[k])[0]) < 0 {
					t.Fatalf("width %d: %q is not a hunk line but has diff continuations", width, in[k])
				}
			}
		}
	}
	if continued < 5*n { // 1,000 of the 200 texts of a long run
		t.Fatalf("only %d continuation lines: the markers were barely checked", continued)
	}
}

// TestWrapCommentLines: a comment line ("# …", the ssh_config block's)
// wraps into comment lines: at every width, each line of the result
// starts with "#" after its indent, none is wider than the width, and
// without the "#" the text is the same.
func TestWrapCommentLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for i := range testenv.Scaled(50, 200) {
		var lines []string
		for range 1 + rng.IntN(3) {
			l := strings.ReplaceAll(wrapSample(rng, i%2 == 0), "\n", " ")
			lines = append(lines, strings.Repeat(" ", rng.IntN(5))+"# "+strings.TrimLeft(l, " "))
		}
		text := strings.Join(lines, "\n")
		for width := 20; width <= 120; width += 1 + rng.IntN(4) {
			got := textwrap.Text(text, width)
			for _, line := range strings.Split(got, "\n") {
				if !strings.HasPrefix(strings.TrimLeft(textwrap.StripEscapes(line), " "), "#") {
					t.Fatalf("width %d: %q is not a comment line:\n%s", width, line, got)
				}
				checkWidth(t, line, width)
			}
			if strings.ReplaceAll(testenv.NonSpace(got), "#", "") != strings.ReplaceAll(testenv.NonSpace(text), "#", "") {
				t.Fatalf("width %d: text changed:\n%q\n%q", width, text, got)
			}
		}
	}
}

// FuzzWrapText: whatever the text (bytes of any kind, diffs, comments)
// and the width, wrapping ends, keeps every character other than spaces
// and the markers it may add ('#', '-', '+', '↪') in order, and leaves
// no line wider than a width of 6 or more but a line of one word.
func FuzzWrapText(f *testing.F) {
	for _, s := range []string{
		"OK         key-present            clé présente : /home/kim/.ssh/id_ed25519_romeo",
		"--- a\n+++ b\n@@ -1,2 +1,2 @@\n-Connexion uniquement vers le nœud de login indiqué\n+autre ligne\n contexte",
		"# Séance ROMEO — remplacez NOEUD-DE-LOGIN par le nom donné par les organisateurs",
		"日本語🙂e\u0301\x1b[31mrouge\x1b[0m\xff\x1b",
	} {
		f.Add(s, 40)
	}
	marks := func(s string) string {
		// Bad bytes first, as one U+FFFD each: without its spaces, "\xd1 \xb3" would read as "ѳ".
		s = strings.ToValidUTF8(s, "\uFFFD")
		return strings.Map(func(r rune) rune {
			if strings.ContainsRune("#-+↪", r) {
				return -1
			}
			return r
		}, testenv.NonSpace(s))
	}
	f.Fuzz(func(t *testing.T, text string, width int) {
		width = width%200 + 1
		if width < 1 {
			width += 200
		}
		got := textwrap.Text(text, width)
		if marks(got) != marks(text) {
			t.Fatalf("width %d: text changed:\n%q\n%q", width, text, got)
		}
		if width < 6 || !utf8.ValidString(text) || strings.ContainsAny(text, "\t\r\v\f") {
			return // bytes a terminal draws its own way
		}
		for _, line := range strings.Split(got, "\n") {
			checkWidth(t, line, width)
		}
	})
}

// TestWrapLongWordLinear: a word of a million characters (a report line
// can quote that much of a file) is never cut: it gets a line of its own,
// whole, and the words around it keep theirs.
func TestWrapLongWordLinear(t *testing.T) {
	word := strings.Repeat("é", 1<<20)
	got := strings.Split(textwrap.Text("    début "+word+" fin", 40), "\n")
	if len(got) != 3 || got[0] != "    début" || got[1] != word || strings.TrimSpace(got[2]) != "fin" {
		t.Fatalf("%d lines, %q…", len(got), got[0])
	}
}

// BenchmarkWrapLongWord: one word of n characters at 40 columns; the time
// per character stays flat as n grows.
func BenchmarkWrapLongWord(b *testing.B) {
	for _, n := range []int{1 << 14, 1 << 20} {
		word := strings.Repeat("é", n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(word)))
			for range b.N {
				textwrap.Text(word, 40)
			}
		})
	}
}
