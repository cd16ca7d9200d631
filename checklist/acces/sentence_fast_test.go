package acces

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// sentenceVariant is the course's sentence, or a near copy of it, as a
// learner may write it: words changed, dropped or added, spelled with
// capitals, œ or decomposed accents, wrapped over lines, quoted, in a
// list, a quote, a heading or a table, followed by a host name.
func sentenceVariant(r *rand.Rand) string {
	ws := strings.Fields("Connexion uniquement vers le nœud de login indiqué par les organisateurs")
	other := []string{"romeo", "et", "noeud", "NŒUD", "Noeud", "login", "connexion", "Connexion", "de", "aussi", "-", "'", "x", ":", "."}
	switch r.IntN(6) {
	case 0: // a word changed
		ws[r.IntN(len(ws))] = other[r.IntN(len(other))]
	case 1: // a word dropped
		i := r.IntN(len(ws))
		ws = append(ws[:i], ws[i+1:]...)
	case 2: // a word added
		i := r.IntN(len(ws) + 1)
		ws = append(ws[:i], append([]string{other[r.IntN(len(other))]}, ws[i:]...)...)
	}
	for i := range ws {
		switch r.IntN(12) {
		case 0:
			ws[i] = strings.ToUpper(ws[i])
		case 1:
			ws[i] = norm.NFD.String(ws[i])
		case 2:
			ws[i] = strings.ReplaceAll(ws[i], "œ", "oe")
		case 3:
			ws[i] = "*" + ws[i] + "*"
		case 4:
			ws[i] = "`" + ws[i] + "`"
		}
	}
	// Wrapped: a line break (LF or CRLF) between some words, sometimes
	// with a small letter after it, sometimes a capital.
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			switch r.IntN(10) {
			case 0:
				b.WriteString("\n")
			case 1:
				b.WriteString("\r\n")
			case 2:
				b.WriteString("\u00a0")
			default:
				b.WriteString(" ")
			}
		}
		b.WriteString(w)
	}
	s := b.String()
	ends := []string{".", "", " .", "!", " :", ". romeo.univ-reims.fr", " romeo.univ-reims.fr.", " kim@login", " (voir acces.md).", ".\nromeo2.univ-reims.fr", ".\net aussi romeo2.", "\net vers romeo2.", ". Connexion ensuite.", "?"}
	s += ends[r.IntN(len(ends))]
	dress := []string{"", "", "- ", "* ", "1. ", "> ", ">> ", "# ", "## ", "« ", "\"", "| ", "| a | ", "Phrase : ", "Règle. ", "puis ", "texte\n", "\n"}
	s = dress[r.IntN(len(dress))] + s
	tails := []string{"", "", " »", "\"", " |", " | b |", "\n", "\nsuite de la ligne", "\n\n", "\n- item"}
	return s + tails[r.IntN(len(tails))]
}

// sentenceDoc mixes variants of the sentence with the lines the other
// rules read (lineTokens), blank lines, tables and prose about the node.
func sentenceDoc(r *rand.Rand) string {
	prose := []string{"Le nœud de login est donné par les organisateurs.", "noeud\nde login", "le noeud login", "noeud\nde\nlogin", "le NŒUD DE\nlogin indiqué", "vers le noeud\nlogin", "| Élément | Valeur |", "|---|---|", "| Demande | 5 octobre 2026 |",
		"Date de la demande : 2026-10-20", "# Accès — séance", "Formation : HPC", "", "", "   ", "\t", "Connexion", "connexion uniquement", "- Clé : ~/.ssh/id_ed25519_romeo.pub"}
	var b strings.Builder
	for range r.IntN(8) {
		switch r.IntN(4) {
		case 0:
			b.WriteString(sentenceVariant(r))
		case 1:
			b.WriteString(lineTokens[r.IntN(len(lineTokens))])
		default:
			b.WriteString(prose[r.IntN(len(prose))])
		}
		if r.IntN(4) > 0 {
			b.WriteString([]string{"\n", "\r\n", "\n\n"}[r.IntN(3)])
		}
	}
	return b.String()
}

// checkSentenceMatchesSlow: the lines' forms (cached or read again), the
// words of each line, the blocks and the problems of the sentence rule
// are those of the code they replaced (sentence_slow_test.go).
func checkSentenceMatchesSlow(t *testing.T, text string, hideFrom, hideTo int) {
	t.Helper()
	d := readLines(text)
	d.hideFrom, d.hideTo = hideFrom, hideTo
	n := len(d.starts) - 1
	for i := range n {
		want := d.slowForm(i)
		if got := d.readForm(i); got != want {
			t.Fatalf("%q line %d: readForm\n got %+v\nwant %+v", text, i+1, got, want)
		}
		if got := d.form(i); got != want {
			t.Fatalf("%q line %d: form\n got %+v\nwant %+v", text, i+1, got, want)
		}
		var got, old []string
		eachWord(want.folded, func(w string) bool { got = append(got, w); return true })
		slowEachWord(want.folded, func(w string) bool { old = append(old, w); return true })
		if !reflect.DeepEqual(got, old) {
			t.Fatalf("%q line %d: words %q, were %q", text, i+1, got, old)
		}
	}
	i := 0
	for l := range d.all() {
		if want := d.slowForm(i); l != want {
			t.Fatalf("%q: all, line %d\n got %+v\nwant %+v", text, i+1, l, want)
		}
		i++
	}
	if i != n {
		t.Fatalf("%q: all gave %d lines of %d", text, i, n)
	}
	var got, want []blockResult
	d.blocks(func(b blockResult) bool { got = append(got, b); return true })
	d.slowBlocks(func(b blockResult) bool { want = append(want, b); return true })
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: blocks\n got %+v\nwant %+v", text, got, want)
	}
	// The first block only, as a caller that stops early.
	got, want = nil, nil
	d.blocks(func(b blockResult) bool { got = append(got, b); return false })
	d.slowBlocks(func(b blockResult) bool { want = append(want, b); return false })
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: first block\n got %+v\nwant %+v", text, got, want)
	}
	rg, rw := &Result{}, &Result{}
	d.checkSentence(rg)
	d.slowCheckSentence(rw)
	if !reflect.DeepEqual(rg.Problems, rw.Problems) {
		t.Fatalf("%q: problems\n got %+v\nwant %+v", text, rg.Problems, rw.Problems)
	}
}

// TestSentenceMatchesSlow: generated pages (variants of the sentence among
// the other rules' lines), with and without a hidden signature range,
// and pages past the size whose forms are kept (read line by line).
func TestSentenceMatchesSlow(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for i := range 60_000 {
		text := sentenceDoc(r)
		from, to := 0, 0
		if i%5 == 0 {
			from = r.IntN(6)
			to = from + r.IntN(4)
		}
		checkSentenceMatchesSlow(t, text, from, to)
	}
	for _, s := range []string{"Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n", "- a\n", "| a | b |\n", "\n"} {
		big := strings.Repeat(s, maxFormLines/strings.Count(s, "\n")+1)
		checkSentenceMatchesSlow(t, big, 0, 0)
		for len(big) <= maxFormBytes {
			big += big
		}
		checkSentenceMatchesSlow(t, strings.ReplaceAll(big, "\n", " "), 0, 0)
	}
	// Text that is not UTF-8 (Validate refuses it, the forms read it
	// all the same): bad bytes beside marks and words.
	for i := range 5_000 {
		text := sentenceDoc(r)
		at := r.IntN(len(text) + 1)
		text = text[:at] + []string{"\xff", "\xc2_a", "_\xe2\x80", "*\xc3", "« \xf0 »"}[i%5] + text[at:]
		checkSentenceMatchesSlow(t, text, 0, 0)
	}
	for _, page := range benchPagesForTest() {
		checkSentenceMatchesSlow(t, page, 0, 0)
	}
}

func benchPagesForTest() []string {
	var out []string
	for i := range 40 {
		out = append(out, string(sampleAccess(i)))
	}
	return out
}

// TestFormsCachedAfterSignature: a hidden range set after the forms were
// kept reads them again (dropSignature runs twice).
func TestFormsCachedAfterSignature(t *testing.T) {
	d := readLines("a\nb\nc\n")
	if d.form(1).folded != "b" {
		t.Fatal(d.form(1))
	}
	d.hideFrom, d.hideTo = 1, 2
	if l := d.form(1); !l.blank || l.folded != "" {
		t.Fatalf("hidden line read as %+v", l)
	}
}

// TestSentenceFitsTheScan: the scan keeps one bit per word of the last
// 64; the sentence must fit.
func TestSentenceFitsTheScan(t *testing.T) {
	if n := len(sentence().want); n == 0 || n > 64 {
		t.Fatalf("the sentence has %d words", n)
	}
}

func FuzzSentenceMatchesSlow(f *testing.F) {
	r := rand.New(rand.NewPCG(33, 34))
	for range 20 {
		f.Add(sentenceDoc(r), uint8(0), uint8(0))
	}
	f.Add("Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n", uint8(1), uint8(2))
	f.Fuzz(func(t *testing.T, text string, from, n uint8) {
		if !utf8.ValidString(text) || strings.IndexByte(text, 0) >= 0 || len(text) > 4096 {
			return // Validate refuses these before any rule reads them
		}
		checkSentenceMatchesSlow(t, text, int(from%8), int(from%8)+int(n%4))
	})
}

var _ = fmt.Sprint

// TestCleanMarksMatchesRuneWalk: copying the text between marks removes
// what the rune walk removed, for any bytes.
func TestCleanMarksMatchesRuneWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 36))
	for i := range 300_000 {
		s := inlineSample(r)
		if got, want := string(appendCleanInline([]byte("x"), s)), string(slowAppendCleanInline([]byte("x"), s)); got != want {
			t.Fatalf("case %d: appendCleanInline(%q) = %q, was %q", i, s, got, want)
		}
	}
}

func FuzzCleanMarksMatchesRuneWalk(f *testing.F) {
	f.Add("~/.ssh/id_ed25519_romeo.pub et _emphase_ « nœud » “x” \xe2\x80_é_")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendCleanInline(nil, s)), string(slowAppendCleanInline(nil, s)); got != want {
			t.Fatalf("appendCleanInline(%q) = %q, was %q", s, got, want)
		}
	})
}

// TestHasInlineMarkEveryPlace: each mark (and bytes next to them: ),
// ^, a, !, 0x7f, é) at every place of texts of 0 to 24 bytes, so each
// lands at every place of an eight-byte step and in the tail.
func TestHasInlineMarkEveryPlace(t *testing.T) {
	for _, m := range []string{"*", "_", "`", "\"", "«", "»", "“", "”", ")", "^", "a", "!", "\x7f", "é", "\u2018", "+", "^", "a", "\xc2", "\xe2\x80"} {
		for n := 0; n <= 24; n++ {
			for at := 0; at <= n; at++ {
				s := strings.Repeat("x", at) + m + strings.Repeat("y", n-at)
				if got, want := hasInlineMark(s), strings.ContainsAny(s, "*_`\"«»“”"); got != want {
					t.Fatalf("hasInlineMark(%q) = %v, ContainsAny says %v", s, got, want)
				}
			}
		}
	}
}

// TestHasConnexionIsContains: around every 'x', at every place.
func TestHasConnexionIsContains(t *testing.T) {
	pieces := []string{"connexion", "conne", "xion", "x", "xx", "connexio", "onnexion", " ", "a", "é", "connexionx"}
	r := rand.New(rand.NewPCG(37, 38))
	for range 100_000 {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := hasConnexion(s), strings.Contains(s, "connexion"); got != want {
			t.Fatalf("hasConnexion(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestEachWordMatchesSlow: any valid text, folded or not (tabs, other
// spaces, dashes at a word's edges, apostrophes, marks, runes that are
// letters or not), is cut into the same words.
func TestEachWordMatchesSlow(t *testing.T) {
	pieces := []string{" ", "  ", "\t", "\n", "\u00a0", "\u0085", "\u2028", "a", "Z", "9", "'", "-", "--", ".", ":", "@", "é", "œ", "٣", "ǅ", "·", "—", "«", "connexion", "romeo.univ-reims.fr", "kim@login", "l'organisateur", "\u0301"}
	r := rand.New(rand.NewPCG(39, 40))
	for i := range 300_000 {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		var got, want []string
		eachWord(s, func(w string) bool { got = append(got, w); return true })
		slowEachWord(s, func(w string) bool { want = append(want, w); return true })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: %q: words %q, were %q", i, s, got, want)
		}
	}
}

// TestNextLeadEveryPlace: the first byte of inlineLead, wherever it is
// in an eight-byte step, with others after it.
func TestNextLeadEveryPlace(t *testing.T) {
	marks := []string{"*", "_", "`", "\"", "\xc2", "\xe2", "a", "é", ")", "^", "+"}
	for _, m := range marks {
		for _, m2 := range marks {
			for n := 0; n <= 20; n++ {
				for at := 0; at <= n; at++ {
					s := strings.Repeat("x", at) + m + strings.Repeat("y", n-at) + m2
					want := len(s)
					for k := 0; k < len(s); k++ {
						if inlineLead[s[k]] {
							want = k
							break
						}
					}
					for from := 0; from <= len(s); from++ {
						w := want
						if from > want {
							w = len(s)
							for k := from; k < len(s); k++ {
								if inlineLead[s[k]] {
									w = k
									break
								}
							}
						}
						if got := nextLead(s, from); got != w {
							t.Fatalf("nextLead(%q, %d) = %d, want %d", s, from, got, w)
						}
					}
				}
			}
		}
	}
}
