// Package mdbounds holds what the rules of acces.md (checklist/acces),
// the leak detector (keys/leak) and the signer (keys/signing) agree on
// before reading a page: its lines (LoneCRs), and the Markdown bound
// (goldmark's time grows with the square of the containers one line
// opens, and a page needs three).
package mdbounds

import (
	"bytes"
	"strings"
)

// maxDepth is the most block quotes and lists one line may open.
const maxDepth = 16

// MarkerLen is the length of the block quote or list marker (with its
// space or tab) s starts with, 0 for none.
func MarkerLen(s string) int {
	if strings.HasPrefix(s, ">") {
		return 1
	}
	n := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) // the digits
	switch {
	case n < 0:
		return 0 // digits alone, or nothing
	case n == 0 && strings.IndexByte("-+*", s[0]) >= 0:
	case n >= 1 && n <= 9 && n < len(s) && (s[n] == '.' || s[n] == ')'):
	default:
		return 0
	}
	if n++; n < len(s) && (s[n] == ' ' || s[n] == '\t') {
		return n + 1
	}
	return 0
}

// TooDeep is the offset in page of the first line opening more than 16
// block quotes or lists, -1 for none: such a page is not parsed.
func TooDeep(page string) int {
	for off := 0; off < len(page); {
		line, _, _ := strings.Cut(page[off:], "\n")
		rest := line
		for n := 0; ; n++ {
			rest = strings.TrimLeft(rest, " \t")
			m := MarkerLen(rest)
			if m == 0 {
				break
			} else if n == maxDepth {
				return off
			}
			rest = rest[m:]
		}
		off += len(line) + 1
	}
	return -1
}

// LoneCRs is s with each CR that ends no CRLF as a reader takes it: in
// a file with no LF (classic Mac OS) a line end, LF, as CommonMark,
// browsers and editors see its lines, where goldmark would read one; in
// a file with LF, a space, as goldmark and browsers show it, so that no
// rule reads it as more (outside tester), and the signature's line
// numbers, which count LF, stay those of the file. The length stays,
// and so do offsets.
func LoneCRs(s string) string {
	switch {
	case strings.IndexByte(s, '\r') < 0:
		return s
	case strings.IndexByte(s, '\n') < 0:
		return strings.ReplaceAll(s, "\r", "\n")
	}
	b := []byte(s)
	for i, c := range b {
		if c == '\r' && (i+1 == len(b) || b[i+1] != '\n') {
			b[i] = ' '
		}
	}
	return string(b)
}

// CROnly reports a file of CRs alone, no LF: the one whose CRs LoneCRs
// makes line ends.
func CROnly(data []byte) bool {
	return bytes.IndexByte(data, '\n') < 0 && bytes.IndexByte(data, '\r') >= 0
}
