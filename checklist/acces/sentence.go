package acces

import (
	"bytes"
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

// sentenceModel is the sentence as blockScan compares it: its words and
// their KMP failure links, so a block is matched one word at a time
// without keeping the words before (a word is only looked at against
// the sentence's, never against a copy of the block's last words).
type sentenceModel struct {
	want []string
	// fail[j] is the longest proper border of want[:j] (KMP).
	fail []int
}

var sentence = sync.OnceValue(func() *sentenceModel {
	want := sentenceWords()
	if len(want) == 0 || len(want) > 64 {
		// blockScan keeps one bit per word of the last 64.
		panic("acces: the course's sentence must have 1 to 64 words")
	}
	fail := make([]int, len(want)+1)
	for j, k := 1, 0; j < len(want); j++ {
		for k > 0 && want[j] != want[k] {
			k = fail[k]
		}
		if want[j] == want[k] {
			k++
		}
		fail[j+1] = k
	}
	return &sentenceModel{want: want, fail: fail}
})

// mayOpen reports whether a word of folded may be "connexion" (which
// opens a copy the scan follows) or the sentence's first word (which
// opens a match): a necessary condition, a substring search.
func (m *sentenceModel) mayOpen(folded string) bool {
	return hasConnexion(folded) || m.want[0] != "connexion" && strings.Contains(folded, m.want[0])
}

// hasConnexion is strings.Contains(folded, "connexion") by its one 'x',
// a rare letter found with IndexByte.
func hasConnexion(folded string) bool {
	for i := 0; ; {
		j := strings.IndexByte(folded[i:], 'x')
		if j < 0 {
			return false
		}
		if p := i + j; p >= 5 && p+4 <= len(folded) && folded[p-5:p+4] == "connexion" {
			return true
		}
		i += j + 1
	}
}

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

// blockScan reads a block word by word, keeping no word: memory does not
// grow with the block, and each word is compared with a bounded number of
// the sentence's (KMP), so one paragraph of a million words is read in
// linear time. It holds no string of a line it has read, so the lines
// it reads may live in a buffer that is reused.
type blockScan struct {
	res     blockResult
	model   *sentenceModel
	n       int  // words seen
	k       int  // words of the sentence the last words added match (KMP)
	pending bool // the sentence just ended at the last word; the next decides
	done    bool // the first exact match is decided; now only hosts are looked for
	// okAt holds, for each of the last 64 words added (bit p%64), whether
	// a copy starting at word p starts where a sentence may: the block's
	// first word, a line's first word, or after a sentence end.
	okAt uint64
	// prevStop: the last word added is a sentence end (isStop).
	prevStop bool
	// The two words before the one hostWord looks at, as it needs them:
	// wordish (a word, not a mark), and '@', '.' or 0 for the second.
	hostA, hostBWordish bool
	hostB               byte
	tail                [16]byte // the end of the folded text so far, for "noeud de login" across lines
	ntail               int
	line                int  // the line being read
	cont                bool // the line being read continues a sentence: its first letter is small
	// nextSeen: the first word after the sentence has been looked at.
	nextSeen bool
	// align counts the words of the sentence matched since a
	// "connexion" that opens a copy; 0 when none is being followed.
	align int
}

// reset makes s ready for a new block.
func (s *blockScan) reset(first int, model *sentenceModel) *blockScan {
	*s = blockScan{res: blockResult{first: first}, model: model}
	return s
}

func isStop(w string) bool { return w == "." || w == "!" || w == "?" || w == ":" }

func (s *blockScan) addLine(folded string, no int, cont bool) {
	s.line, s.res.last, s.cont = no, no, cont
	// Both spellings hold "noeud": one search for most lines.
	if strings.Contains(folded, "noeud") && (strings.Contains(folded, "noeud de login") || strings.Contains(folded, "noeud login")) {
		s.mentionNode()
	}
	if s.ntail > 0 && (bytes.HasSuffix(s.tail[:s.ntail], []byte("noeud")) || bytes.HasSuffix(s.tail[:s.ntail], []byte("noeud de"))) {
		// Across the line break: the end of the text so far, a space,
		// the start of this line, in a buffer on the stack. A mention
		// that crosses the break ends its part before it with "noeud"
		// or "noeud de" (the lines hold no space at either end); one
		// that does not cross it was found on its own line or at an
		// earlier break of this block, and finding it again would
		// change nothing.
		var buf [2*len(s.tail) + 1]byte
		j := copy(buf[:], s.tail[:s.ntail])
		buf[j] = ' '
		j++
		j += copy(buf[j:], folded)
		if seam := buf[:j]; bytes.Contains(seam, []byte("noeud de login")) || bytes.Contains(seam, []byte("noeud login")) {
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
	if s.k == 0 && s.align == 0 && !s.pending && !s.done && !s.model.mayOpen(folded) {
		// Nothing is being matched or followed, and no word of this
		// line can open a copy: its words would change nothing the
		// block's result or a later line reads. A later copy starts at
		// a line's first word (an edge: the words before do not count)
		// or after words of its own line; only "some word was seen"
		// is kept (s.n > 0). TestSentenceMatchesSlow holds it to the
		// word-by-word reading.
		if folded != "" {
			s.n++
		}
		return
	}
	// A line boundary sits before the first word of each line; the
	// place after a line's last word is one too, and it is the same
	// place as the next line's first word.
	first := true
	for i := 0; ; {
		w, next := nextWord(folded, i)
		if w == "" {
			break
		}
		s.add(w, first)
		first, i = false, next
	}
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
	want := s.model.want
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
	s.follow(w)
	if w == "connexion" && (s.n == 0 || edge || s.prevStop) {
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
	// Until done, every word is added: word p of the block is the n-th.
	p := s.n
	if bit := uint64(1) << (p % 64); p == 0 || edge || s.prevStop {
		s.okAt |= bit
	} else {
		s.okAt &^= bit
	}
	s.prevStop = isStop(w)
	s.n++
	want, fail := s.model.want, s.model.fail
	if s.k == len(want) {
		s.k = fail[s.k]
	}
	for s.k > 0 && want[s.k] != w {
		s.k = fail[s.k]
	}
	if want[s.k] == w {
		s.k++
	}
	if s.k < len(want) {
		return
	}
	// The whole sentence ends at word p: it counts if it starts where
	// a sentence may.
	if start := p + 1 - len(want); s.okAt&(uint64(1)<<(start%64)) == 0 {
		return
	}
	s.pending = true
}

// hostWord looks for "x @ y" or "x . y" (y not a file extension) among
// the words after the sentence: "romeo.univ-reims.fr", "kim@login".
func (s *blockScan) hostWord(w string) {
	wordish := isWordish(w)
	if s.hostA && wordish && (s.hostB == '@' || s.hostB == '.' && !isFileExtension(w)) {
		s.res.hostAfter = true
		if s.res.hostLine == 0 {
			s.res.hostLine = s.line
		}
	}
	s.hostA, s.hostBWordish, s.hostB = s.hostBWordish, wordish, 0
	if w == "@" || w == "." {
		s.hostB = w[0]
	}
}

// end closes the block: a sentence that ends it is exact.
func (s *blockScan) end() blockResult {
	if s.align > 0 && s.align < len(s.model.want) && s.res.departLine == 0 {
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
	// Two scans (paragraphs, table cells), on the stack: they hold no
	// buffer.
	var scan, cell blockScan
	model := sentence()
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
				b := cell.reset(l.no, model)
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
			cur = scan.reset(l.no, model)
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
