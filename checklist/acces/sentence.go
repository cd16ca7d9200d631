package acces

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/templates"
)

// sentenceWords is the course's sentence as words, built on first use:
// folding needs a table that commands which never validate must not build.
var sentenceWords = sync.OnceValue(func() []string {
	return words(checklist.Fold(strings.TrimSuffix(templates.Sentence, ".")))
})

func (d *document) checkSentence(r *Result) {
	found := false
	firstAltered, firstAlteredStarts := 0, 0
	d.blocks(func(b blockResult) bool {
		altered := false
		switch {
		case b.exact && !b.hostAfter && b.addedLine == 0:
			found = true
		case b.exact && (b.hostAfter || b.addedLine > 0), b.startsLike, b.mentionsNode:
			altered = true
		}
		if altered && firstAltered == 0 {
			firstAltered = b.offending()
		}
		if altered && b.startsLike && firstAlteredStarts == 0 {
			firstAlteredStarts = b.offending()
		}
		return true
	})
	// Prose about the login node beside the exact sentence is fine; a
	// second, altered copy of the sentence is not.
	if at := firstAltered; !found && at > 0 || found && firstAlteredStarts > 0 {
		if found {
			at = firstAlteredStarts
		}
		r.add("altered-sentence", checklist.SevError, at, "la phrase diffère de celle du cours : recopiez exactement « Connexion uniquement vers le nœud de login indiqué par les organisateurs. », sans nom de serveur")
		return
	}
	if !found {
		r.add("missing-sentence", checklist.SevError, 0, "la phrase manque : recopiez « Connexion uniquement vers le nœud de login indiqué par les organisateurs. »")
	}
}

// blockResult is what the sentence rule needs of a block: a paragraph, a
// list item with its wrapped lines, a table cell.
type blockResult struct {
	first int
	// exact: the sentence as whole words, starting a line or following a
	// sentence end or a colon, and ending a line or the block or followed
	// by a full stop; hostAfter: a host name written after it.
	exact, hostAfter bool
	// addedLine: the paragraph goes on after the sentence on a next line
	// that continues it (starts with a small letter): "…organisateurs\n
	// et aussi vers romeo2." is one sentence with words added.
	addedLine int
	// startsLike: a line or a sentence of the block opens with "connexion",
	// as a copy of the sentence would.
	startsLike bool
	// mentionsNode: the block speaks of the "noeud de login".
	mentionsNode bool
	// The lines of the offending text: where a copy of the sentence first
	// departs from it (a word changed, added or dropped), where a host
	// name follows it, where the login node is named; last is the block's
	// last line, where a copy cut short ends.
	departLine, hostLine, nodeLine, startLine, last int
}

// offending is the line a problem with this block points at: the
// offending words, not the first line of the paragraph.
func (b blockResult) offending() int {
	for _, l := range []int{b.hostLine, b.addedLine, b.departLine, b.startLine, b.nodeLine, b.first} {
		if l > 0 {
			return l
		}
	}
	return b.first
}

// blockScan reads a block word by word, keeping only the last few words:
// memory does not grow with the block, and each word is looked at a
// bounded number of times, so one paragraph of a million words is read
// in linear time.
type blockScan struct {
	res     blockResult
	n       int      // words seen
	hist    []string // the last len(sentenceWords())+1 words, oldest first
	histAt  []bool   // edge flags of hist: a line starts or ends before the word
	pending bool     // the sentence just ended at the last word; the next decides
	done    bool     // the first exact match is decided; now only hosts are looked for
	host    [2]string
	tail    [16]byte // the end of the folded text so far, for "noeud de login" across lines
	ntail   int
	line    int  // the line being read
	cont    bool // the line being read continues a sentence: its first letter is small
	// nextSeen: the first word after the sentence has been looked at.
	nextSeen bool
	// align counts the words of the sentence matched since a
	// "connexion" that opens a copy; 0 when none is being followed.
	align int
}

// reset makes s ready for a new block, keeping its buffers: one scan
// serves every block of a file.
func (s *blockScan) reset(first int) *blockScan {
	hist, histAt := s.hist[:0], s.histAt[:0]
	if n := len(sentenceWords()) + 2; cap(hist) < n {
		// add appends one word past the window before it slides.
		hist, histAt = make([]string, 0, n), make([]bool, 0, n)
	}
	*s = blockScan{res: blockResult{first: first}, hist: hist, histAt: histAt}
	return s
}

func isStop(w string) bool { return w == "." || w == "!" || w == "?" || w == ":" }

func (s *blockScan) addLine(folded string, no int, cont bool) {
	s.line, s.res.last, s.cont = no, no, cont
	if strings.Contains(folded, "noeud de login") || strings.Contains(folded, "noeud login") {
		s.mentionNode()
	}
	if s.ntail > 0 {
		// Across the line break: the end of the text so far, a space,
		// the start of this line, in a buffer on the stack.
		var buf [2*len(s.tail) + 1]byte
		j := copy(buf[:], s.tail[:s.ntail])
		buf[j] = ' '
		j++
		j += copy(buf[j:], folded)
		if seam := string(buf[:j]); strings.Contains(seam, "noeud de login") || strings.Contains(seam, "noeud login") {
			s.mentionNode()
		}
	}
	if len(folded) >= len(s.tail) {
		s.ntail = copy(s.tail[:], folded[len(folded)-len(s.tail):])
	} else {
		// Keep the end of the old tail, then this short line.
		keep := min(s.ntail, len(s.tail)-len(folded)-1)
		var t [len(s.tail)]byte
		j := copy(t[:], s.tail[s.ntail-keep:s.ntail])
		if keep > 0 {
			t[j] = ' '
			j++
		}
		j += copy(t[j:], folded)
		s.tail, s.ntail = t, j
	}
	// A line boundary sits before the first word of each line; the
	// place after a line's last word is one too, and it is the same
	// place as the next line's first word.
	first := true
	eachWord(folded, func(w string) bool {
		s.add(w, first)
		first = false
		return true
	})
}

func (s *blockScan) mentionNode() {
	s.res.mentionsNode = true
	if s.res.nodeLine == 0 {
		s.res.nodeLine = s.line
	}
}

// follow compares a copy of the sentence word by word from its
// "connexion": the first word that differs is where it departs.
func (s *blockScan) follow(w string) {
	want := sentenceWords()
	switch {
	case s.align == 0:
	case s.align >= len(want):
		// The whole sentence. A word straight after it, with no full
		// stop between, is a word added: the line it is on is the one
		// to point at, if the block turns out altered.
		if !isStop(w) && w != "!" && s.res.departLine == 0 {
			s.res.departLine = s.line
		}
		s.align = 0
	case w == want[s.align]:
		s.align++
	default:
		if s.res.departLine == 0 {
			s.res.departLine = s.line
		}
		s.align = 0
	}
}

func (s *blockScan) add(w string, edge bool) {
	var prev string
	if len(s.hist) > 0 {
		prev = s.hist[len(s.hist)-1]
	}
	s.follow(w)
	if w == "connexion" && (s.n == 0 || edge || isStop(prev)) {
		s.res.startsLike = true
		if s.res.startLine == 0 {
			s.res.startLine = s.line
		}
		if s.align == 0 {
			s.align = 1
		}
	}
	if s.done {
		if !s.nextSeen {
			// Only the first word after the sentence can continue it.
			s.nextSeen = true
			if edge && s.cont {
				s.res.addedLine = s.line
			}
		}
		s.hostWord(w)
		s.n++
		return
	}
	if s.pending {
		s.pending = false
		switch {
		case w == "." || w == "!":
			s.done = true // hosts are looked for after the full stop
			s.n++
			return
		case edge:
			s.done, s.nextSeen = true, true
			if s.cont {
				s.res.addedLine = s.line
			}
			s.hostWord(w)
			s.n++
			return
		}
	}
	s.hist = append(s.hist, w)
	s.histAt = append(s.histAt, edge)
	want := sentenceWords()
	if max := len(want) + 1; len(s.hist) > max {
		copy(s.hist, s.hist[1:])
		copy(s.histAt, s.histAt[1:])
		s.hist, s.histAt = s.hist[:max], s.histAt[:max]
	}
	s.n++
	n := len(want)
	if len(s.hist) < n {
		return
	}
	tail := s.hist[len(s.hist)-n:]
	for j := range n {
		if tail[j] != want[j] {
			return
		}
	}
	start := s.n - n
	startEdge := s.histAt[len(s.hist)-n]
	if start > 0 && !startEdge && !isStop(s.hist[len(s.hist)-n-1]) {
		return
	}
	s.pending = true
}

// hostWord looks for "x @ y" or "x . y" (y not a file extension) among
// the words after the sentence: "romeo.univ-reims.fr", "kim@login".
func (s *blockScan) hostWord(w string) {
	a, b := s.host[0], s.host[1]
	if a != "" && isWordish(a) && isWordish(w) && (b == "@" || b == "." && !isFileExtension(w)) {
		s.res.hostAfter = true
		if s.res.hostLine == 0 {
			s.res.hostLine = s.line
		}
	}
	s.host[0], s.host[1] = b, w
}

// end closes the block: a sentence that ends it is exact.
func (s *blockScan) end() blockResult {
	if s.align > 0 && s.align < len(sentenceWords()) && s.res.departLine == 0 {
		s.res.departLine = s.res.last // cut short: the words missing at its end
	}
	if s.pending {
		s.res.exact = true
	}
	if s.done {
		s.res.exact = true
	}
	return s.res
}

// blocks groups lines into the units a sentence lives in and gives
// yield what each holds: a paragraph, a list item with its wrapped
// lines, a table cell. A sentence written on a line of its own needs no
// full stop before it. It stops when yield returns false.
func (d *document) blocks(yield func(blockResult) bool) {
	// Two scans (paragraphs, table cells) with their word buffers, kept
	// from file to file: a run over many files makes none.
	sc := scanPool.Get().(*[2]blockScan)
	defer scanPool.Put(sc)
	scan, cell := &sc[0], &sc[1]
	var cur *blockScan
	flush := func() bool {
		if cur == nil {
			return true
		}
		b := cur.end()
		cur = nil
		return yield(b)
	}
	for i := 0; i+1 < len(d.starts); i++ {
		l := d.form(i)
		switch {
		case l.blank:
			if !flush() {
				return
			}
		case l.row != "":
			if !flush() {
				return
			}
			stop := false
			eachCell(l.row, func(c string) bool {
				b := cell.reset(l.no)
				f := checklist.Fold(c)
				b.addLine(f, l.no, false)
				stop = !yield(b.end())
				return !stop
			})
			if stop {
				return
			}
		case l.starts || cur == nil:
			if !flush() {
				return
			}
			cur = scan.reset(l.no)
			cur.addLine(l.folded, l.no, false)
			if l.heading && !flush() {
				return
			}
		default:
			cur.addLine(l.folded, l.no, continues(l.raw))
		}
	}
	flush()
}

var scanPool = sync.Pool{New: func() any { return new([2]blockScan) }}

// isFileExtension: words that end what looks like a host name but is a file.
func isFileExtension(w string) bool {
	switch w {
	case "pub", "md", "txt", "yaml", "yml", "sbatch", "out", "sh", "json":
		return true
	}
	return false
}

func isWordish(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return isWordRune(r)
}

// continues reports whether a wrapped line goes on with the sentence above
// rather than opening a new one: its first letter is a small one.
func continues(raw string) bool {
	for _, r := range raw {
		if unicode.IsLetter(r) {
			return unicode.IsLower(r)
		}
	}
	return false
}
