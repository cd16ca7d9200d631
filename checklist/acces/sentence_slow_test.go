package acces

// The sentence rule and the line forms as they were before the speed
// work (issue #11): the oracle the differential tests and fuzz targets
// compare the fast code with. Only names changed.

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/templates"
)

var slowSentenceWords = sync.OnceValue(func() []string {
	var out []string
	slowEachWord(slowFold(strings.TrimSuffix(templates.Sentence, ".")), func(w string) bool { out = append(out, w); return true })
	return out
})

var slowScanPool = sync.Pool{New: func() any { return new([2]slowBlockScan) }}

func (d *document) slowForm(i int) line {
	l := d.rawLine(i)
	if !l.leak {
		text, heading, starts, row := slowStripDecoration(l.raw)
		l.heading, l.starts, l.row = heading, starts, row
		l.folded = slowFold(text)
		// Fold leaves no space at either end: a line has words
		// (or punctuation) exactly when its folded form is not empty.
		l.blank = l.folded == ""
	}
	return l
}

func slowStripDecoration(raw string) (text string, heading, starts bool, row string) {
	s := strings.TrimSpace(raw)
	for strings.HasPrefix(s, ">") {
		s = strings.TrimSpace(s[1:])
	}
	if strings.HasPrefix(s, "|") {
		row = strings.Trim(s, "|")
		var b strings.Builder
		n := 0
		slowEachCell(row, func(c string) bool {
			if n == 1 {
				b.Grow(len(row))
			}
			if n > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(c)
			if n == 0 {
				text = c // one cell: no copy, as strings.Join
			}
			n++
			return true
		})
		switch n {
		case 0:
			return "", false, true, ""
		case 1:
			return text, false, true, row
		}
		return b.String(), false, true, row
	}
	if h := strings.TrimLeft(s, "#"); len(h) < len(s) && (h == "" || h[0] == ' ') {
		return slowCleanInline(strings.TrimSpace(h)), true, true, ""
	}
	if rest, ok := slowListMarker(s); ok {
		s, starts = rest, true
	}
	return slowCleanInline(s), false, starts, ""
}

func slowEachCell(row string, yield func(string) bool) {
	for {
		i := strings.IndexByte(row, '|')
		p := row
		if i >= 0 {
			p = row[:i]
		}
		p = slowCleanInline(strings.TrimSpace(p))
		if strings.Trim(p, "-: ") != "" && !yield(p) {
			return
		}
		if i < 0 {
			return
		}
		row = row[i+1:]
	}
}

func slowListMarker(s string) (string, bool) {
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' {
		return strings.TrimSpace(s[2:]), true
	}
	i := 0
	for i < len(s) && i < 4 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
		return strings.TrimSpace(s[i+2:]), true
	}
	return s, false
}

func slowCleanInline(s string) string {
	if !hasInlineMark(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	prev := rune(-1) // the rune before r in s, -1 at the start
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		drop := false
		switch r {
		case '*', '`', '"', '«', '»', '“', '”':
			drop = true
		case '_':
			next, _ := utf8.DecodeRuneInString(s[i+n:])
			inWord := prev >= 0 && i+n < len(s) && isWordRune(prev) && isWordRune(next)
			drop = !inWord
		}
		if !drop {
			b = utf8.AppendRune(b, r)
		}
		prev = r
		i += n
	}
	return string(b)
}

func slowEachWord(folded string, yield func(string) bool) {
	start := -1
	for i, r := range folded {
		if isWordRune(r) || r == '\'' || r == '-' && start >= 0 {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if !yield(folded[start:i]) {
				return
			}
			start = -1
		}
		if !unicode.IsSpace(r) {
			if !yield(folded[i : i+utf8.RuneLen(r)]) {
				return
			}
		}
	}
	if start >= 0 {
		yield(folded[start:])
	}
}

func (d *document) slowCheckSentence(r *Result) {
	found := false
	firstAltered, firstAlteredStarts := 0, 0
	d.slowBlocks(func(b blockResult) bool {
		altered := false
		switch {
		case b.exact && !b.hostAfter && b.addedLine == 0:
			found = true
		case b.exact && (b.hostAfter || b.addedLine > 0), b.startsLike, b.mentionsNode:
			altered = true
		}
		if altered && firstAltered == 0 {
			firstAltered = slowOffending(b)
		}
		if altered && b.startsLike && firstAlteredStarts == 0 {
			firstAlteredStarts = slowOffending(b)
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

func slowOffending(b blockResult) int {
	for _, l := range []int{b.hostLine, b.addedLine, b.departLine, b.startLine, b.nodeLine, b.first} {
		if l > 0 {
			return l
		}
	}
	return b.first
}

type slowBlockScan struct {
	res     blockResult
	n       int      // words seen
	hist    []string // the last len(slowSentenceWords())+1 words, oldest first
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

func (s *slowBlockScan) reset(first int) *slowBlockScan {
	hist, histAt := s.hist[:0], s.histAt[:0]
	if n := len(slowSentenceWords()) + 2; cap(hist) < n {
		// add appends one word past the window before it slides.
		hist, histAt = make([]string, 0, n), make([]bool, 0, n)
	}
	*s = slowBlockScan{res: blockResult{first: first}, hist: hist, histAt: histAt}
	return s
}

func (s *slowBlockScan) addLine(folded string, no int, cont bool) {
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
	slowEachWord(folded, func(w string) bool {
		s.add(w, first)
		first = false
		return true
	})
}

func (s *slowBlockScan) mentionNode() {
	s.res.mentionsNode = true
	if s.res.nodeLine == 0 {
		s.res.nodeLine = s.line
	}
}

func (s *slowBlockScan) follow(w string) {
	want := slowSentenceWords()
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

func (s *slowBlockScan) add(w string, edge bool) {
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
	want := slowSentenceWords()
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

func (s *slowBlockScan) hostWord(w string) {
	a, b := s.host[0], s.host[1]
	if a != "" && isWordish(a) && isWordish(w) && (b == "@" || b == "." && !isFileExtension(w)) {
		s.res.hostAfter = true
		if s.res.hostLine == 0 {
			s.res.hostLine = s.line
		}
	}
	s.host[0], s.host[1] = b, w
}

func (s *slowBlockScan) end() blockResult {
	if s.align > 0 && s.align < len(slowSentenceWords()) && s.res.departLine == 0 {
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

func (d *document) slowBlocks(yield func(blockResult) bool) {
	// Two scans (paragraphs, table cells) with their word buffers, kept
	// from file to file: a run over many files makes none.
	sc := slowScanPool.Get().(*[2]slowBlockScan)
	defer slowScanPool.Put(sc)
	scan, cell := &sc[0], &sc[1]
	var cur *slowBlockScan
	flush := func() bool {
		if cur == nil {
			return true
		}
		b := cur.end()
		cur = nil
		return yield(b)
	}
	for i := 0; i+1 < len(d.starts); i++ {
		l := d.slowForm(i)
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
			slowEachCell(l.row, func(c string) bool {
				b := cell.reset(l.no)
				f := slowFold(c)
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

// slowFold is the fold the old code called. The old Fold itself is
// internal/textfold's oracle (slow_test.go), where TestFoldMatchesSlow
// and FuzzFoldMatchesSlow hold textfold.Fold to it byte for byte; it is
// not copied here a second time.
func slowFold(s string) string { return checklist.Fold(s) }

// slowAppendCleanInline is appendCleanInline as it was: a rune walk.
func slowAppendCleanInline(b []byte, s string) []byte {
	if !hasInlineMark(s) {
		return append(b, s...)
	}
	prev := rune(-1) // the rune before r in s, -1 at the start
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		drop := false
		switch r {
		case '*', '`', '"', '«', '»', '“', '”':
			drop = true
		case '_':
			next, _ := utf8.DecodeRuneInString(s[i+n:])
			inWord := prev >= 0 && i+n < len(s) && isWordRune(prev) && isWordRune(next)
			drop = !inWord
		}
		if !drop {
			b = utf8.AppendRune(b, r)
		}
		prev = r
		i += n
	}
	return b
}
