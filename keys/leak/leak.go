// Package leak finds the lines of a text that are private key material:
// a pasted key is rarely intact, so what proves a key (a BEGIN/END "…
// PRIVATE KEY" line, even cut, a PuTTY or Proc-Type/DEK-Info header, base64
// of "openssh-key-v1" or of a DER private key) marks the block around it.
// Public keys, certificates and signatures are never reported. The work is
// linear: each line is classified once, each look ahead is bounded.
package leak

import (
	"bytes"
	"encoding/base64"
	"html"
	"iter"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/htmlshown"
	"github.com/romeo-pret/pret/internal/mdbounds"
	"github.com/romeo-pret/pret/internal/termtext"
)

// Lines returns the 1-based numbers, ascending, of the lines of key material.
// The text is read as a renderer shows it (HTML comments dropped, so
// "-----BEGIN<!---->" hides nothing) and, when it holds HTML, as sent: a
// key inside comments ("<!-- b3Bl… -->"), an attribute or a hidden
// element is in the file.
// There a block counts from its first to its last line of key text (mark),
// not a comment it would take in ("<!-- pret:signature -->").
//
// Format characters (U+200B, U+2060, U+00AD, U+FEFF…) inside a line are
// read as absent, and runs of hex lines (a dump, "xxd -p") are decoded
// and read as key material when their bytes are (hex.go).
func Lines(text string) []int {
	text = mdbounds.LoneCRs(dropFormat(text)) // no line break is one: line numbers stay
	lines := scanned(text, false)
	if strings.IndexByte(text, '<') >= 0 {
		lines = append(lines, scanned(text, true)...)
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// scanned are the lines of key material of text read as shown or sent.
func scanned(text string, sent bool) []int {
	d := read(text, sent)
	d.scan()
	return append(d.marked, d.hexDumps()...)
}

// Has reports whether text holds any private key material.
func Has(text string) bool { return len(Lines(text)) > 0 }

// Redact empties every line of key material, and every line holding a
// piece of it copied elsewhere (a job name, a label), breaks kept so
// line numbers stay true, and returns their numbers. A text of CRs
// alone comes back with LF (mdbounds.LoneCRs), as its lines are read.
func Redact(text string) (string, []int) {
	text = mdbounds.LoneCRs(text) // its lines, as Lines reads them
	lines := Lines(text)
	if len(lines) == 0 {
		return text, nil
	}
	pieces := PiecesOf(text, lines)
	var b strings.Builder
	var out []int
	no := 0
	for l := range strings.Lines(text) {
		no++
		if _, key := slices.BinarySearch(lines, no); key || pieces.Mask(l) != l {
			out = append(out, no)
			l = l[len(strings.TrimRight(l, "\r\n")):]
		}
		b.WriteString(l)
	}
	return b.String(), out
}

// Pieces of key text: keyWindow base64 characters starting every
// keyStride, so any keyWindow+keyStride-1 characters of the key hold one.
const (
	keyWindow    = 16
	keyStride    = 8
	maxKeyPieces = 8192 // 64 KiB of key text: a private key is under 4 KiB
)

// Pieces are the pieces of the key text of some lines: what a line
// elsewhere (a job name, a label, a message quoting one) must not show.
type Pieces struct{ set map[string]bool }

// PiecesOf reads the base64 words of the lines numbered in lines
// (ascending); words shorter than keyWindow, as in a marker, are no key text.
func PiecesOf(text string, lines []int) Pieces {
	text = mdbounds.LoneCRs(text)
	var key []byte
	no := 0
	for l := range strings.Lines(text) {
		no++
		if _, ok := slices.BinarySearch(lines, no); ok {
			for _, w := range strings.FieldsFunc(dropFormat(l), func(r rune) bool { return r > 0x7f || !isB64(byte(r)) }) {
				if len(w) >= keyWindow {
					key = append(key, w...)
				}
			}
		}
	}
	p := Pieces{map[string]bool{}}
	for i := 0; i+keyWindow <= len(key) && len(p.set) < maxKeyPieces; i += keyStride {
		// Zero bytes ("AAAA") are structure a public key shares (lengths,
		// "ssh-ed25519"), not secret text.
		if w := key[i : i+keyWindow]; !bytes.Contains(w, []byte("AAAA")) {
			p.set[string(w)] = true
		}
	}
	return p
}

// Mask replaces with « … » every base64 run of s holding one of the
// pieces; invisible characters inside a run are read as absent, as the
// detector reads them.
func (p Pieces) Mask(s string) string {
	if len(p.set) == 0 {
		return s
	}
	var out strings.Builder
	var run []byte // the run's base64, invisible characters left out
	last := 0
	for i := 0; i < len(s); i++ {
		j := i
		run = run[:0]
		for j < len(s) {
			if isB64(s[j]) {
				run = append(run, s[j])
				j++
			} else if r, n := utf8.DecodeRuneInString(s[j:]); len(run) > 0 && termtext.Invisible(r) {
				j += n
			} else {
				break
			}
		}
		for k := 0; k+keyWindow <= len(run); k++ {
			if p.set[string(run[k:k+keyWindow])] {
				out.WriteString(s[last:i] + "…")
				last = j
				break
			}
		}
		i = j
	}
	if last == 0 {
		return s
	}
	return out.String() + s[last:]
}

type kind uint8

const (
	other    kind = iota
	blank         // nothing once its decoration is stripped
	b64           // base64, or base64 an editor re-spaced: a body line
	padded        // base64 behind a comment mark or label ("# QyNT…"): a body line inside a block
	header        // "Name: value", as PEM headers (Comment:, Version:) are
	bodyNext      // a key's body follows: Proc-Type: 4,ENCRYPTED, DEK-Info:, openssl -text's Private-Key:
	putty         // a PuTTY header: Encryption:, Comment:, Public-Lines: …
	puttyKey      // PuTTY-User-Key-File-N: or Private-Lines: a PuTTY key
	puttyMAC      // PuTTY's Private-MAC: or Private-Hash:, a key file's last line
	dashes        // dashes only: what an END cut after its dashes leaves
	whole         // BEGIN … PRIVATE KEY … END … PRIVATE KEY: a key on one line
	begin         // BEGIN … PRIVATE KEY, or a BEGIN the next line may end
	end           // END … PRIVATE KEY, or an END the next line may end
)

// keyText: a line of this kind is key text on its own.
func (k kind) keyText() bool {
	return slices.Contains([]kind{b64, padded, bodyNext, putty, puttyKey, puttyMAC, whole, begin, end}, k)
}

// magic is the base64 of "openssh-key-v1\0", how OpenSSH private keys start
// (a sentence naming the format's "b3BlbnNzaC1rZXktdjE" is no key).
const magic = "b3BlbnNzaC1rZXktdjEA"

// Bounds of the looks ahead: blank lines between pieces, base64 read for
// DER (its first elements fit in 48 bytes), the longest kind ("SSH2ENCRYPTED").
const (
	maxGap      = 8
	maxArmoured = 16 << 10 // a key file encoded whole: RSA 16384 bits is under 13 KiB
	// armourWindow: base64 enough for a BEGIN line and the body's start.
	armourWindow = 1 << 10
	maxBlock     = 400 // lines of a key: RSA 16384 bits in base64 lines of 64
	derChars     = 64
	maxKindLen   = 16
)

type doc struct {
	text   string
	sent   bool // comments read as text (shown)
	kinds  []kind
	marked []int
	work   int // bytes of lines read: the tests check it grows as the text does
	// armoured is the last line an encoded key file's window read
	// (armouredOver): no start inside it reads the same lines again.
	armoured int
}

type pos struct{ i, off int }

func (d *doc) next(p pos) pos {
	n := strings.IndexByte(d.text[p.off:], '\n') + 1
	if n == 0 {
		n = len(d.text) - p.off
	}
	d.work += n
	return pos{p.i + 1, p.off + n}
}

// shown is a source line (its format characters dropped by Lines)
// stripped of its break ("\n", "\r\n") and decoration,
// read as a renderer shows it: no HTML comment, entities decoded
// ("-----BEGIN<!---->", "&#65;" hide nothing); when sent, comments keep
// their text, only their marks go.
func shown(s string, sent bool) string {
	if sent {
		if strings.Contains(s, "--") { // both marks hold one; most lines neither
			s = commentMarks.Replace(s)
		}
	} else if strings.Contains(s, "<!--") {
		var b strings.Builder
		for {
			before, rest, ok := strings.Cut(s, "<!--")
			_, after, closed := strings.Cut(rest, "-->")
			for _, end := range []string{">", "->"} { // "<!-->", "<!--->": empty comments
				if strings.HasPrefix(rest, end) {
					after, closed = rest[len(end):], true
				}
			}
			if !ok || !closed {
				break
			}
			b.WriteString(before)
			s = after
		}
		b.WriteString(s)
		s = b.String()
	}
	if !sent && strings.IndexByte(s, '<') >= 0 {
		// As sent, what a tag holds or hides (an attribute, a hidden
		// element, a script) is in the file all the same.
		s = dropTags(s)
	}
	if strings.ContainsAny(s, "*`") { // emphasis and code spans show their text, joined
		s = inlineMarks.Replace(s)
	}
	if strings.IndexByte(s, '&') >= 0 { // "&#8203;" is a format character too
		s = dropFormat(html.UnescapeString(s))
	}
	// A backslash ending a line is a hard break in Markdown, shown as
	// nothing; in a script, it joins the line to the next: a key cut there
	// is whole.
	return strings.TrimSuffix(strip(s), `\`)
}

// dropTags removes from a line what a browser shows nothing of: its tags
// ("<span style=…>", "</b>"), bogus comments ("<![CDATA[…]]>", "<?x?>"),
// and what a script, a style, a template or a hidden element holds when it
// ends on the line. A rich-text editor (Moodle's online text) wraps pieces
// of a pasted line in tags: a key cut by them shows whole. A tag is read
// up to maxTag bytes, and an end tag looked for once, so the work is linear.
func dropTags(s string) string {
	lb := []byte(s) // lower case, ASCII only: the same offsets as s, bad UTF-8 kept
	for k, c := range lb {
		if 'A' <= c && c <= 'Z' {
			lb[k] = c + 'a' - 'A'
		}
	}
	low := string(lb)
	var b strings.Builder
	var noEnd []string // end tags absent from the rest of the line
	gt := -1           // the next '>' seen, found once: no '<' scans past it alone
	for p := 0; ; {
		i := strings.IndexByte(s[p:], '<')
		if gt < p+i {
			if gt = strings.IndexByte(low[p+i:], '>'); gt >= 0 {
				gt += p + i
			}
		}
		if i < 0 || gt < 0 { // no tag ends on the rest of the line
			b.WriteString(s[p:])
			return b.String()
		}
		n, hidden := 0, ""
		if gt-(p+i) < maxTag {
			n, hidden = tagAt(low[p+i:])
		}
		b.WriteString(s[p : p+i])
		if n == 0 {
			b.WriteByte('<') // "a < b", "<!--": no tag
			p += i + 1
			continue
		}
		p += i + n
		if hidden != "" && !slices.Contains(noEnd, hidden) {
			if end := endOf(low, p, hidden); end >= 0 {
				p = end // its content goes; its end tag next
			} else {
				noEnd = append(noEnd, hidden)
			}
		}
	}
}

// endOf is where the element name, open before p, ends in low: the start
// of its end tag, elements of its name inside it counted, or for an <svg>
// of the HTML tag that ends it (htmlshown.EndsForeign); -1 when not on the line.
func endOf(low string, p int, name string) int {
	inHTML := 0 // in an <svg>: its parts that hold HTML open
	for depth := 1; ; p++ {
		i := strings.IndexByte(low[p:], '<')
		if i < 0 {
			return -1
		}
		p += i
		rest, closing := strings.CutPrefix(low[p+1:], "/")
		tag := rest[:len(rest)-len(strings.TrimLeftFunc(rest, isNameRune))]
		foreign := htmlshown.Foreign(name)
		switch {
		case foreign && htmlshown.HoldsHTML(tag) && closing:
			inHTML = max(0, inHTML-1)
		case foreign && htmlshown.HoldsHTML(tag):
			inHTML++
		case foreign && inHTML > 0:
		case foreign && htmlshown.EndsForeign(tag, closing, fontAttrs(low[p:], tag)):
			return p
		case tag == name && !closing:
			depth++
		case tag == name:
			if depth--; depth == 0 {
				return p
			}
		}
	}
}

// fontAttrs are the attributes of the <font> tag low starts with, nil for another tag.
func fontAttrs(low, tag string) iter.Seq2[string, string] {
	if tag != "font" || !strings.HasPrefix(low, "<font") {
		return nil
	}
	if gt := strings.IndexByte(low[:min(len(low), maxTag)], '>'); gt > 0 {
		return tagAttrs(low[:gt+1])
	}
	return nil
}

func isNameByte(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' }

func isNameRune(r rune) bool { return r < utf8.RuneSelf && isNameByte(byte(r)) }

// maxTag bounds a tag: a longer one is read as text.
const maxTag = 512

// tagAt is the length of the tag low (lower case) starts with, 0 if none,
// and its name when it opens an element that hides what it holds.
func tagAt(low string) (n int, hidden string) {
	t := low[:min(len(low), maxTag)]
	if len(t) < 3 || strings.HasPrefix(t, "<!--") {
		return 0, ""
	}
	name, closing := strings.CutPrefix(t[1:], "/")
	if t[1] == '!' || t[1] == '?' || closing && (name[0] < 'a' || name[0] > 'z') {
		return strings.IndexByte(t, '>') + 1, "" // a bogus comment ("<?x?>", "</ x>") ends at the first '>'
	}
	if name[0] < 'a' || name[0] > 'z' {
		return 0, ""
	}
	var quote byte
	for k := 1; k < len(t); k++ {
		switch c := t[k]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case (c == '"' || c == '\'') && t[k-1] == '=': // a quoted value: title="a>b"
			quote = c
		case c == '>':
			tag := t[:k+1]
			name = name[:len(name)-len(strings.TrimLeftFunc(name, isNameRune))] // as endOf reads its end tag
			if t[1] != '/' && hides(name, tag) {
				return k + 1, name
			}
			return k + 1, ""
		}
	}
	return 0, ""
}

// hides reports a start tag (lower case, whole) whose element a browser
// does not show the content of.
func hides(name, tag string) bool {
	if htmlshown.EmptyWhenSelfClosed(name) && strings.HasSuffix(tag, "/>") {
		return false // <svg/> holds nothing
	}
	return htmlshown.Hides(name, tagAttrs(tag))
}

// tagAttrs reads a start tag's attributes as HTML's tokenizer does
// (13.2.5.32-38), character references in values decoded, a name written
// again too. Not with the tokenizer itself: each
// one allocates 4 KiB and a map, 290 bytes per byte of a page of hidden
// tags (TestOnlineTextLinear).
func tagAttrs(tag string) iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		t := strings.TrimSuffix(tag[1:], ">")
		for t = t[upTo(t, tagSpace+"/"):]; t != ""; {
			t = strings.TrimLeft(t, tagSpace+"/")
			if t == "" {
				return
			}
			n := 1 + upTo(t[1:], tagSpace+"/=") // a name may start with '='
			name, val := t[:n], ""
			t = strings.TrimLeft(t[n:], tagSpace)
			if strings.HasPrefix(t, "=") {
				t = strings.TrimLeft(t[1:], tagSpace)
				if q := t[:min(1, len(t))]; q == `"` || q == "'" {
					n := upTo(t[1:], q)
					val, t = t[1:1+n], t[min(len(t), n+2):]
				} else {
					n := upTo(t, tagSpace)
					val, t = t[:n], t[n:]
				}
			}
			if !yield(name, html.UnescapeString(val)) {
				return
			}
		}
	}
}

// upTo is the index of s's first byte among chars, len(s) for none.
func upTo(s, chars string) int {
	if i := strings.IndexAny(s, chars); i >= 0 {
		return i
	}
	return len(s)
}

const tagSpace = " \t\n\f\r"

var (
	commentMarks = strings.NewReplacer("<!--", "", "-->", "")
	inlineMarks  = strings.NewReplacer("*", "", "`", "")
)

func read(text string, sent bool) *doc {
	// A line is read as shown again when a block is looked at, not kept:
	// a slice of them costs 16 bytes a line, 16 MiB for a 1 MiB file of
	// empty lines (TestValidatePeakMemory).
	d := &doc{text: text, sent: sent, armoured: -1, kinds: make([]kind, 0, strings.Count(text, "\n")+1)}
	for p := (pos{}); p.off < len(text); p = d.next(p) {
		d.kinds = append(d.kinds, classify(d.line(p)))
	}
	return d
}

// line is line p as shown (see shown).
func (d *doc) line(p pos) string {
	return shown(d.text[p.off:d.next(p).off], d.sent)
}

// mark marks the lines from..to (inclusive) not yet marked; read as sent,
// a block from its first to its last line of key text only, a key on one
// line whatever else the line holds (a tag, an attribute).
func (d *doc) mark(from, to int) {
	for d.sent && from < to && !d.kinds[from].keyText() {
		from++
	}
	for d.sent && to > from && !d.kinds[to].keyText() {
		to--
	}
	if n := len(d.marked); n > 0 {
		from = max(from, d.marked[n-1])
	}
	for i := from; i <= to; i++ {
		d.marked = append(d.marked, i+1)
	}
}

// scan walks the lines once, marking the block around each proof of a key.
func (d *doc) scan() {
	// Starts of the current base64 and PuTTY runs: an END or Private-Lines reaches back.
	run, puttyRun := -1, -1
	for p := (pos{}); p.i < len(d.kinds); {
		k := d.kinds[p.i]
		var found bool
		var last pos // a key's first lines, from p to last
		switch k {
		case whole, bodyNext, puttyKey, puttyMAC, begin, end:
			last, found = d.marker(p)
		case blank, dashes: // no ASCII letter (decoration, dashes): no magic, no DER for headless
		default:
			last, found = d.headless(p)
		}
		if found {
			if k == end && run >= 0 {
				d.mark(run, p.i)
			} else if (k == puttyKey || k == puttyMAC) && puttyRun >= 0 {
				d.mark(puttyRun, p.i)
			}
			d.mark(p.i, last.i)
			switch {
			case k == whole, k == end, k == puttyMAC, k == begin && last == p && mention(d.line(p)):
				p = d.next(last)
			default:
				p = d.block(d.next(last), k == puttyKey)
			}
			run, puttyRun = -1, -1
			continue
		}
		switch {
		case (k == b64 || k == padded) && run < 0:
			run = p.i
		case k != b64 && k != padded && k != blank && k != dashes && k != header:
			run = -1
		}
		switch {
		case k == putty && puttyRun < 0:
			puttyRun = p.i
		case k != putty && k != b64 && k != padded && k != blank:
			puttyRun = -1
		}
		p = d.next(p)
	}
}

// mention reports a BEGIN marker in a sentence ("ne collez jamais le
// bloc -----BEGIN … PRIVATE KEY----- ici"): words follow it. The line is
// reported, but what follows is read on its own (headless bodies, END).
func mention(s string) bool {
	c := compact(s)
	_, rest, _ := strings.Cut(c, "PRIVATEKEY")
	rest = strings.TrimPrefix(strings.TrimLeft(rest, "-"), "BLOCK") // PGP's
	return strings.ContainsFunc(strings.TrimLeft(rest, "-"), unicode.IsLetter)
}

// pemHeader: a PEM header's name is one word ("Comment:", "DEK-Info:"),
// where a label is a phrase ("Date de la demande :").
func pemHeader(s string) bool {
	name, _, _ := strings.Cut(s, ":")
	return !strings.ContainsFunc(strings.TrimLeft(name, "#;/-% "), unicode.IsSpace)
}

// nextFilled is the first non-blank line after p, within maxGap.
func (d *doc) nextFilled(p pos) (pos, bool) {
	for gap := 0; gap <= maxGap; gap++ {
		if p = d.next(p); p.i >= len(d.kinds) || d.kinds[p.i] != blank {
			return p, p.i < len(d.kinds)
		}
	}
	return p, false
}

// block marks the rest of a key from p (base64, blanks, headers) up to
// END or Private-MAC, and returns the first line it did not take.
func (d *doc) block(p pos, ppk bool) pos {
	from, last, seen := p.i, p.i-1, false
	for ; p.i < len(d.kinds); p = d.next(p) {
		switch k := d.kinds[p.i]; {
		case k == b64, k == padded:
			last, seen = p.i, true
		case k == blank, k == dashes && !ppk:
			// Marked only if the block goes on after it.
		case ppk && (k == putty || k == puttyKey || k == header), !ppk && !seen && (k == bodyNext || k == putty || k == header && p.i == last+1 && pemHeader(d.line(p))):
			last = p.i
		case ppk && k == puttyMAC, !ppk && k == end:
			if q, ok := d.marker(p); ok {
				d.mark(from, q.i)
				return d.next(q)
			}
			fallthrough
		default:
			// A line no rule reads (a label, a markup, a comment) inside a
			// key that goes on to its END is still the key's.
			if q, ok := d.closing(p, ppk); ok {
				d.mark(from, q.i)
				return d.next(q)
			}
			d.mark(from, last)
			return p
		}
	}
	d.mark(from, last)
	return p
}

// closing looks, within maxBlock lines from p, for the END (or PuTTY's
// Private-MAC) of the block being read, before any other key starts.
func (d *doc) closing(p pos, ppk bool) (pos, bool) {
	for n := 0; n < maxBlock && p.i < len(d.kinds); n, p = n+1, d.next(p) {
		switch k := d.kinds[p.i]; {
		case !ppk && k == end, ppk && k == puttyMAC:
			if q, ok := d.marker(p); ok {
				return q, true
			}
		case n > 0 && (k == begin || k == whole || k == puttyKey && !ppk):
			return p, false
		}
	}
	return p, false
}

// marker confirms a BEGIN or END line at p and returns its last line.
func (d *doc) marker(p pos) (pos, bool) {
	word := map[kind]string{begin: "BEGIN", end: "END"}[d.kinds[p.i]]
	s := d.line(p)
	if word == "" {
		// A line that opens or closes a block on its own; openssl's
		// Private-Key: line, only before its numbers (a sentence names it).
		return p, !strings.Contains(compact(s), "PRIVATE-KEY:") || d.numbersAfter(p)
	}
	if ok, _ := named(compact(s), word); ok {
		return p, true
	}
	q, ok := d.nextFilled(p)
	if !ok || d.kinds[q.i] >= whole {
		return p, false // a marker is not the second half of another
	}
	// What opens the second half is a comment mark ("-- PRIVATE KEY-----").
	ok, _ = named(compact(s)+strings.TrimLeftFunc(compact(d.line(q)), func(r rune) bool { return !unicode.IsLetter(r) }), word)
	return q, ok
}

// numbersAfter reports openssl's numbers after line p: a label ("priv:",
// "modulus:"), then bytes joined by colons ("43:c7:b6:…").
func (d *doc) numbersAfter(p pos) bool {
	label, ok := d.nextFilled(p)
	if !ok || !strings.HasSuffix(d.line(label), ":") {
		return false
	}
	q, ok := d.nextFilled(label)
	bytes := strings.TrimSuffix(d.line(q), ":")
	return ok && strings.Count(bytes, ":") >= 2 && allHex(strings.ReplaceAll(bytes, ":", ""))
}

// headless looks at line p for a key body without BEGIN (the openssh
// magic, maybe over several lines, or DER base64), and its last line.
func (d *doc) headless(p pos) (pos, bool) {
	s := d.line(p)
	// The magic ("b3Bl…") and a piece of it ending the line hold a 'b' then a '3', or
	// are the 'b' the line ends with (no space there once stripped); a key file
	// encoded whole ("LS0t…") holds an 'L' and an 'S'.
	if strings.Contains(s, "b") && (strings.Contains(s, "3") || strings.HasSuffix(s, "b")) ||
		strings.Contains(s, "L") && strings.Contains(s, "S") {
		c := dropSpaces(s)
		if strings.Contains(c, magic) || armoured(c) {
			return p, true
		}
		for k := max(0, len(c)-len(magic)+1); k < len(c); k++ {
			if strings.HasPrefix(magic, c[k:]) {
				if q, ok := d.follow(p, magic[len(c)-k:]); ok {
					return q, true
				}
			}
		}
		if q, ok := d.armouredOver(p, c); ok {
			return q, true
		}
	} else if armourEnds(s) { // "…Ci0t" then "LS0tQkVH…": no 'S' here yet
		if q, ok := d.armouredOver(p, dropSpaces(s)); ok {
			return q, true
		}
	}
	// Words of base64 (a '=' ends one: "--comment=MIIE…"), tried from
	// each 'M', where DER's base64 starts (a key glued to a word:
	// "x/MIIE…", "~/.ssh/MC4C…"); only the last may go on over the next lines.
	for at := strings.IndexByte(s, 'M'); at >= 0 && at < len(s); at++ {
		to := at
		for to < len(s) && isB64(s[to]) && s[to] != '=' {
			to++
		}
		for k := at; k < to; k++ {
			if s[k] == 'M' {
				if q, ok := d.der(p, s[k:to], to == len(s)); ok {
					return q, true
				}
			}
		}
		at = to
	}
	return p, false
}

// armoured reports a key file base64-encoded whole, as kubeconfig's
// client-key-data: base64 of "-----BEGIN " that decodes to a key, at
// any offset in what was encoded (a blank line before, a .pub first).
func armoured(c string) bool {
	for _, m := range armourMarks {
		i := strings.Index(c, m.mark)
		if i < 0 {
			continue
		}
		// The quantum's first characters also carry the bytes before
		// "-----": any stand in for them.
		w := strings.Repeat("A", m.lead) + c[i:min(len(c), i+4*maxArmoured/3)]
		if j := strings.IndexFunc(w, func(r rune) bool { return r > 0x7f || !isB64(byte(r)) }); j >= 0 {
			w = w[:j]
		}
		w = strings.TrimRight(w, "=")
		raw, _ := base64.RawStdEncoding.DecodeString(w[:len(w)/4*4]) // whole quanta: a cut copy still decodes
		if Has(string(raw[m.lead*3/4:])) {
			return true
		}
	}
	return false
}

// armourEnds reports whether s ends with the start of an armourMarks.
func armourEnds(s string) bool {
	for _, m := range armourMarks {
		for k := max(0, len(s)-len(m.mark)+1); k < len(s); k++ {
			if strings.HasPrefix(m.mark, s[k:]) {
				return true
			}
		}
	}
	return false
}

// armourMarks are "-----BEGI(N)" in base64 at each offset modulo 3, each
// without the characters that also hold a byte before it (lead).
var armourMarks = [3]struct {
	mark string
	lead int
}{{"LS0tLS1CRUdJ", 0}, {"0tLS0tQkVHSU", 2}, {"tLS0tLUJFR0lO", 3}}

// armouredOver reports a key file encoded whole and wrapped in lines
// shorter than armoured needs (base64 -w 16): from an armourMarks, in c or
// ending it, the base64 lines after p are read on, at most armourWindow
// characters (a BEGIN line and the start of the body decide), and the
// last line of the file's base64. A start inside a window read before
// reads nothing again: linear.
func (d *doc) armouredOver(p pos, c string) (pos, bool) {
	if p.i <= d.armoured {
		return p, false
	}
	start := -1
	for _, m := range armourMarks {
		if start = strings.Index(c, m.mark); start >= 0 {
			break
		}
		for k := max(0, len(c)-len(m.mark)+1); start < 0 && k < len(c); k++ {
			if strings.HasPrefix(m.mark, c[k:]) {
				if _, ok := d.follow(p, m.mark[len(c)-k:]); ok {
					start = k
				}
			}
		}
		if start >= 0 {
			break
		}
	}
	if start < 0 || !allB64(c[start:]) {
		return p, false
	}
	var w strings.Builder
	w.Grow(armourWindow + len(c))
	w.WriteString(c[start:])
	q, more := p, func(q pos) (pos, string, bool) {
		next, ok := d.nextFilled(q)
		l := dropSpaces(d.line(next))
		return next, l, ok && allB64(l)
	}
	for w.Len() < armourWindow {
		next, l, ok := more(q)
		if !ok {
			break
		}
		w.WriteString(l)
		q = next
	}
	d.armoured = q.i
	if !armoured(w.String()) {
		return p, false
	}
	// Every line of the encoded file is the key's.
	for n := w.Len(); n < 4*maxArmoured/3; {
		next, l, ok := more(q)
		if !ok {
			break
		}
		n, q = n+len(l), next
	}
	d.armoured = q.i
	return q, true
}

// follow reports whether the lines after p, spaces removed, start with want.
func (d *doc) follow(p pos, want string) (pos, bool) {
	for want != "" {
		var ok bool
		if p, ok = d.nextFilled(p); !ok {
			return p, false
		}
		if d.line(p)[0] != want[0] { // a line starts with no space (strip), as its key text then
			return p, false
		}
		c := dropSpaces(d.line(p))
		n := min(len(c), len(want))
		if c[:n] != want[:n] {
			return p, false
		}
		want = want[n:]
	}
	return p, true
}

func dropSpaces(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// der reports whether word (and, if open, the base64 lines after p)
// decode to the start of a DER private key, and the last line it read.
func (d *doc) der(p pos, word string, open bool) (pos, bool) {
	var chars [derChars]byte
	n := 0
	// take adds the base64 of s up to a '='; it says whether to read on.
	take := func(s string) bool {
		for _, r := range s {
			switch {
			case unicode.IsSpace(r):
				continue
			case r == '=':
				return false
			}
			chars[n] = byte(r)
			if n++; n == derChars {
				return false
			}
		}
		// Most words stop at their first characters: not DER at all.
		return derStart(chars[:min(12, n/4*4)])
	}
	last, more := p, take(word) && open
	for q := p; more; {
		var ok bool
		if q, ok = d.nextFilled(q); !ok || d.kinds[q.i] != b64 {
			break
		}
		last, more = q, take(d.line(q))
	}
	var raw [derChars / 4 * 3]byte
	m, _ := base64.StdEncoding.Decode(raw[:], chars[:n/4*4])
	return last, derPrivate(raw[:m])
}

func classify(s string) kind {
	switch {
	case s == "":
		return blank
	case allB64(s), looseB64(s):
		return b64
	case strings.IndexByte(s, '-') < 0 && strings.IndexByte(s, ':') < 0 &&
		strings.IndexAny(strings.TrimLeftFunc(s, dropped), "bBeE") != 0:
		// No marker, header or dashes: each has a '-' or a ':', but a
		// marker starting the line ("BEGIN RSA PRIVATE KEY").
		return decorated(s)
	}
	c := compact(s)
	begins, cutBegin := named(c, "BEGIN")
	ends, cutEnd := named(c, "END")
	switch {
	case begins && ends:
		return whole
	case begins:
		return begin
	case ends:
		return end
	case len(c) >= 3 && strings.Trim(c, "-") == "":
		return dashes
	}
	// Headers, whatever stands before them: a comment mark ("# Proc-Type: …"),
	// a label or a cell ("Clé : PuTTY-User-Key-File-3: …").
	switch {
	case strings.Contains(c, "PUTTY-USER-KEY-FILE-"), strings.Contains(c, "PRIVATE-LINES:"):
		return puttyKey
	case strings.Contains(c, "PRIVATE-MAC:"), strings.Contains(c, "PRIVATE-HASH:"):
		return puttyMAC
	case strings.Contains(c, "PROC-TYPE:") && strings.Contains(c, "ENCRYPTED"), strings.Contains(c, "DEK-INFO:"),
		strings.Contains(c, "PRIVATE-KEY:"): // openssl pkey -text: "Private-Key: (2048 bit, 2 primes)", then its numbers
		return bodyNext
	}
	for _, name := range []string{"ENCRYPTION:", "COMMENT:", "PUBLIC-LINES:", "KEY-DERIVATION:", "ARGON2-"} {
		if strings.Contains(c, name) {
			return putty
		}
	}
	switch i := strings.IndexFunc(c, func(r rune) bool { return r > 0x7f || !isB64(byte(r)) && r != '-' }); {
	case i > 0 && c[i] == ':':
		return header
	case cutBegin:
		return begin
	case cutEnd:
		return end
	}
	return decorated(s)
}

// decorated is the kind of a line no marker or header opens.
func decorated(s string) kind {
	switch t := undecorate(s); {
	case t == "":
		return blank // a comment mark or line number alone ("#", "12 |"): an empty line of a commented-out key
	case paddedB64(s, t):
		return padded
	}
	return other
}

// undecorate drops what opens a line of a commented-out or numbered
// key and no Markdown strips: "#", ";", "--", "//", "12 |".
func undecorate(s string) string {
	notB64 := func(r rune) bool { return r > 0x7f || !isB64(byte(r)) }
	t := strings.TrimLeftFunc(strings.TrimLeft(s, "/"), notB64)
	if i := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && notB64(rune(t[i])) {
		t = strings.TrimLeftFunc(t[i:], notB64)
	}
	return t
}

// paddedB64 reports base64 behind a decoration (t is s undecorated) or
// a label: the last word is 16 base64 characters or more.
func paddedB64(s, t string) bool {
	if t != s && (allB64(t) || looseB64(t)) {
		return true
	}
	if !isB64(s[len(s)-1]) {
		return false // the last word ends in no base64, as prose ends in its full stop
	}
	i := strings.LastIndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return false
	}
	w := s[i+1:]
	decor := !strings.ContainsFunc(s[:i], unicode.IsLetter)
	return allB64(w) && (decor || len(w) >= 16 && !isWord(w))
}

// isWord: letters, capitalised at most ("Anticonstitutionnellement"), as
// 16 random base64 characters almost never are.
func isWord(w string) bool {
	return strings.IndexFunc(w[1:], func(r rune) bool { return r < 'a' || r > 'z' }) < 0
}

// named reads a compact line for a BEGIN or END (word) private key
// marker, whole or cut (going on on the next line).
func named(c, word string) (whole, cut bool) {
	switch i := strings.Index(c, "-"+word); {
	case i >= 0:
		c = c[i+1+len(word):]
	case strings.HasPrefix(c, word):
		c = c[len(word):]
	default:
		return false, false
	}
	i := strings.Index(c, "PRIVATEKEY")
	if i < 0 {
		return false, len(c) < maxKindLen+len("PRIVATE") && !strings.Contains(c, "-")
	}
	return i <= maxKindLen && !strings.Contains(c[:i], "-"), false
}

// strip removes a pasted line's indentation, quotes, code marks, pipes and list markers.
func strip(s string) string {
	for {
		t := strings.TrimFunc(s, func(r rune) bool {
			return unicode.IsSpace(r) || termtext.Invisible(r) || strings.ContainsRune("`\"'|", r)
		})
		t = strings.TrimPrefix(t, ">")
		if n := mdbounds.MarkerLen(t); n <= len("1234. ") { // four digits at most, or a '>' more
			t = t[n:]
		}
		if len(t) == len(s) {
			return t
		}
		s = t
	}
}

// compact is s upper-cased without spaces, format characters and marks,
// nor what an encoding writes for a character it lacks ('?', U+FFFD: a
// no-break space in a marker saved as Latin-1).
func compact(s string) string {
	return strings.Map(func(r rune) rune {
		if dropped(r) {
			return -1
		}
		return unicode.ToUpper(r)
	}, s)
}

// dropped is what compact leaves out.
func dropped(r rune) bool {
	switch {
	case r < 0x80: // no format character is ASCII
		return r == ' ' || r >= '\t' && r <= '\r' || r == '>' || r == '`' || r == '|' || r == '?'
	}
	return unicode.IsSpace(r) || termtext.Invisible(r) || r == '\ufffd'
}

func isB64(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '='
}

func allB64(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r > 0x7f || !isB64(byte(r)) }) < 0
}

// looseB64 reports re-spaced base64: 16 characters or more, pieces of
// eight on average ("Merci pour tout" is not one).
func looseB64(s string) bool {
	n, pieces, in := 0, 0, false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			in = false
		case r < 0x80 && isB64(byte(r)):
			if n++; !in {
				pieces, in = pieces+1, true
			}
		default:
			return false
		}
	}
	return n >= 16 && n >= 8*pieces
}

// derStart: base64 characters (12 at most) that may open a SEQUENCE of an INTEGER or a SEQUENCE.
func derStart(chars []byte) bool {
	var raw [9]byte
	n, _ := base64.StdEncoding.Decode(raw[:], chars)
	if n == 0 || n == 3 && raw[0] == 0x30 && raw[1] == 0x82 {
		return true // too short to tell
	}
	tag, _, body := tlv(raw[:n])
	return tag == 0x30 && (len(body) == 0 || body[0] == 0x02 || body[0] == 0x30)
}

// derPrivate reports whether b, the first bytes of a DER value, open a
// private key:
//
//	SEQUENCE { INTEGER 0, INTEGER n … }                 PKCS#1 RSA, DSA
//	SEQUENCE { INTEGER 1, OCTET STRING key … }          SEC1 EC
//	SEQUENCE { INTEGER 0|1, SEQUENCE { OID alg … } … }  PKCS#8
//	SEQUENCE { SEQUENCE { OID PBES2|PBE … } … }         encrypted PKCS#8
//
// Public keys, certificates and signatures have none of these shapes.
func derPrivate(b []byte) bool {
	tag, n, body := tlv(b)
	if tag != 0x30 || n < 32 {
		return false
	}
	if tag, _, alg := tlv(body); tag == 0x30 {
		return bytes.HasPrefix(alg, pbes) || bytes.HasPrefix(alg, pkcs12)
	}
	if len(body) < 3 || body[0] != 0x02 || body[1] != 1 || body[2] > 1 {
		return false
	}
	version := body[2]
	switch tag, n, alg := tlv(body[3:]); {
	case tag == 0x30:
		return len(alg) > 0 && alg[0] == 0x06 // an OID
	case tag == 0x02 && version == 0:
		return n >= 64 // a modulus, or DSA's p: 512 bits at least
	case tag == 0x04 && version == 1:
		return n >= 20 && n <= 72 // an EC private key, 160 to 571 bits
	}
	return false
}

// OID prefixes of PKCS#8 encryption: PKCS#5 (1.2.840.113549.1.5), PKCS#12 PBE (….12.1).
var (
	pbes   = []byte{0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05}
	pkcs12 = []byte{0x06, 0x0a, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x01}
)

// tlv reads a DER header; tag 0 is a header cut short or too long a length.
func tlv(b []byte) (tag byte, n int, body []byte) {
	switch {
	case len(b) >= 2 && b[1] < 0x80:
		return b[0], int(b[1]), b[2:]
	case len(b) >= 3 && b[1] == 0x81:
		return b[0], int(b[2]), b[3:]
	case len(b) >= 4 && b[1] == 0x82:
		return b[0], int(b[2])<<8 | int(b[3]), b[4:]
	}
	return 0, 0, nil
}
