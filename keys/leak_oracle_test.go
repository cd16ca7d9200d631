package keys

// The detector as it was before its prefilters (leak.go and fragment.go
// at bb528ea), every package-level name prefixed with "old": the oracle
// the differential tests of leak_diff_test.go compare the detector with.
// Do not edit: it is the reference, not the code.

import (
	"bytes"
	"encoding/base64"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/ssh"
)

// MaterialLines returns, in order, the 1-based numbers of the lines of text
// that belong to a block of private key material, so that whoever quotes
// a file can leave those lines out and name them by number only. Lines
// are split on "\n", a trailing "\r" being part of the break, as every
// reader of pret splits them.
//
// A pasted key is rarely intact: mail and editors rewrap it, change its
// case or its spaces, quote it with "> ", drop its first or last line.
// So the detector does not look for one exact shape; it reports every
// line of
//   - a "BEGIN … PRIVATE KEY" block of any kind (OPENSSH, RSA, EC, DSA,
//     PKCS#8, ENCRYPTED, PGP, SSH2), the marker in any case, with any
//     spaces, even split over two lines, up to its END line or, without
//     one, to the end of its body;
//   - a PuTTY key file (PuTTY-User-Key-File-N … Private-MAC), blank lines
//     inside included, or its Private-Lines part alone;
//   - a legacy encrypted PEM body announced by Proc-Type/DEK-Info;
//   - a body whose BEGIN line is missing when its base64 decodes to
//     "openssh-key-v1" (b3BlbnNzaC1rZXktdjE, wherever the lines break) or
//     to the DER of a PKCS#1, SEC1, PKCS#8 or encrypted PKCS#8 private
//     key, or when it ends with a private END line.
//
// Blocks that are not secret — SSH SIGNATURE, PUBLIC KEY, CERTIFICATE —
// are never reported. The work is linear in the size of text: each line
// is classified once, and each guess at a headerless body decodes at most
// a few dozen bytes.
func oldMaterialLines(text string) []int {
	var out []int
	for i, m := range oldMaterialMask(text) {
		if m {
			out = append(out, i+1)
		}
	}
	return out
}

// MaterialMask is MaterialLines as one flag per line (index 0 is line
// 1): one byte a line, for the readers of large files.
func oldMaterialMask(text string) []bool { return oldMaterialMaskAt(text, nil) }

// MaterialMaskAt is MaterialMask for a reader that has already split text
// into lines as pret does: line i is text[starts[i]:starts[i+1]], its
// "\n" included, one more offset than lines. The detector reads those
// offsets rather than making its own: on a 1 MiB file of empty lines
// they are 4 MiB. starts is only read, and never kept; nil (or a table
// that does not fit text) makes the detector split text itself.
func oldMaterialMaskAt(text string, starts []int32) []bool {
	d := oldNewDetector(text, starts)
	d.classify()
	d.run()
	d.fragments()
	mark := d.mark
	d.release()
	return mark
}

// HasMaterial reports whether text holds any private key material.
func oldHasMaterial(text string) bool { return len(oldMaterialLines(text)) > 0 }

type oldKind uint8

const (
	oldKOther oldKind = iota
	oldKBlank
	oldKB64       // one token of base64 alphabet only
	oldKPEMHeader // Proc-Type:, DEK-Info:, Comment:, Subject: … inside a PEM block
	oldKPuTTY     // a PuTTY key file header other than the first
	oldKPuTTYStart
	oldKBegin  // BEGIN … PRIVATE KEY (possibly ending on a later line)
	oldKEnd    // END … PRIVATE KEY
	oldKDashes // a line of dashes only: the first half of a split marker
)

// Flags of a line.
const (
	oldFMagic   = 1 << iota // holds b3BlbnNzaC1rZXktdjE, spaces ignored
	oldFEncrypt             // Proc-Type: 4,ENCRYPTED or DEK-Info
	oldFClosing             // PuTTY Private-MAC / Private-Hash: the last line
	oldFPrivAt              // PuTTY Private-Lines: key material follows
	oldFCand                // its base64 may start a key: decode it
	oldFLoose               // base64 once its spaces are removed: a body line re-spaced
	oldFHeader              // "Name: value", the shape of a PEM header (Version:, Comment:)
)

// cline is what the detector keeps of a line: three bytes, so that a
// 1 MiB file of short lines costs a few MiB, not one string per line.
type oldCline struct {
	kind   oldKind
	flags  uint8
	joined uint8 // kBegin/kEnd: the marker ends this many lines later
}

const oldMagicB64 = "b3BlbnNzaC1rZXktdjE"

var oldMagicB64Bytes = []byte(oldMagicB64)

// compact appends to buf the line upper-cased with every space, format
// character and Markdown quote removed: what a marker is compared on.
func oldCompact(buf []byte, s string) []byte {
	for _, r := range s {
		if r < utf8.RuneSelf {

			switch {
			case r == ' ' || '\t' <= r && r <= '\r' || r == '>' || r == '`' || r == '|':
			case 'a' <= r && r <= 'z':
				buf = append(buf, byte(r-'a'+'A'))
			default:
				buf = append(buf, byte(r))
			}
			continue
		}
		if unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) || r == '>' || r == '`' || r == '|' {
			continue
		}
		buf = utf8.AppendRune(buf, unicode.ToUpper(r))
	}
	return buf
}

// strip removes what a mail client, Markdown or an editor puts around a
// pasted line: indentation, "> " quotes, code marks, a list dash.
func oldStrip(s string) string {
	s = strings.TrimSuffix(s, "\r")
	if s == "" || oldIsAlnum(s[0]) && oldIsAlnum(s[len(s)-1]) && oldListMarker(s) == 0 {
		return s
	}
	for {
		t := strings.TrimFunc(s, func(r rune) bool {
			return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) || r == '`' || r == '"' || r == '\'' || r == '|'
		})
		t = strings.TrimPrefix(t, ">")
		t = t[oldListMarker(t):]
		if t == s {
			return t
		}
		s = t
	}
}

// listMarker is the length of a Markdown list marker opening s: "- ",
// "* ", "+ ", "12. ", "3) "; 0 when there is none.
func oldListMarker(s string) int {
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && (s[1] == ' ' || s[1] == '\t') {
		return 2
	}
	i := 0
	for i < len(s) && i < 4 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && (s[i+1] == ' ' || s[i+1] == '\t') {
		return i + 2
	}
	return 0
}

// looseB64 reports a line that is base64 once its white space is
// removed: sixteen characters at least, in pieces of eight on average, so
// that a line of short words ("Merci pour tout") is not one.
func oldLooseB64(s string) bool {
	n, pieces, in := 0, 0, false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			in = false
		case r < 0x80 && oldIsB64Byte(byte(r)):
			n++
			if !in {
				pieces++
				in = true
			}
		default:
			return false
		}
	}
	return n >= 16 && n >= 8*pieces
}

// headerShape reports "Name: value" (or "Name:"), a PEM header's shape.
func oldHeaderShape(s string) bool {
	i := 0
	for i < len(s) && (oldIsAlnum(s[i]) || s[i] == '-' && i > 0) {
		i++
	}
	return i > 0 && i < len(s) && s[i] == ':' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t')
}

func oldIsAlnum(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

func oldIsB64Byte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '='
}

func oldAllB64(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !oldIsB64Byte(s[i]) {
			return false
		}
	}
	return true
}

func oldIsSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }

// lastWord and firstWord of a stripped line, quotes trimmed; "" when the
// word holds anything but base64.
func oldLastWord(s string) string {
	i := len(s)
	for i > 0 && !oldIsSpaceByte(s[i-1]) {
		i--
	}
	return oldB64Word(s[i:])
}

func oldFirstWord(s string) string {
	i := 0
	for i < len(s) && !oldIsSpaceByte(s[i]) {
		i++
	}
	return oldB64Word(s[:i])
}

func oldB64Word(w string) string {
	w = strings.Trim(w, "`\"'>")
	if oldAllB64(w) {
		return w
	}
	return ""
}

// mayStartKey is the cheap test before decoding: DER starts with 0x30,
// "M" in base64; the openssh magic, whole or cut at the line's end.
func oldMayStartKey(tok string) bool {
	if tok == "" {
		return false
	}
	if tok[0] == 'M' {
		return true
	}
	from := len(tok) - len(oldMagicB64)
	if from < 0 {
		from = 0
	}
	for i := from; i < len(tok); i++ {
		if tok[i] == 'b' && (strings.HasPrefix(oldMagicB64, tok[i:]) || strings.HasPrefix(tok[i:], oldMagicB64)) {
			return true
		}
	}
	return false
}

var oldPuttyHeaders = []string{"ENCRYPTION:", "COMMENT:", "PUBLIC-LINES:", "PRIVATE-LINES:", "PRIVATE-MAC:", "PRIVATE-HASH:",
	"KEY-DERIVATION:", "ARGON2-MEMORY:", "ARGON2-PASSES:", "ARGON2-PARALLELISM:", "ARGON2-SALT:"}

var oldPemHeaders = []string{"PROC-TYPE:", "DEK-INFO:", "COMMENT:", "SUBJECT:", "X-"}

type oldDetector struct {
	text  string
	start []int32 // line i is text[start[i]:start[i+1]], its "\n" included
	ls    []oldCline
	mark  []bool
	// borrowed: start is a caller's (MaterialMaskAt), and own the
	// detector's own table, kept for the next file.
	borrowed bool
	own      []int32
}

// detectors keeps the line tables of one file for the next: a run over
// many one-page files then makes only the mask it returns.
var oldDetectors = sync.Pool{New: func() any { return new(oldDetector) }}

// maxPooled is the most lines whose tables go back to the pool: a 1 MiB
// file of short lines is read once, its tables are not kept.
const oldMaxPooled = 4096

func oldNewDetector(text string, starts []int32) *oldDetector {
	n := strings.Count(text, "\n")
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	d := oldDetectors.Get().(*oldDetector)
	d.text = text
	if len(starts) == n+1 && starts[0] == 0 && starts[n] == int32(len(text)) {
		d.own, d.start, d.borrowed = d.start, starts, true
		if cap(d.ls) < n {
			d.ls = make([]oldCline, n)
		}
		d.ls, d.mark = d.ls[:n], make([]bool, n)
		clear(d.ls)
		return d
	}
	if cap(d.start) < n+1 {
		d.start = make([]int32, 0, n+1)
	}
	if cap(d.ls) < n {
		d.ls = make([]oldCline, n)
	}
	d.start, d.ls, d.mark = d.start[:0], d.ls[:n], make([]bool, n)
	clear(d.ls)
	for off := 0; off < len(text); {
		d.start = append(d.start, int32(off))
		j := strings.IndexByte(text[off:], '\n')
		if j < 0 {
			off = len(text)
		} else {
			off += j + 1
		}
	}
	d.start = append(d.start, int32(len(text)))
	return d
}

// release gives the tables back for the next file; d is not used after.
func (d *oldDetector) release() {
	d.text, d.mark = "", nil
	if d.borrowed {
		d.start, d.own, d.borrowed = d.own, nil, false
	}
	if cap(d.start) <= oldMaxPooled+1 && cap(d.ls) <= oldMaxPooled {
		oldDetectors.Put(d)
	}
}

// line is line i without its break, stripped of its decoration.
func (d *oldDetector) line(i int) string {
	s := d.text[d.start[i]:d.start[i+1]]
	s = strings.TrimSuffix(s, "\n")
	return oldStrip(s)
}

// token is the base64 a line may contribute to a body: the whole line for
// kB64, else its last word.
func (d *oldDetector) token(i int) string {
	if d.ls[i].kind == oldKB64 {
		return d.line(i)
	}
	return oldLastWord(d.line(i))
}

func (d *oldDetector) classify() {
	// Line-sized buffers on the stack: a line longer than this grows
	// them once.
	var arr, narr, marr [256]byte
	buf, nbuf, mbuf := arr[:0], narr[:0], marr[:0]
	for i := range d.ls {
		s := d.line(i)
		c := &d.ls[i]
		switch {
		case s == "":
			c.kind = oldKBlank
		case oldAllB64(s):
			c.kind = oldKB64
		}
	}
	for i := range d.ls {
		c := &d.ls[i]
		if c.kind == oldKBlank {
			continue
		}
		s := d.line(i)
		if strings.Contains(s, oldMagicB64) || strings.ContainsAny(s, " \t>") && oldMayHoldMagic(s) && bytes.Contains(oldAppendDropSpace(mbuf[:0], s), oldMagicB64Bytes) {
			c.flags |= oldFMagic
		}
		if c.kind == oldKB64 {
			if oldMayStartKey(s) {
				c.flags |= oldFCand
			}
			continue
		}
		if oldMayStartKey(oldLastWord(s)) {
			c.flags |= oldFCand
		}
		if oldLooseB64(s) {
			c.flags |= oldFLoose
		}
		if oldHeaderShape(s) {
			c.flags |= oldFHeader
		}
		buf = oldCompact(buf[:0], s)

		if len(buf) == 0 || !bytes.Contains(buf, []byte("BEGIN")) && !bytes.Contains(buf, []byte("END")) && bytes.IndexByte(buf, ':') < 0 && buf[0] != '-' && !bytes.HasPrefix(buf, []byte("PUTTY")) {
			continue
		}
		if !oldMarkerShape(buf) {
			continue
		}
		nbuf = d.marker(i, c, string(buf), nbuf)
	}
}

// marker reads a line that may be a marker or a header, k its compact
// form; nbuf is a buffer for the next line's, returned for reuse.
func (d *oldDetector) marker(i int, c *oldCline, k string, nbuf []byte) []byte {
	next, nextAt := "", 0
	nextFn := func() (string, int) {
		if nextAt == 0 {
			for j := i + 1; j < len(d.ls) && j <= i+8; j++ {
				if d.ls[j].kind != oldKBlank {
					nbuf = oldCompact(nbuf[:0], d.line(j))
					next, nextAt = string(nbuf), j-i
					break
				}
			}
		}
		return next, nextAt
	}
	switch {
	case strings.Trim(k, "-") == "" && len(k) >= 3:
		c.kind = oldKDashes
	case oldBeginAt(k) >= 0:
		b := oldBeginAt(k)
		switch {
		case strings.Contains(k[b:], "PRIVATEKEY"):
			c.kind = oldKBegin
		case !strings.Contains(k[b:], "KEY") && !strings.HasSuffix(k, "-----"):
			if nx, at := nextFn(); strings.Contains(k[b:]+nx, "PRIVATEKEY") {
				c.kind, c.joined = oldKBegin, uint8(at)
			}
		case strings.HasSuffix(k, "PRIVATE"):
			if nx, at := nextFn(); strings.HasPrefix(nx, "KEY") {
				c.kind, c.joined = oldKBegin, uint8(at)
			}
		}
	case oldEndAt(k) >= 0:
		e := oldEndAt(k)
		if strings.Contains(k[e:], "PRIVATEKEY") {
			c.kind = oldKEnd
		} else if !strings.HasSuffix(k, "-----") {
			if nx, at := nextFn(); strings.Contains(k[e:]+nx, "PRIVATEKEY") {
				c.kind, c.joined = oldKEnd, uint8(at)
			}
		}
	case strings.HasPrefix(k, "PUTTY-USER-KEY-FILE-"):
		c.kind = oldKPuTTYStart
	default:
		for _, h := range oldPuttyHeaders {
			if strings.HasPrefix(k, h) {
				c.kind = oldKPuTTY
				if h == "PRIVATE-MAC:" || h == "PRIVATE-HASH:" {
					c.flags |= oldFClosing
				}
				if h == "PRIVATE-LINES:" {
					c.flags |= oldFPrivAt
				}
			}
		}
		for _, h := range oldPemHeaders {
			if strings.HasPrefix(k, h) && c.kind == oldKOther {
				c.kind = oldKPEMHeader
			}
		}
		if strings.HasPrefix(k, "PROC-TYPE:") && strings.Contains(k, "ENCRYPTED") || strings.HasPrefix(k, "DEK-INFO:") {
			c.kind = oldKPEMHeader
			c.flags |= oldFEncrypt
		}
	}
	return nbuf
}

// markerShape is a necessary condition for the switch of classify to
// change a line: a line of dashes, a BEGIN or END marker, or a line
// opening with one of the header names it knows. Markdown list items
// ("- Clé : …") and "Nom : valeur" prose are spared the string copy.
func oldMarkerShape(k []byte) bool {
	if bytes.Contains(k, []byte("BEGIN")) || bytes.Contains(k, []byte("END")) {
		return true
	}
	if len(bytes.Trim(k, "-")) == 0 {
		return len(k) >= 3
	}
	if bytes.HasPrefix(k, []byte("PUTTY-USER-KEY-FILE-")) {
		return true
	}
	for _, hs := range [][]string{oldPuttyHeaders, oldPemHeaders} {
		for _, h := range hs {
			if len(k) >= len(h) && string(k[:len(h)]) == h {
				return true
			}
		}
	}
	return false
}

// mayHoldMagic is a quick necessary test for magicB64 written with
// spaces inside: its rarer letters are all there. Prose has no capital
// X, Z and E together, and is then spared the copy.
func oldMayHoldMagic(s string) bool {
	return strings.IndexByte(s, 'X') >= 0 && strings.IndexByte(s, 'Z') >= 0 && strings.IndexByte(s, 'E') >= 0 && strings.IndexByte(s, 'j') >= 0
}

// appendDropSpace appends s to buf without its white space and '>', as
// strings.Map(dropSpace, s) would return it, into a buffer reused from
// line to line.
func oldAppendDropSpace(buf []byte, s string) []byte {
	for _, r := range s {
		if r < utf8.RuneSelf {

			if r != ' ' && (r < '\t' || r > '\r') && r != '>' {
				buf = append(buf, byte(r))
			}
			continue
		}
		if oldDropSpace(r) >= 0 {
			buf = utf8.AppendRune(buf, r)
		}
	}
	return buf
}

func oldDropSpace(r rune) rune {
	if unicode.IsSpace(r) || r == '>' {
		return -1
	}
	return r
}

// beginAt finds a BEGIN marker: after dashes, or starting the line.
func oldBeginAt(k string) int {
	if i := strings.Index(k, "-BEGIN"); i >= 0 {
		return i + 1
	}
	if strings.HasPrefix(k, "BEGIN") && strings.Contains(k, "KEY") {
		return 0
	}
	return -1
}

func oldEndAt(k string) int {
	if i := strings.Index(k, "-END"); i >= 0 {
		return i + 1
	}
	if strings.HasPrefix(k, "END") && strings.Contains(k, "PRIVATEKEY") {
		return 0
	}
	return -1
}

// markRange marks lines [from, to] and returns to+1.
func (d *oldDetector) markRange(from, to int) int {
	for i := from; i <= to; i++ {
		d.mark[i] = true
	}
	return to + 1
}

// body marks the base64 body that follows line i: base64 tokens, headers
// of the given kind, blank lines between them, and an END line that
// closes it. It returns the first line after the block.
func (d *oldDetector) body(i int, pem bool) int {
	last, seenB64 := i-1, false
	for j := i; j < len(d.ls); j++ {
		c := d.ls[j]
		switch {
		case c.kind == oldKB64, c.flags&oldFLoose != 0, c.flags&oldFMagic != 0:
			last, seenB64 = j, true
		case c.kind == oldKPEMHeader && pem, c.flags&oldFHeader != 0 && pem && !seenB64:

			last = j
		case c.kind == oldKBlank:
		case c.kind == oldKEnd && pem:
			last = j + int(c.joined)
			return d.markRange(i, last)
		case c.kind == oldKDashes && pem:

			last = j
		default:
			if last >= i {
				d.markRange(i, last)
			}
			return last + 1
		}
	}
	if last >= i {
		d.markRange(i, last)
	}
	return last + 1
}

// putty marks a PuTTY key file from line i: its headers, base64 lines and
// blank lines, up to Private-MAC.
func (d *oldDetector) putty(i int) int {
	last := i - 1
	for j := i; j < len(d.ls); j++ {
		c := d.ls[j]
		switch c.kind {
		case oldKPuTTY, oldKPuTTYStart:
			if c.kind == oldKPuTTYStart && j > i {
				d.markRange(i, last)
				return j
			}
			last = j
			if c.flags&oldFClosing != 0 {
				return d.markRange(i, j)
			}
		case oldKB64:
			last = j
		case oldKBlank:
		default:
			if last >= i {
				d.markRange(i, last)
			}
			return last + 1
		}
	}
	if last >= i {
		d.markRange(i, last)
	}
	return last + 1
}

func (d *oldDetector) run() {
	ls := d.ls

	runStart, puttyStart := -1, -1
	for i := 0; i < len(ls); {
		c := ls[i]
		switch {
		case c.kind == oldKBegin:
			from := i
			if i > 0 && ls[i-1].kind == oldKDashes {
				from = i - 1
			}
			next := i + int(c.joined)
			d.markRange(from, next)
			i = d.body(next+1, true)
			runStart, puttyStart = -1, -1
			continue
		case c.kind == oldKEnd:

			from := i
			if runStart >= 0 {
				from = runStart
			}
			i = d.markRange(from, i+int(c.joined))
			runStart, puttyStart = -1, -1
			continue
		case c.kind == oldKPuTTYStart:
			i = d.putty(i)
			runStart, puttyStart = -1, -1
			continue
		case c.kind == oldKPuTTY && (c.flags&oldFPrivAt != 0 || c.flags&oldFClosing != 0):
			from := i
			if puttyStart >= 0 {
				from = puttyStart
			}
			d.markRange(from, i)
			if c.flags&oldFClosing != 0 {
				i++
			} else {
				i = d.putty(i + 1)
			}
			runStart, puttyStart = -1, -1
			continue
		case c.kind == oldKPEMHeader && c.flags&oldFEncrypt != 0:
			d.mark[i] = true
			i = d.body(i+1, true)
			runStart, puttyStart = -1, -1
			continue
		case c.flags&oldFMagic != 0:
			d.mark[i] = true
			i = d.body(i+1, true)
			runStart, puttyStart = -1, -1
			continue
		case c.flags&oldFCand != 0:
			if ok, through := d.startsKey(i); ok {
				d.markRange(i, through)
				i = d.body(through+1, true)
				runStart, puttyStart = -1, -1
				continue
			}
		}
		switch {
		case c.kind == oldKB64, c.kind == oldKPEMHeader, c.flags&oldFLoose != 0:
			if runStart < 0 {
				runStart = i
			}
		case c.kind == oldKBlank:
		default:
			runStart = -1
		}
		switch c.kind {
		case oldKPuTTY:
			if puttyStart < 0 {
				puttyStart = i
			}
		case oldKB64, oldKBlank:
		default:
			puttyStart = -1
		}
		i++
	}
}

// startsKey reports whether the base64 from line i on (its last word,
// then the tokens of the following lines) is the start of a private key:
// openssh-key-v1, or the DER of one. through is the last line the match
// used. Each call reads a bounded number of characters.
func (d *oldDetector) startsKey(i int) (ok bool, through int) {
	first := d.token(i)
	if first == "" {
		return false, i
	}

	for k := max(0, len(first)-len(oldMagicB64)); k < len(first); k++ {
		if first[k] == 'b' {
			if ok, through := d.match(i, first[k:]); ok {
				return true, through
			}
		}
	}
	if first[0] != 'M' {
		return false, i
	}
	var buf [96]byte
	head := d.gather(i, first, buf[:12])
	if len(head) < 12 || !oldDerStart(head) {
		return false, i
	}
	all := d.gather(i, first, buf[:])
	all = all[:len(all)/4*4]
	raw := make([]byte, base64.StdEncoding.DecodedLen(len(all)))
	n, err := base64.StdEncoding.Decode(raw, all)
	if err != nil && n == 0 {
		return false, i
	}
	return oldPrivateDER(raw[:n]), i
}

// match compares the magic with rest, then with the tokens of the lines
// after i (blank lines skipped, the first word of a prose line taken).
func (d *oldDetector) match(i int, rest string) (bool, int) {
	want := oldMagicB64
	for {
		if len(rest) >= len(want) {
			return strings.HasPrefix(rest, want), i
		}
		if !strings.HasPrefix(want, rest) {
			return false, i
		}
		want = want[len(rest):]
		i++
		for i < len(d.ls) && d.ls[i].kind == oldKBlank {
			i++
		}
		if i == len(d.ls) {
			return false, i
		}
		if d.ls[i].kind == oldKB64 {
			rest = d.line(i)
		} else {
			rest = oldFirstWord(d.line(i))
			if rest == "" {
				return false, i
			}
		}
	}
}

// gather fills buf with base64 from first and the kB64 lines after line
// i, up to the first padding or the first other line.
func (d *oldDetector) gather(i int, first string, buf []byte) []byte {
	n := 0
	add := func(s string) bool {
		for k := 0; k < len(s) && n < len(buf); k++ {
			if s[k] == '=' {
				return false
			}
			buf[n] = s[k]
			n++
		}
		return n < len(buf)
	}
	if !add(first) {
		return buf[:n]
	}
	for j := i + 1; j < len(d.ls); j++ {
		switch d.ls[j].kind {
		case oldKBlank:
			continue
		case oldKB64:
			if !add(d.line(j)) {
				return buf[:n]
			}
			continue
		}
		break
	}
	return buf[:n]
}

// derStart is the cheap look at the first nine bytes: a SEQUENCE with a
// length form a key uses, then an INTEGER or a SEQUENCE.
func oldDerStart(b64 []byte) bool {
	var raw [9]byte
	if _, err := base64.StdEncoding.Decode(raw[:], b64[:12]); err != nil {
		return false
	}
	if raw[0] != 0x30 {
		return false
	}
	at := 2
	switch l := raw[1]; {
	case l < 0x80:
	case l == 0x81:
		at = 3
	case l == 0x82:
		at = 4
	default:
		return false
	}
	return raw[at] == 0x02 || raw[at] == 0x30
}

// privateDER recognises the first bytes of an ASN.1 DER private key:
// SEQUENCE { INTEGER 0, INTEGER … } (PKCS#1 RSA, DSA),
// SEQUENCE { INTEGER 0|1, SEQUENCE … } (PKCS#8),
// SEQUENCE { INTEGER 1, OCTET STRING … } (SEC1 EC),
// SEQUENCE { SEQUENCE { OID pkcs5|pkcs12 … } … } (encrypted PKCS#8).
// A public key (SEQUENCE { SEQUENCE { OID key type } BIT STRING }) or a
// certificate has none of these shapes.
func oldPrivateDER(b []byte) bool {
	rest, ok := oldDerSeq(b)
	if !ok {
		return false
	}
	if len(rest) >= 4 && rest[0] == 0x02 && rest[1] == 0x01 {
		v, next := rest[2], rest[3]
		switch {
		case v == 0 && (next == 0x02 || next == 0x30):
			return true
		case v == 1 && (next == 0x04 || next == 0x30):
			return true
		}
		return false
	}
	inner, ok := oldDerSeq(rest)
	if !ok || len(inner) < 10 || inner[0] != 0x06 {
		return false
	}
	oid := inner[2:]
	pkcs := []byte{0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01}
	if len(oid) < 8 || string(oid[:7]) != string(pkcs) {
		return false
	}
	return oid[7] == 0x05 || oid[7] == 0x0c
}

// derSeq reads a SEQUENCE header and returns its content start. The
// length must be plausible for a key (at least 16 bytes).
func oldDerSeq(b []byte) ([]byte, bool) {
	if len(b) < 2 || b[0] != 0x30 {
		return nil, false
	}
	n, l := 0, b[1]
	switch {
	case l < 0x80:
		n = int(l)
		b = b[2:]
	case l == 0x81 && len(b) >= 3:
		n = int(b[2])
		b = b[3:]
	case l == 0x82 && len(b) >= 4:
		n = int(b[2])<<8 | int(b[3])
		b = b[4:]
	default:
		return nil, false
	}
	return b, n >= 16
}

// Redact returns text with every line of private key material emptied,
// the line breaks kept so that line numbers stay true, and the numbers
// of those lines. Readers parse the redacted text: whatever they quote
// afterwards, in a message, a report or an explanation, cannot be a line
// of the key.
func oldRedact(text string) (string, []int) {
	mask := oldMaterialMask(text)
	var lines []int
	for i, m := range mask {
		if m {
			lines = append(lines, i+1)
		}
	}
	if len(lines) == 0 {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text))
	i := 0
	for off := 0; off < len(text); i++ {
		end := strings.IndexByte(text[off:], '\n')
		next := len(text)
		if end >= 0 {
			next = off + end + 1
		}
		if i < len(mask) && mask[i] {
			if end >= 0 {
				b.WriteByte('\n')
			}
		} else {
			b.WriteString(text[off:next])
		}
		off = next
	}
	return b.String(), lines
}

// fragMin is the shortest token taken for a body line: a fingerprint's
// 43 characters stay below it, a body line (64 or 70) above.
const oldFragMin = 44

// fragAlone is the length from which one token is a key line on its
// own: a body line is 64 (PEM) or 70 (OpenSSH) characters; honest text
// has no such base64 but a public key (spared) or a signature (armoured).
const oldFragAlone = 60

// fragTail is the shortest token taken for the last, short line of a
// body once a neighbour is reported.
const oldFragTail = 12

// structure is what a private key's bytes show even when cut anywhere:
// the openssh-key-v1 fields, cipher and KDF names, key type names.
var oldStructure = [][]byte{
	[]byte("openssh-key-v1"), []byte("bcrypt"), []byte("aes256-ctr"), []byte("aes256-gcm"),
	[]byte("ssh-ed25519"), []byte("ecdsa-sha2"), []byte("ssh-rsa"), []byte("ssh-dss"), []byte("nistp256"),
}

// fragToken returns the longest base64 token of a line, "" when none is
// at least min characters. Quotes, "=", ":", and other marks split the
// line; a piece of it written with spaces counts as one token when its
// words all have the width of the first (a body re-spaced every n
// characters), else each word is a token of its own.
func oldFragToken(line string, min int) string {
	best := ""

	seg := func(s string) {
		n, w0, total := 0, 0, 0
		uniform, short := true, false
		for k := 0; k < len(s); {
			for k < len(s) && oldIsSpaceByte(s[k]) {
				k++
			}
			if k == len(s) {
				break
			}
			from := k
			for k < len(s) && !oldIsSpaceByte(s[k]) {
				k++
			}
			w := s[from:k]
			if len(w) > len(best) && len(w) >= min {
				best = w
			}

			switch {
			case n == 0:
				w0 = len(w)
			case short:
				uniform = false
			case len(w) > w0:
				uniform = false
			case len(w) < w0:
				short = true
			}
			n++
			total += len(w)
		}
		if n > 1 && w0 >= 4 && w0 <= 16 && uniform && total > len(best) && total >= min {
			best = strings.Join(strings.Fields(s), "")
		}
	}
	from := 0
	for k := 0; k <= len(line); k++ {
		if k == len(line) || !oldFragByte[line[k]] {
			seg(line[from:k])
			from = k + 1
		}
	}
	if best == "" || oldAllHex(best) || !oldMixedCase(best) {
		return ""
	}
	return best
}

// fragByte holds the bytes a segment of fragToken is made of: base64
// but '=', and spaceBytes. A table, since every byte of a line is asked.
var oldFragByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = oldIsB64Byte(byte(c)) && c != '=' || oldIsSpaceByte(byte(c))
	}
	return t
}()

func oldAllHex(s string) bool {
	for k := 0; k < len(s); k++ {
		c := s[k]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func oldMixedCase(s string) bool {
	up, low := false, false
	for k := 0; k < len(s); k++ {
		up = up || 'A' <= s[k] && s[k] <= 'Z'
		low = low || 'a' <= s[k] && s[k] <= 'z'
	}
	return up && low
}

// decodeAt decodes tok from its off-th character, dropping what does not
// fill a group of four: a line cut from a body starts anywhere in a group.
func oldDecodeAt(tok string, off int) []byte {
	s := tok[off:]
	s = s[:len(s)/4*4]
	out := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, _ := base64.StdEncoding.Decode(out, []byte(s))
	return out[:n]
}

// publicBlob reports a token that is an SSH public key, whole or cut
// after its type name: what acces.md quotes honestly.
func oldPublicBlob(tok string) bool {
	if !strings.HasPrefix(tok, "AAAA") {
		return false
	}
	raw := oldDecodeAt(strings.TrimRight(tok, "="), 0)
	if _, err := ssh.ParsePublicKey(raw); err == nil {
		return true
	}
	full := make([]byte, base64.StdEncoding.DecodedLen(len(tok)))
	if n, err := base64.StdEncoding.Decode(full, []byte(tok)); err == nil {
		if _, err := ssh.ParsePublicKey(full[:n]); err == nil {
			return true
		}
	}
	if len(raw) > 8 {
		n := int(raw[0])<<24 | int(raw[1])<<16 | int(raw[2])<<8 | int(raw[3])
		if n < 64 && 4+n <= len(raw) {
			name := string(raw[4 : 4+n])
			for _, p := range []string{"ssh-", "ecdsa-", "sk-", "rsa-"} {
				if strings.HasPrefix(name, p) {
					return true
				}
			}
		}
	}
	return false
}

func oldHasStructure(tok string) bool {
	for off := 0; off < 4 && off < len(tok); off++ {
		raw := oldDecodeAt(tok, off)
		for _, s := range oldStructure {
			if bytes.Contains(raw, s) {
				return true
			}
		}
	}
	return false
}

// fragments marks body fragments: see the comment above.
func (d *oldDetector) fragments() {
	n := len(d.ls)
	cand := make([]uint8, n)
	armour := false
	var arr [256]byte
	buf := arr[:0]
	for i := 0; i < n; i++ {
		raw := strings.TrimSuffix(d.text[d.start[i]:d.start[i+1]], "\n")
		if d.ls[i].kind == oldKBlank {
			continue
		}
		if strings.Contains(raw, "-") {
			buf = oldCompact(buf[:0], raw)
			if bytes.Contains(buf, []byte("BEGIN")) && !bytes.Contains(buf, []byte("PRIVATE")) {
				armour = true
				continue
			}
			if armour && bytes.Contains(buf, []byte("END")) {
				armour = false
				continue
			}
		}
		if armour || d.mark[i] || len(raw) < oldFragTail {
			continue
		}
		tok := oldFragToken(raw, oldFragTail)
		if tok == "" || oldPublicBlob(tok) {
			continue
		}

		if len(tok) >= oldFragMin || !oldContainsAfter(raw, "SHA256:", tok) && !oldContainsAfter(raw, "MD5:", tok) {
			cand[i] = 1
		}
		if len(tok) >= oldFragMin && oldRandom(tok) {
			cand[i] = 2
			if oldHasStructure(tok) || len(tok) >= oldFragAlone && oldHasDigit(tok) {
				d.mark[i] = true
			}
		}
	}

	prev := -1
	for i := 0; i < n; i++ {
		if d.ls[i].kind == oldKBlank {
			continue
		}
		if cand[i] == 2 && prev >= 0 && cand[prev] == 2 {
			d.mark[i], d.mark[prev] = true, true
		}
		prev = i
	}

	spread := func(i, p int) {
		if p >= 0 && cand[i] > 0 && !d.mark[i] && d.mark[p] {
			d.mark[i] = true
		}
	}
	prev = -1
	for i := 0; i < n; i++ {
		if d.ls[i].kind != oldKBlank {
			spread(i, prev)
			prev = i
		}
	}
	prev = -1
	for i := n - 1; i >= 0; i-- {
		if d.ls[i].kind != oldKBlank {
			spread(i, prev)
			prev = i
		}
	}
}

// containsAfter is strings.Contains(s, prefix+tok) without making the
// string: some occurrence of tok has prefix just before it.
func oldContainsAfter(s, prefix, tok string) bool {
	for from := 0; from <= len(s); {
		j := strings.Index(s[from:], tok)
		if j < 0 {
			return false
		}
		j += from
		if j >= len(prefix) && s[j-len(prefix):j] == prefix {
			return true
		}
		from = j + 1
	}
	return false
}

func oldHasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// LooksLikeFragment reports whether s holds a base64 token long enough
// to be cut from a key body (a fingerprint's or a public key's spared):
// whoever quotes a short value it did not expect (a config value, a
// name) leaves such a one out even when no line of it was reported.
func oldLooksLikeFragment(s string) bool {
	tok := oldFragToken(s, oldFragTail+4)
	return tok != "" && !oldPublicBlob(tok) && !strings.Contains(s, "SHA256:"+tok)
}

// random reports a token shaped like random base64 rather than words:
// capitals and small letters both frequent and mixed letter by letter. A
// body line of 64 characters has about 26 of each and 20 changes of case;
// a path (/tmp/TestDateForms…/001) or a camelCase name has few changes.
func oldRandom(tok string) bool {
	up, low, switches := 0, 0, 0
	prev := byte(0)
	for k := 0; k < len(tok); k++ {
		c := tok[k]
		var cs byte
		switch {
		case 'A' <= c && c <= 'Z':
			up, cs = up+1, 'A'
		case 'a' <= c && c <= 'z':
			low, cs = low+1, 'a'
		default:
			continue
		}
		if prev != 0 && prev != cs {
			switches++
		}
		prev = cs
	}
	return up*8 >= len(tok) && low*8 >= len(tok) && switches*8 >= len(tok)
}
