package keys

import (
	"bytes"
	"encoding/base64"
	"slices"
	"strings"

	"golang.org/x/crypto/ssh"
)

// Fragments of a key body: the lines of a body pasted without any line
// that says what it is (no marker, no magic, no DER start). Seen in the
// wild as `echo "<line>"` in a batch script, `- '<line>'` in a YAML
// list, `--comment=<line>`, a value in a config file, a body re-spaced
// every four characters. Such a line is a long base64 token that is not a
// public key; it is reported when another such line is next to it, when
// it touches a line already reported, or when its bytes alone show the
// structure of a private key. Honest text has long base64 only as public
// keys (parsed and spared), fingerprints (43 characters after
// "SHA256:", shorter than fragMin once the prefix splits them off),
// hexadecimal hashes (spared), or inside a signature, public key or
// certificate armour (spared).

// fragMin is the shortest token taken for a body line: a fingerprint's
// 43 characters stay below it, a body line (64 or 70) above.
const fragMin = 44

// fragAlone is the length from which one token is a key line on its
// own: a body line is 64 (PEM) or 70 (OpenSSH) characters; honest text
// has no such base64 but a public key (spared) or a signature (armoured).
const fragAlone = 60

// fragTail is the shortest token taken for the last, short line of a
// body once a neighbour is reported.
const fragTail = 12

// structure is what a private key's bytes show even when cut anywhere:
// the openssh-key-v1 fields, cipher and KDF names, key type names.
var structure = [][]byte{
	[]byte("openssh-key-v1"), []byte("bcrypt"), []byte("aes256-ctr"), []byte("aes256-gcm"),
	[]byte("ssh-ed25519"), []byte("ecdsa-sha2"), []byte("ssh-rsa"), []byte("ssh-dss"), []byte("nistp256"),
}

// fragToken returns the longest base64 token of a line, "" when none is
// at least min characters. Quotes, "=", ":", and other marks split the
// line; a piece of it written with spaces counts as one token when its
// words all have the width of the first (a body re-spaced every n
// characters), else each word is a token of its own.
func fragToken(line string, min int) string {
	best := ""
	// seg walks the words of s in place (s holds base64 and spaceBytes
	// only, so they are strings.Fields(s)); the joined form is built only
	// when it wins: most lines have no token worth a copy.
	seg := func(s string) {
		n, w0, total := 0, 0, 0
		uniform, short := true, false
		for k := 0; k < len(s); {
			for k < len(s) && isSpaceByte(s[k]) {
				k++
			}
			if k == len(s) {
				break
			}
			from := k
			for k < len(s) && !isSpaceByte(s[k]) {
				k++
			}
			w := s[from:k]
			if len(w) > len(best) && len(w) >= min {
				best = w
			}
			// The words all have the width of the first, but the last,
			// which may be shorter.
			switch {
			case n == 0:
				w0 = len(w)
			case short:
				uniform = false // a word after a shorter one
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
		if k == len(line) || !fragByte[line[k]] {
			seg(line[from:k])
			from = k + 1
		}
	}
	if best == "" || allHex(best) || !mixedCase(best) {
		return ""
	}
	return best
}

// fragByte holds the bytes a segment of fragToken is made of: base64
// but '=', and spaceBytes. A table, since every byte of a line is asked.
var fragByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isB64Byte(byte(c)) && c != '=' || isSpaceByte(byte(c))
	}
	return t
}()

func allHex(s string) bool {
	for k := 0; k < len(s); k++ {
		c := s[k]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func mixedCase(s string) bool {
	up, low := false, false
	for k := 0; k < len(s); k++ {
		up = up || 'A' <= s[k] && s[k] <= 'Z'
		low = low || 'a' <= s[k] && s[k] <= 'z'
	}
	return up && low
}

// decodeAt decodes tok from its off-th character, dropping what does not
// fill a group of four: a line cut from a body starts anywhere in a group.
func decodeAt(tok string, off int) []byte {
	s := tok[off:]
	s = s[:len(s)/4*4]
	out := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, _ := base64.StdEncoding.Decode(out, []byte(s))
	return out[:n]
}

// publicBlob reports a token that is an SSH public key, whole or cut
// after its type name: what acces.md quotes honestly.
func publicBlob(tok string) bool {
	if !strings.HasPrefix(tok, "AAAA") {
		return false
	}
	raw := decodeAt(strings.TrimRight(tok, "="), 0)
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

func hasStructure(tok string) bool {
	for off := 0; off < 4 && off < len(tok); off++ {
		raw := decodeAt(tok, off)
		for _, s := range structure {
			if bytes.Contains(raw, s) {
				return true
			}
		}
	}
	return false
}

// fragments marks body fragments: see the comment above.
func (d *detector) fragments() {
	// Only a reported line or a body-length token (cand 2 below) can
	// report a line here: a text with neither, most of them, is done.
	if !slices.Contains(d.mark, true) && !d.mayHoldBodyToken() {
		return
	}
	n := len(d.ls)
	if cap(d.cand) < n {
		d.cand = make([]uint8, n)
	}
	cand := d.cand[:n] // 0 none, 1 tail-length token, 2 body-length token
	clear(cand)
	armour := false
	var arr [256]byte
	buf := arr[:0]
	for i := 0; i < n; i++ {
		raw := strings.TrimSuffix(d.text[d.start[i]:d.start[i+1]], "\n")
		if d.ls[i].kind == kBlank {
			continue
		}
		if strings.Contains(raw, "-") {
			buf = compact(buf[:0], raw)
			if bytes.Contains(buf, []byte("BEGIN")) && !bytes.Contains(buf, []byte("PRIVATE")) {
				armour = true
				continue
			}
			if armour && bytes.Contains(buf, []byte("END")) {
				armour = false
				continue
			}
		}
		if armour || d.mark[i] || len(raw) < fragTail {
			continue
		}
		tok := fragToken(raw, fragTail)
		if tok == "" || publicBlob(tok) {
			continue
		}
		// A short token counts unless it is a fingerprint, the one
		// short base64 honest text writes next to a key.
		if len(tok) >= fragMin || !containsAfter(raw, "SHA256:", tok) && !containsAfter(raw, "MD5:", tok) {
			cand[i] = 1
		}
		if len(tok) >= fragMin && random(tok) {
			cand[i] = 2
			if hasStructure(tok) || len(tok) >= fragAlone && hasDigit(tok) {
				d.mark[i] = true
			}
		}
	}
	// Runs of body-length tokens, blank lines between them allowed.
	prev := -1
	for i := 0; i < n; i++ {
		if d.ls[i].kind == kBlank {
			continue
		}
		if cand[i] == 2 && prev >= 0 && cand[prev] == 2 {
			d.mark[i], d.mark[prev] = true, true
		}
		prev = i
	}
	// A token next to a reported line is more of the same body: spread
	// down, then up.
	spread := func(i, p int) {
		if p >= 0 && cand[i] > 0 && !d.mark[i] && d.mark[p] {
			d.mark[i] = true
		}
	}
	prev = -1
	for i := 0; i < n; i++ {
		if d.ls[i].kind != kBlank {
			spread(i, prev)
			prev = i
		}
	}
	prev = -1
	for i := n - 1; i >= 0; i-- {
		if d.ls[i].kind != kBlank {
			spread(i, prev)
			prev = i
		}
	}
}

// mayHoldBodyToken reports whether some line may be a candidate of
// length fragMin (cand 2 in fragments), armour and reported lines left
// aside: mayBodyToken first, then fragToken on the few lines it lets by.
func (d *detector) mayHoldBodyToken() bool {
	for i := range d.ls {
		if d.ls[i].flags&fBody == 0 {
			continue // blank, short, or too few capitals for random
		}
		raw := d.raw(i)
		if !mayBodyToken(raw) {
			continue
		}
		tok := fragToken(raw, fragTail)
		if len(tok) >= fragMin && random(tok) && !publicBlob(tok) {
			return true
		}
	}
	return false
}

// mayBodyToken is a necessary condition for fragToken(s, …) to be
// fragMin long: a token is a word of a segment (a run of fragByte
// bytes) or, when the segment's first word is 4 to 16 wide, the words
// of the segment joined. So some word is fragMin long, or some segment
// whose first word is 4 to 16 wide holds fragMin word bytes. A
// fingerprint (43) followed by a comment is neither.
func mayBodyToken(s string) bool {
	if len(s) < fragMin {
		return false
	}
	// word: the current word's length; first: the first word's of the
	// segment (0 while it is not over); total: the segment's word bytes.
	word, first, total := 0, 0, 0
	for k := 0; k < len(s); k++ {
		switch fragClass[s[k]] {
		case fragWord:
			// A whole word at once: it starts here (word is 0).
			j := k + 1
			for j < len(s) && fragClass[s[j]] == fragWord {
				j++
			}
			if j-k >= fragMin {
				return true
			}
			word = j - k
			total += word
			k = j - 1
		case fragSpace:
			if word > 0 && first == 0 {
				first = word
			}
			word = 0
		default:
			if first == 0 {
				first = word
			}
			if first >= 4 && first <= 16 && total >= fragMin {
				return true
			}
			if len(s)-k-1 < fragMin {
				return false // too few bytes left for a token
			}
			word, first, total = 0, 0, 0
		}
	}
	if first == 0 {
		first = word
	}
	return first >= 4 && first <= 16 && total >= fragMin
}

// fragClass sorts the bytes for mayBodyToken: a segment's word bytes
// (fragByte but spaceBytes), its spaces, and the rest, which ends it.
const (
	fragEnd = iota
	fragSpace
	fragWord
)

var fragClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case isSpaceByte(byte(c)):
			t[c] = fragSpace
		case fragByte[c]:
			t[c] = fragWord
		}
	}
	return t
}()

// containsAfter is strings.Contains(s, prefix+tok) without making the
// string: some occurrence of tok has prefix just before it.
func containsAfter(s, prefix, tok string) bool {
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

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// LooksLikeFragment reports whether s holds a base64 token long enough
// to be cut from a key body (a fingerprint's or a public key's spared):
// whoever quotes a short value it did not expect (a config value, a
// name) leaves such a one out even when no line of it was reported.
func LooksLikeFragment(s string) bool {
	tok := fragToken(s, fragTail+4)
	return tok != "" && !publicBlob(tok) && !strings.Contains(s, "SHA256:"+tok)
}

// random reports a token shaped like random base64 rather than words:
// capitals and small letters both frequent and mixed letter by letter. A
// body line of 64 characters has about 26 of each and 20 changes of case;
// a path (/tmp/TestDateForms…/001) or a camelCase name has few changes.
func random(tok string) bool {
	up, low, switches := 0, 0, 0
	prev := byte(0) // 'A' or 'a': the case of the previous letter
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
