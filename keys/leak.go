package keys

import (
	"bytes"
	"encoding/base64"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
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
func MaterialLines(text string) []int {
	var out []int
	for i, m := range MaterialMask(text) {
		if m {
			out = append(out, i+1)
		}
	}
	return out
}

// MaterialMask is MaterialLines as one flag per line (index 0 is line
// 1): one byte a line, for the readers of large files.
func MaterialMask(text string) []bool { return MaterialMaskAt(text, nil) }

// MaterialMaskAt is MaterialMask for a reader that has already split text
// into lines as pret does: line i is text[starts[i]:starts[i+1]], its
// "\n" included, one more offset than lines. The detector reads those
// offsets rather than making its own: on a 1 MiB file of empty lines
// they are 4 MiB. starts is only read, and never kept; nil (or a table
// that does not fit text) makes the detector split text itself.
func MaterialMaskAt(text string, starts []int32) []bool {
	d := newDetector(text, starts)
	d.classify()
	d.run()
	d.fragments()
	mark := d.mark
	d.release()
	return mark
}

// HasMaterial reports whether text holds any private key material.
func HasMaterial(text string) bool { return len(MaterialLines(text)) > 0 }

type kind uint8

const (
	kOther kind = iota
	kBlank
	kB64       // one token of base64 alphabet only
	kPEMHeader // Proc-Type:, DEK-Info:, Comment:, Subject: … inside a PEM block
	kPuTTY     // a PuTTY key file header other than the first
	kPuTTYStart
	kBegin  // BEGIN … PRIVATE KEY (possibly ending on a later line)
	kEnd    // END … PRIVATE KEY
	kDashes // a line of dashes only: the first half of a split marker
)

// Flags of a line.
const (
	fMagic   = 1 << iota // holds b3BlbnNzaC1rZXktdjE, spaces ignored
	fEncrypt             // Proc-Type: 4,ENCRYPTED or DEK-Info
	fClosing             // PuTTY Private-MAC / Private-Hash: the last line
	fPrivAt              // PuTTY Private-Lines: key material follows
	fCand                // its base64 may start a key: decode it
	fLoose               // base64 once its spaces are removed: a body line re-spaced
	fHeader              // "Name: value", the shape of a PEM header (Version:, Comment:)
	fBody                // may hold a body-length token (fragments asks mayBodyToken)
)

// cline is what the detector keeps of a line: three bytes, so that a
// 1 MiB file of short lines costs a few MiB, not one string per line.
type cline struct {
	kind   kind
	flags  uint8
	joined uint8 // kBegin/kEnd: the marker ends this many lines later
}

const magicB64 = "b3BlbnNzaC1rZXktdjE"

var magicB64Bytes = []byte(magicB64)

// compact appends to buf the line upper-cased with every space, format
// character and Markdown quote removed: what a marker is compared on.
func compact(buf []byte, s string) []byte {
	for _, r := range s {
		if r < utf8.RuneSelf {
			// ASCII, most of every file: the same answers as below
			// (no ASCII rune is Cf) without the tables.
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
func strip(s string) string {
	s = strings.TrimSuffix(s, "\r")
	for {
		if s == "" || isAlnum(s[0]) && isAlnum(s[len(s)-1]) && listMarker(s) == 0 {
			return s // nothing around it to remove: a turn would find t == s
		}
		t := trimDeco(s)
		t = strings.TrimPrefix(t, ">")
		t = t[listMarker(t):]
		if t == s {
			return t
		}
		s = t
	}
}

// decoRune is what strip trims at either end of a line.
func decoRune(r rune) bool {
	return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) || r == '`' || r == '"' || r == '\'' || r == '|'
}

// decoByte is decoRune for ASCII (no ASCII rune is Cf), as a table.
var decoByte = func() (t [utf8.RuneSelf]bool) {
	for c := range rune(utf8.RuneSelf) {
		t[c] = decoRune(c)
	}
	return t
}()

// trimDeco is strings.TrimFunc(s, decoRune), the rune tables asked only
// for the bytes from 0x80 on.
func trimDeco(s string) string {
	for len(s) > 0 {
		if c := s[0]; c < utf8.RuneSelf {
			if !decoByte[c] {
				break
			}
			s = s[1:]
			continue
		}
		r, n := utf8.DecodeRuneInString(s)
		if !decoRune(r) {
			break
		}
		s = s[n:]
	}
	for len(s) > 0 {
		if c := s[len(s)-1]; c < utf8.RuneSelf {
			if !decoByte[c] {
				break
			}
			s = s[:len(s)-1]
			continue
		}
		r, n := utf8.DecodeLastRuneInString(s)
		if !decoRune(r) {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}

// listMarker is the length of a Markdown list marker opening s: "- ",
// "* ", "+ ", "12. ", "3) "; 0 when there is none.
func listMarker(s string) int {
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
func looseB64(s string) bool {
	// Any other byte says no: prose ends with one more often than not.
	if len(s) == 0 {
		return false
	}
	if c := s[len(s)-1]; c < utf8.RuneSelf && !isB64Byte(c) && c != ' ' && (c < '\t' || c > '\r') {
		return false
	}
	n, pieces, in := 0, 0, false
	for k := 0; k < len(s); {
		c := s[k]
		if c >= utf8.RuneSelf {
			// Past ASCII only a space (NBSP, …) may stand in a body.
			r, w := utf8.DecodeRuneInString(s[k:])
			if !unicode.IsSpace(r) {
				return false
			}
			in = false
			k += w
			continue
		}
		k++
		switch {
		case c == ' ' || '\t' <= c && c <= '\r':
			in = false
		case isB64Byte(c):
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
func headerShape(s string) bool {
	i := 0
	for i < len(s) && (isAlnum(s[i]) || s[i] == '-' && i > 0) {
		i++
	}
	return i > 0 && i < len(s) && s[i] == ':' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t')
}

func wordQuote(c byte) bool { return c == '`' || c == '"' || c == '\'' || c == '>' }

func isAlnum(c byte) bool { return byteIs[c]&bAlnum != 0 }

func isB64Byte(c byte) bool { return byteIs[c]&bB64 != 0 }

// byteIs answers isAlnum and isB64Byte with one load: they are asked
// of nearly every byte.
const (
	bAlnum = 1 << iota
	bB64
)

var byteIs = func() (t [256]uint8) {
	for c := range 256 {
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			t[c] |= bAlnum | bB64
		}
		if c == '+' || c == '/' || c == '=' {
			t[c] |= bB64
		}
	}
	return t
}()

func allB64(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isB64Byte(s[i]) {
			return false
		}
	}
	return true
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }

// lastWord and firstWord of a stripped line, quotes trimmed; "" when the
// word holds anything but base64.
func lastWord(s string) string {
	// b64Word(s[i:]) for the last space at i-1, read from the end: quotes,
	// then base64, then quotes, then a space or the start. Prose ends at
	// its first byte ("organisateurs.").
	e := len(s)
	for e > 0 && wordQuote(s[e-1]) {
		e--
	}
	b := e
	for b > 0 && isB64Byte(s[b-1]) {
		b--
	}
	q := b
	for q > 0 && wordQuote(s[q-1]) {
		q--
	}
	if b == e || q > 0 && !isSpaceByte(s[q-1]) {
		return ""
	}
	return s[b:e]
}

func firstWord(s string) string {
	i := 0
	for i < len(s) && !isSpaceByte(s[i]) {
		i++
	}
	return b64Word(s[:i])
}

func b64Word(w string) string {
	// strings.Trim(w, "`\"'>") without building its set on each call.
	for len(w) > 0 && wordQuote(w[0]) {
		w = w[1:]
	}
	for len(w) > 0 && wordQuote(w[len(w)-1]) {
		w = w[:len(w)-1]
	}
	if allB64(w) {
		return w
	}
	return ""
}

// mayStartKey is the cheap test before decoding: DER starts with 0x30,
// "M" in base64; the openssh magic, whole or cut at the line's end.
func mayStartKey(tok string) bool {
	if tok == "" {
		return false
	}
	if tok[0] == 'M' {
		return true
	}
	from := len(tok) - len(magicB64)
	if from < 0 {
		from = 0
	}
	for i := from; i < len(tok); i++ {
		if tok[i] == 'b' && (strings.HasPrefix(magicB64, tok[i:]) || strings.HasPrefix(tok[i:], magicB64)) {
			return true
		}
	}
	return false
}

var puttyHeaders = []string{"ENCRYPTION:", "COMMENT:", "PUBLIC-LINES:", "PRIVATE-LINES:", "PRIVATE-MAC:", "PRIVATE-HASH:",
	"KEY-DERIVATION:", "ARGON2-MEMORY:", "ARGON2-PASSES:", "ARGON2-PARALLELISM:", "ARGON2-SALT:"}

var pemHeaders = []string{"PROC-TYPE:", "DEK-INFO:", "COMMENT:", "SUBJECT:", "X-"}

type detector struct {
	text  string
	start []int32 // line i is text[start[i]:start[i+1]], its "\n" included
	ls    []cline
	mark  []bool
	// borrowed: start is a caller's (MaterialMaskAt), and own the
	// detector's own table, kept for the next file.
	borrowed bool
	own      []int32
	cand     []uint8 // fragments' table, kept with the others
	// Line buffers of classify, kept from file to file: compact forms
	// of a line and of the next, a line without its spaces.
	buf, nbuf, mbuf []byte
}

// dropSpaced is appendDropSpace into *buf, kept for the next line.
func dropSpaced(buf *[]byte, s string) []byte {
	*buf = appendDropSpace((*buf)[:0], s)
	return *buf
}

// maxBuf is the largest line buffer kept in the pool.
const maxBuf = 4096

// detectors keeps the line tables of one file for the next: a run over
// many one-page files then makes only the mask it returns.
var detectors = sync.Pool{New: func() any { return new(detector) }}

// maxPooled is the most lines whose tables go back to the pool: a 1 MiB
// file of short lines is read once, its tables are not kept.
const maxPooled = 4096

func newDetector(text string, starts []int32) *detector {
	n := strings.Count(text, "\n")
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	d := detectors.Get().(*detector)
	d.text = text
	if len(starts) == n+1 && starts[0] == 0 && starts[n] == int32(len(text)) {
		d.own, d.start, d.borrowed = d.start, starts, true
		if cap(d.ls) < n {
			d.ls = make([]cline, n)
		}
		d.ls, d.mark = d.ls[:n], make([]bool, n)
		clear(d.ls)
		return d
	}
	if cap(d.start) < n+1 {
		d.start = make([]int32, 0, n+1)
	}
	if cap(d.ls) < n {
		d.ls = make([]cline, n)
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
func (d *detector) release() {
	d.text, d.mark = "", nil
	if d.borrowed {
		d.start, d.own, d.borrowed = d.own, nil, false // the caller's table is not kept
	}
	for _, b := range []*[]byte{&d.buf, &d.nbuf, &d.mbuf} {
		if cap(*b) > maxBuf {
			*b = nil // a long line's buffer is not kept
		}
	}
	if cap(d.start) <= maxPooled+1 && cap(d.ls) <= maxPooled && cap(d.cand) <= maxPooled {
		detectors.Put(d)
	}
}

// line is line i without its break, stripped of its decoration.
func (d *detector) line(i int) string { return strip(d.raw(i)) }

// raw is line i without its "\n", as written.
func (d *detector) raw(i int) string {
	return strings.TrimSuffix(d.text[d.start[i]:d.start[i+1]], "\n")
}

// token is the base64 a line may contribute to a body: the whole line for
// kB64, else its last word.
func (d *detector) token(i int) string {
	if d.ls[i].kind == kB64 {
		return d.line(i)
	}
	return lastWord(d.line(i))
}

func (d *detector) classify() {
	// Line buffers of the pooled detector: a file of short lines
	// makes none.
	buf, nbuf, mbuf := d.buf[:0], d.nbuf[:0], d.mbuf[:0]
	defer func() { d.buf, d.nbuf, d.mbuf = buf, nbuf, mbuf }()
	// One pass: marker, the only step that looks at the lines after
	// this one, asks blankAt, which is what kind will say of them.
	for i := range d.ls {
		raw := d.raw(i)
		s := strip(raw)
		c := &d.ls[i]
		if s == "" {
			c.kind = kBlank
			continue
		}
		// One look at every byte of the line, for the tests below that
		// need a byte to be there: s is a part of raw, so a byte raw
		// lacks, s lacks.
		seen, upper := classBytes(raw)
		// A token of fragMin that random accepts has a capital in
		// eight of its characters: six at least.
		if len(raw) >= fragMin && upper*8 >= fragMin {
			c.flags |= fBody
		}
		b64 := allB64(s)
		if b64 {
			c.kind = kB64
		}
		// Both ways of holding the magic hold its X, Z, E and j, and
		// prose seldom has a capital X.
		if seen&cMagic == cMagic && (strings.Contains(s, magicB64) || strings.ContainsAny(s, " \t>") && mayHoldMagic(s) && bytes.Contains(dropSpaced(&mbuf, s), magicB64Bytes)) {
			c.flags |= fMagic
		}
		if b64 {
			if mayStartKey(s) {
				c.flags |= fCand
			}
			continue
		}
		if mayStartKey(lastWord(s)) {
			c.flags |= fCand
		}
		if seen&cHard == 0 && looseB64(s) {
			c.flags |= fLoose
		}
		if headerShape(s) {
			c.flags |= fHeader
		}
		if !mayMarker(s, seen&cDash != 0) {
			continue // marker would leave the line as it is: no copy
		}
		buf = compact(buf[:0], s)
		// Tested on the bytes first: most lines are prose, and their
		// string would be garbage made for nothing.
		if len(buf) == 0 || !bytes.Contains(buf, []byte("BEGIN")) && !bytes.Contains(buf, []byte("END")) && bytes.IndexByte(buf, ':') < 0 && buf[0] != '-' && !bytes.HasPrefix(buf, []byte("PUTTY")) {
			continue // prose: no marker, no header
		}
		if !markerShape(buf) {
			continue // marker would leave the line as it is
		}
		nbuf = d.marker(i, c, string(buf), nbuf)
	}
}

// Classes of bytes for classify's look at a line: bits that say a byte
// is there, and in the high byte one for a capital, to count them.
const (
	cMagic = 0xf    // X, Z, E and j: the magic's rarer letters, all seen
	cDash  = 1 << 4 // '-'
	cHard  = 1 << 5 // ASCII that is neither base64 nor a space, and that strip never removes: looseB64 says no
	cUpper = 1 << 8 // 'A' to 'Z'
)

// classBytes is the union of the classes of the bytes of raw, and the
// number of its capitals: the one loop that reads every byte of every
// line. A line shorter than 512 bytes is read with one addition a byte
// (classCount: a count of each class in 9 bits), a longer one byte by
// byte.
func classBytes(raw string) (seen uint16, upper int) {
	if len(raw) >= 1<<classWidth {
		for k := 0; k < len(raw); k++ {
			v := lineClass[raw[k]]
			seen |= v
			upper += int(v >> 8)
		}
		return seen, upper
	}
	var sum uint64
	for len(raw) >= 8 {
		sum += classCount[raw[0]] + classCount[raw[1]] + classCount[raw[2]] + classCount[raw[3]] +
			classCount[raw[4]] + classCount[raw[5]] + classCount[raw[6]] + classCount[raw[7]]
		raw = raw[8:]
	}
	for k := 0; k < len(raw); k++ {
		sum += classCount[raw[k]]
	}
	// A field is not zero when one of its nine bits is set: fold them
	// onto its lowest bit.
	const field = 1<<classWidth - 1
	nz := sum | sum>>1 | sum>>2 | sum>>3 | sum>>4 | sum>>5 | sum>>6 | sum>>7 | sum>>8
	for b := range classFields {
		seen |= uint16(nz>>(b*classWidth)&1) << b
	}
	upper = int(sum >> (classFields * classWidth) & field)
	if upper > 0 {
		seen |= cUpper
	}
	return seen, upper
}

// classCount holds for each byte a 1 in the 9-bit field of each class
// of lineClass it is in: bits 0 to 5 of lineClass, then cUpper.
const (
	classWidth  = 9
	classFields = 6
)

var classCount = func() (t [256]uint64) {
	for c := range 256 {
		for b := range classFields {
			if lineClass[c]&(1<<b) != 0 {
				t[c] |= 1 << (b * classWidth)
			}
		}
		if lineClass[c]&cUpper != 0 {
			t[c] |= 1 << (classFields * classWidth)
		}
	}
	return t
}()

var lineClass = func() (t [256]uint16) {
	for c := range 256 {
		b := byte(c)
		switch b {
		case 'X':
			t[c] |= 1
		case 'Z':
			t[c] |= 2
		case 'E':
			t[c] |= 4
		case 'j':
			t[c] |= 8
		case '-':
			t[c] |= cDash
		}
		if b < utf8.RuneSelf && !isB64Byte(b) && !unicode.IsSpace(rune(b)) && !strings.ContainsRune("`\"'|>-*.)", rune(b)) {
			t[c] |= cHard
		}
		if 'A' <= b && b <= 'Z' {
			t[c] |= cUpper
		}
	}
	return t
}()

// blankAt is whether line j is (or will be, once classified) kBlank.
func (d *detector) blankAt(j int) bool { return d.line(j) == "" }

// marker reads a line that may be a marker or a header, k its compact
// form; nbuf is a buffer for the next line's, returned for reuse.
func (d *detector) marker(i int, c *cline, k string, nbuf []byte) []byte {
	next, nextAt := "", 0
	nextFn := func() (string, int) {
		if nextAt == 0 {
			for j := i + 1; j < len(d.ls) && j <= i+8; j++ {
				if !d.blankAt(j) {
					nbuf = compact(nbuf[:0], d.line(j))
					next, nextAt = string(nbuf), j-i
					break
				}
			}
		}
		return next, nextAt
	}
	switch {
	case strings.Trim(k, "-") == "" && len(k) >= 3:
		c.kind = kDashes
	case beginAt(k) >= 0:
		b := beginAt(k)
		switch {
		case strings.Contains(k[b:], "PRIVATEKEY"):
			c.kind = kBegin
		case !strings.Contains(k[b:], "KEY") && !strings.HasSuffix(k, "-----"):
			if nx, at := nextFn(); strings.Contains(k[b:]+nx, "PRIVATEKEY") {
				c.kind, c.joined = kBegin, uint8(at)
			}
		case strings.HasSuffix(k, "PRIVATE"):
			if nx, at := nextFn(); strings.HasPrefix(nx, "KEY") {
				c.kind, c.joined = kBegin, uint8(at)
			}
		}
	case endAt(k) >= 0:
		e := endAt(k)
		if strings.Contains(k[e:], "PRIVATEKEY") {
			c.kind = kEnd
		} else if !strings.HasSuffix(k, "-----") {
			if nx, at := nextFn(); strings.Contains(k[e:]+nx, "PRIVATEKEY") {
				c.kind, c.joined = kEnd, uint8(at)
			}
		}
	case strings.HasPrefix(k, "PUTTY-USER-KEY-FILE-"):
		c.kind = kPuTTYStart
	default:
		for _, h := range puttyHeaders {
			if strings.HasPrefix(k, h) {
				c.kind = kPuTTY
				if h == "PRIVATE-MAC:" || h == "PRIVATE-HASH:" {
					c.flags |= fClosing
				}
				if h == "PRIVATE-LINES:" {
					c.flags |= fPrivAt
				}
			}
		}
		for _, h := range pemHeaders {
			if strings.HasPrefix(k, h) && c.kind == kOther {
				c.kind = kPEMHeader
			}
		}
		if strings.HasPrefix(k, "PROC-TYPE:") && strings.Contains(k, "ENCRYPTED") || strings.HasPrefix(k, "DEK-INFO:") {
			c.kind = kPEMHeader
			c.flags |= fEncrypt
		}
	}
	return nbuf
}

// markerShape is a necessary condition for the switch of classify to
// change a line: a line of dashes, a BEGIN or END marker, or a line
// opening with one of the header names it knows. Markdown list items
// ("- Clé : …") and "Nom : valeur" prose are spared the string copy.
func markerShape(k []byte) bool {
	if bytes.Contains(k, []byte("BEGIN")) || bytes.Contains(k, []byte("END")) {
		return true
	}
	if len(bytes.Trim(k, "-")) == 0 {
		return len(k) >= 3
	}
	if bytes.HasPrefix(k, []byte("PUTTY-USER-KEY-FILE-")) {
		return true
	}
	for _, hs := range [][]string{puttyHeaders, pemHeaders} {
		for _, h := range hs {
			if len(k) >= len(h) && string(k[:len(h)]) == h {
				return true
			}
		}
	}
	return false
}

// markerPrefixes are the starts of a compact line that marker reads: a
// marker without its dashes, the PuTTY first line, the header names.
var markerPrefixes = append(append([]string{"BEGIN", "END", "PUTTY-USER-KEY-FILE-"}, puttyHeaders...), pemHeaders...)

// prefixesBy holds markerPrefixes by their first byte.
var prefixesBy = func() (t [utf8.RuneSelf][]string) {
	for _, p := range markerPrefixes {
		t[p[0]] = append(t[p[0]], p)
	}
	return t
}()

// mayMarker is a necessary condition for marker to change a line s
// (dash: whether s holds a '-'), read on s without making its compact
// form k: k opens with a dash or
// with one of markerPrefixes, or holds "-BE" or "-EN" ("-BEGIN", "-END").
// Every other k is turned away by each case of marker's switch.
func mayMarker(s string, dash bool) bool {
	r, next := nextCompact(s, 0)
	switch {
	case r < 0:
		return false // nothing left: classify skips it as well
	case r == '-':
		return true
	case r < utf8.RuneSelf && prefixesBy[r] != nil:
		// Every prefix is two bytes long at least: the second rune
		// turns most lines away ("Connexion" is not "COMMENT:").
		r2, _ := nextCompact(s, next)
		for _, p := range prefixesBy[r] {
			if rune(p[1]) == r2 && compactHasPrefix(s, p) {
				return true
			}
		}
	}
	// Only a '-' of s is a '-' of k (no other rune upper-cases to it);
	// dash is false when the line has none.
	for at := 0; dash; {
		j := strings.IndexByte(s[at:], '-')
		if j < 0 {
			return false
		}
		at += j + 1
		r, next := nextCompact(s, at)
		if r == 'B' || r == 'E' {
			if r2, _ := nextCompact(s, next); r == 'B' && r2 == 'E' || r == 'E' && r2 == 'N' {
				return true
			}
		}
	}
	return false
}

// nextCompact is the next rune of compact's form of s from byte i on,
// and the byte after it; -1 at the end.
func nextCompact(s string, i int) (rune, int) {
	if i < len(s) {
		if k := compactKeep[s[i]]; k != 0 {
			return rune(k), i + 1 // inlined: most bytes are kept ASCII
		}
	}
	return nextCompactLoop(s, i)
}

// compactKeep is compact's ASCII byte (upper-cased), 0 for one it drops
// (white space, '>', '`', '|'), for NUL and past ASCII: the loop reads
// those.
var compactKeep = func() (t [256]byte) {
	for c := range byte(utf8.RuneSelf) {
		if k := compact(nil, string(rune(c))); len(k) == 1 {
			t[c] = k[0]
		}
	}
	return t
}()

func nextCompactLoop(s string, i int) (rune, int) {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == ' ' || '\t' <= c && c <= '\r' || c == '>' || c == '`' || c == '|':
				continue
			case 'a' <= c && c <= 'z':
				return rune(c - 'a' + 'A'), i
			}
			return rune(c), i
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			continue
		}
		return unicode.ToUpper(r), i
	}
	return -1, i
}

// compactHasPrefix is bytes.HasPrefix(compact(nil, s), p) for an ASCII p,
// read no further than p's length.
func compactHasPrefix(s, p string) bool {
	i := 0
	for k := 0; k < len(p); k++ {
		var r rune
		r, i = nextCompact(s, i)
		if r != rune(p[k]) {
			return false
		}
	}
	return true
}

// mayHoldMagic is a quick necessary test for magicB64 written with
// spaces inside: its rarer letters are all there. Prose has no capital
// X, Z and E together, and is then spared the copy.
func mayHoldMagic(s string) bool {
	return strings.IndexByte(s, 'X') >= 0 && strings.IndexByte(s, 'Z') >= 0 && strings.IndexByte(s, 'E') >= 0 && strings.IndexByte(s, 'j') >= 0
}

// appendDropSpace appends s to buf without its white space and '>', as
// strings.Map(dropSpace, s) would return it, into a buffer reused from
// line to line.
func appendDropSpace(buf []byte, s string) []byte {
	for _, r := range s {
		if r < utf8.RuneSelf {
			// ASCII: dropSpace's answer without the tables.
			if r != ' ' && (r < '\t' || r > '\r') && r != '>' {
				buf = append(buf, byte(r))
			}
			continue
		}
		if dropSpace(r) >= 0 {
			buf = utf8.AppendRune(buf, r)
		}
	}
	return buf
}

func dropSpace(r rune) rune {
	if unicode.IsSpace(r) || r == '>' {
		return -1
	}
	return r
}

// beginAt finds a BEGIN marker: after dashes, or starting the line.
func beginAt(k string) int {
	if i := strings.Index(k, "-BEGIN"); i >= 0 {
		return i + 1
	}
	if strings.HasPrefix(k, "BEGIN") && strings.Contains(k, "KEY") {
		return 0
	}
	return -1
}

func endAt(k string) int {
	if i := strings.Index(k, "-END"); i >= 0 {
		return i + 1
	}
	if strings.HasPrefix(k, "END") && strings.Contains(k, "PRIVATEKEY") {
		return 0
	}
	return -1
}

// markRange marks lines [from, to] and returns to+1.
func (d *detector) markRange(from, to int) int {
	for i := from; i <= to; i++ {
		d.mark[i] = true
	}
	return to + 1
}

// body marks the base64 body that follows line i: base64 tokens, headers
// of the given kind, blank lines between them, and an END line that
// closes it. It returns the first line after the block.
func (d *detector) body(i int, pem bool) int {
	last, seenB64 := i-1, false
	for j := i; j < len(d.ls); j++ {
		c := d.ls[j]
		switch {
		case c.kind == kB64, c.flags&fLoose != 0, c.flags&fMagic != 0:
			last, seenB64 = j, true
		case c.kind == kPEMHeader && pem, c.flags&fHeader != 0 && pem && !seenB64:
			// Headers come before the body: Proc-Type, DEK-Info,
			// Comment, PGP's Version.
			last = j
		case c.kind == kBlank:
		case c.kind == kEnd && pem:
			last = j + int(c.joined)
			return d.markRange(i, last)
		case c.kind == kDashes && pem:
			// "-----" then "END …" split: keep going, the END decides.
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
func (d *detector) putty(i int) int {
	last := i - 1
	for j := i; j < len(d.ls); j++ {
		c := d.ls[j]
		switch c.kind {
		case kPuTTY, kPuTTYStart:
			if c.kind == kPuTTYStart && j > i {
				d.markRange(i, last)
				return j
			}
			last = j
			if c.flags&fClosing != 0 {
				return d.markRange(i, j)
			}
		case kB64:
			last = j
		case kBlank:
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

func (d *detector) run() {
	ls := d.ls
	// pending is where the current run of base64, PuTTY-header and blank
	// lines began: a body found late (an END line, Private-Lines, a DER
	// start) reaches back to it.
	runStart, puttyStart := -1, -1
	for i := 0; i < len(ls); {
		c := ls[i]
		switch {
		case c.kind == kBegin:
			from := i
			if i > 0 && ls[i-1].kind == kDashes {
				from = i - 1
			}
			next := i + int(c.joined)
			d.markRange(from, next)
			i = d.body(next+1, true)
			runStart, puttyStart = -1, -1
			continue
		case c.kind == kEnd:
			// An END line without its BEGIN: the body above it is the key.
			from := i
			if runStart >= 0 {
				from = runStart
			}
			i = d.markRange(from, i+int(c.joined))
			runStart, puttyStart = -1, -1
			continue
		case c.kind == kPuTTYStart:
			i = d.putty(i)
			runStart, puttyStart = -1, -1
			continue
		case c.kind == kPuTTY && (c.flags&fPrivAt != 0 || c.flags&fClosing != 0):
			from := i
			if puttyStart >= 0 {
				from = puttyStart
			}
			d.markRange(from, i)
			if c.flags&fClosing != 0 {
				i++
			} else {
				i = d.putty(i + 1)
			}
			runStart, puttyStart = -1, -1
			continue
		case c.kind == kPEMHeader && c.flags&fEncrypt != 0:
			d.mark[i] = true
			i = d.body(i+1, true)
			runStart, puttyStart = -1, -1
			continue
		case c.flags&fMagic != 0:
			d.mark[i] = true
			i = d.body(i+1, true)
			runStart, puttyStart = -1, -1
			continue
		case c.flags&fCand != 0:
			if ok, through := d.startsKey(i); ok {
				d.markRange(i, through)
				i = d.body(through+1, true)
				runStart, puttyStart = -1, -1
				continue
			}
		}
		switch {
		case c.kind == kB64, c.kind == kPEMHeader, c.flags&fLoose != 0:
			if runStart < 0 {
				runStart = i
			}
		case c.kind == kBlank:
		default:
			runStart = -1
		}
		switch c.kind {
		case kPuTTY:
			if puttyStart < 0 {
				puttyStart = i
			}
		case kB64, kBlank:
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
func (d *detector) startsKey(i int) (ok bool, through int) {
	first := d.token(i)
	if first == "" {
		return false, i
	}
	// The magic starts on this line, whole or cut by a line break.
	for k := max(0, len(first)-len(magicB64)); k < len(first); k++ {
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
	if len(head) < 12 || !derStart(head) {
		return false, i
	}
	all := d.gather(i, first, buf[:])
	all = all[:len(all)/4*4]
	raw := make([]byte, base64.StdEncoding.DecodedLen(len(all)))
	n, err := base64.StdEncoding.Decode(raw, all)
	if err != nil && n == 0 {
		return false, i
	}
	return privateDER(raw[:n]), i
}

// match compares the magic with rest, then with the tokens of the lines
// after i (blank lines skipped, the first word of a prose line taken).
func (d *detector) match(i int, rest string) (bool, int) {
	want := magicB64
	for {
		if len(rest) >= len(want) {
			return strings.HasPrefix(rest, want), i
		}
		if !strings.HasPrefix(want, rest) {
			return false, i
		}
		want = want[len(rest):]
		i++
		for i < len(d.ls) && d.ls[i].kind == kBlank {
			i++
		}
		if i == len(d.ls) {
			return false, i
		}
		if d.ls[i].kind == kB64 {
			rest = d.line(i)
		} else {
			rest = firstWord(d.line(i))
			if rest == "" {
				return false, i
			}
		}
	}
}

// gather fills buf with base64 from first and the kB64 lines after line
// i, up to the first padding or the first other line.
func (d *detector) gather(i int, first string, buf []byte) []byte {
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
		case kBlank:
			continue
		case kB64:
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
func derStart(b64 []byte) bool {
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
func privateDER(b []byte) bool {
	rest, ok := derSeq(b)
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
	inner, ok := derSeq(rest)
	if !ok || len(inner) < 10 || inner[0] != 0x06 {
		return false
	}
	oid := inner[2:]
	pkcs := []byte{0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01}
	if len(oid) < 8 || string(oid[:7]) != string(pkcs) {
		return false
	}
	return oid[7] == 0x05 || oid[7] == 0x0c // PKCS#5 PBES, PKCS#12 PBE
}

// derSeq reads a SEQUENCE header and returns its content start. The
// length must be plausible for a key (at least 16 bytes).
func derSeq(b []byte) ([]byte, bool) {
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
func Redact(text string) (string, []int) {
	mask := MaterialMask(text)
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
