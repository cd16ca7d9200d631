package leak

import (
	"bytes"
	"encoding/hex"
	"strings"
	"unicode"
)

// A key written as hex: a dump ("xxd key >> acces.md", "hexdump -C",
// "od -A x -t x1z"), plain hex ("xxd -p", one long line) or C bytes
// ("xxd -i": "0x2d, 0x2d,") or bytes as openssl prints them ("2d:2d:").
// Consecutive hex lines are decoded together;
// the run is key material when its bytes are: a key file's text, the
// DER of a private key, or OpenSSH's binary key. sha256 sums, commit
// hashes and other hex decode to none of these.

// minHexKey: fewer bytes hold no private key (an ed25519 PKCS#8 is 48).
const minHexKey = 48

// hexDumps returns the lines (1-based, ascending) of the runs of hex
// lines whose bytes are key material. Runs are found on the raw lines
// (hexish), and only one of enough hex digits for a key is read as shown
// and decoded. A run's bytes are read once, and hold half its characters
// at most: the work stays linear.
func (d *doc) hexDumps() []int {
	var (
		out    []int
		buf    []byte
		start  = -1
		from   pos // the run's first line
		digits int
	)
	// check marks lines a to b-1 if buf, their bytes, is key material.
	check := func(a, b int) {
		if len(buf) >= minHexKey && keyBytes(buf) {
			for i := a; i < b; i++ {
				out = append(out, i+1)
			}
		}
		buf = buf[:0]
	}
	flush := func(end pos) {
		if start >= 0 && digits >= 2*minHexKey {
			// A line no hex once shown ("Voir 2d2d2d" in prose) splits the run.
			sub := start
			for p := from; p.i < end.i; p = d.next(p) {
				var ok bool
				if buf, ok = hexLine(d.line(p), buf); !ok {
					check(sub, p.i)
					sub = p.i + 1
				}
			}
			check(sub, end.i)
		}
		start, digits = -1, 0
	}
	p := pos{}
	for p.off < len(d.text) {
		q := d.next(p)
		n := hexish(d.text[p.off:q.off])
		switch {
		case n == 0:
			flush(p)
		case start < 0:
			start, from, digits = p.i, p, n
		default:
			digits += n
		}
		p = q
	}
	flush(p)
	return out
}

// keyBytes reports whether b, decoded from hex, is key material.
func keyBytes(b []byte) bool {
	return bytes.Contains(b, []byte("openssh-key-v1\x00")) || derPrivate(b[:min(len(b), derChars/4*3)]) ||
		len(File(b)) > 0
}

// hexish is a quick look at a raw line, without allocating: the hex
// digits of its words of hex (an offset "00000010:", "2d2d", "0x2d,")
// when they weigh as much as its other words at least, as in every line
// a dump writes and in little prose ("Date de la demande"); else 0.
func hexish(s string) int {
	hex, other := 0, 0
	for w := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' || r == ':' }) {
		h := strings.TrimRight(w, ",:")
		if len(h) > 2 && (h[:2] == "0x" || h[:2] == "0X") {
			h = h[2:]
		}
		if allHex(h) {
			hex += len(h)
		} else if other += len(w); 2*other > len(s) {
			return 0 // hex can no longer weigh as much as the other words
		}
	}
	if hex >= 2 && hex >= other {
		return hex
	}
	return 0
}

func allHex(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.Is(unicode.ASCII_Hex_Digit, r) }) < 0
}

// hexLine appends to buf the bytes of s, a line shown (decoration
// stripped), if it is a line of hex: a dump's line (an offset, the hex,
// maybe the characters) or hex alone. ok is false for any other line.
func hexLine(s string, buf []byte) ([]byte, bool) {
	var area string
	if i := strings.IndexByte(s, ':'); i >= 4 && allHex(s[:i]) {
		// xxd: "00000010: 2d2d 2d2d …  -----BEGIN": the characters after two spaces.
		area, _, _ = strings.Cut(strings.TrimLeft(s[i+1:], " "), "  ")
	} else {
		// hexdump -C and od: the characters between '|' or '>'.
		area, _, _ = strings.Cut(s, "|")
		area, _, _ = strings.Cut(area, ">")
	}
	// The fields read one at a time, none kept: a line of a million
	// words ("a a a …") is refused at its first odd one, for nothing.
	n, count, first := len(buf), 0, ""
	decode := func(f string) bool {
		if g, ok := strings.CutPrefix(strings.ToLower(f), "0x"); ok {
			f = g
		}
		if len(f)%2 != 0 || !allHex(f) {
			return false
		}
		buf, _ = hex.AppendDecode(buf, []byte(f))
		return true
	}
	for f := range strings.FieldsFuncSeq(area, func(r rune) bool { return r == ',' || r == ':' || unicode.IsSpace(r) }) { // "0x2d, 0x2d", openssl's "2d:2d:"
		count++
		switch {
		case count == 1:
			first = f
			continue
		case count == 2 && !(len(first) >= 6 && allHex(first) && len(f) <= 4): // else an offset: "00000010  2d 2d …"
			if !decode(first) {
				return buf[:n], false
			}
		}
		if !decode(f) {
			return buf[:n], false
		}
	}
	if count == 0 || count == 1 && !decode(first) {
		return buf[:n], false
	}
	return buf, true
}
