package acces

import (
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strings"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/keys"
	"golang.org/x/crypto/ssh"
)

// statements is what the key lines of a file state. Every list in it is
// bounded whatever the file: a 1 MiB file of 100 000 fingerprints, type
// words or malformed SHA256 keeps counts, the first lines and the set of
// distinct values, never a record per occurrence (organisateurs.md,
// Scale).
type statements struct {
	fingerprints seen // well-formed SHA256 fingerprints; values are their base64
	distinct     map[string]struct{}
	badFP        seen // SHA256 with the wrong length or alphabet, one per line
	md5          seen
	pasted       []pastedKey // every one that parses, the first maxPerCode that do not
	badPasted    int         // pasted keys that do not parse, kept or not
	ed25519      bool
	firstSum     [sha256.Size]byte // the bytes of fingerprints.first
	otherTypes   []string          // distinct, in the order first named
	otherLine    int
	lineArr      [3][maxPerCode]int // the lines the three seen keep
}

// seen counts the statements of one kind and keeps the lines of the
// first maxPerCode (no message names more) and the first value.
type seen struct {
	n     int
	lines []int
	first string
	last  int // the line of the last statement, kept or not
}

func (s *seen) note(line int, v string) {
	if s.n == 0 {
		s.first = v
	}
	s.n++
	s.last = line
	if len(s.lines) < maxPerCode {
		s.lines = append(s.lines, line)
	}
}

// pastedKey is a public key pasted in the file: its line and, when it
// parses, the SHA256 of its wire form (its fingerprint's bytes), not the
// parsed key: a file of 10,000 pasted keys keeps 40 bytes each.
type pastedKey struct {
	line int32
	ok   bool
	sum  [sha256.Size]byte
}

// fingerprint is the key's fingerprint as ssh-keygen -lf writes it.
func (p pastedKey) fingerprint() string {
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(p.sum[:])
}

// typeWordBytes names the key type a lower-case word states, "" for none. A switch, not
// a map: nothing to build when the program starts.
func typeWordBytes(w []byte) string {
	switch string(w) {
	case "ed25519", "ssh-ed25519":
		return "ed25519"
	case "ed25519-sk", "sk-ssh-ed25519":
		return "ED25519-SK"
	case "rsa", "ssh-rsa":
		return "RSA"
	case "ecdsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521":
		return "ECDSA"
	case "ecdsa-sk", "sk-ecdsa-sha2-nistp256":
		return "ECDSA-SK"
	case "dsa", "ssh-dss":
		return "DSA"
	}
	return ""
}

func (d *document) statements() *statements {
	st := &statements{}
	d.readStatements(st)
	return st
}

// distinctCount is how many different SHA256 fingerprints were stated.
func (st *statements) distinctCount() int {
	if st.distinct == nil && st.fingerprints.n > 0 {
		return 1 // every fingerprint is the first
	}
	return len(st.distinct)
}

// readStatements fills st, which the caller may keep on its stack: the
// first lines of each kind go to arrays inside it, so a one-page file
// makes no allocation for them.
func (d *document) readStatements(st *statements) {
	st.fingerprints.lines = st.lineArr[0][:0:maxPerCode]
	st.badFP.lines = st.lineArr[1][:0:maxPerCode]
	st.md5.lines = st.lineArr[2][:0:maxPerCode]
	for i := 0; i+1 < len(d.starts); i++ {
		l := d.rawLine(i)
		if l.leak {
			continue
		}
		if !strings.Contains(l.raw, ":") && !strings.Contains(l.raw, "AAAA") {
			// No fingerprint, no MD5 pairs, no pasted key.
			if mayNameTypeString(l.raw) {
				typeWords(st, l.no, l.raw)
			}
			continue
		}
		// The type words are read between the key material: blanked,
		// it would separate words, as the ends of the parts do.
		d.scanKeys(l, st, func(part string) {
			if mayNameTypeString(part) {
				typeWords(st, l.no, part)
			}
		})
	}
}

// typeWords notes the key types a line (its key material blanked) names.
// The callers pass only lines mayNameTypeString lets through: the others
// name none (TestTypeWordsMatchOracle compares with the filter inside).
func typeWords[T string | []byte](st *statements, no int, rest T) {
	// Words split on everything but letters, digits, '-' and '_', so
	// id_ed25519_romeo stays one word and does not state a type. Every
	// other byte separates, as every other rune did for strings.FieldsFunc.
	for i := 0; i < len(rest); {
		for i < len(rest) && !isTypeByte(rest[i]) {
			i++
		}
		from := i
		for i < len(rest) && isTypeByte(rest[i]) {
			i++
		}
		if i == from || !mayBeTypeWord(rest[from], i-from) {
			continue
		}
		switch t := typeWordFold(rest[from:i]); t {
		case "":
		case "ed25519":
			st.ed25519 = true
		default:
			if st.otherLine == 0 {
				st.otherLine = no
			}
			// Each type once: a line of 100 000 "RSA" keeps one.
			if !slices.Contains(st.otherTypes, t) {
				st.otherTypes = append(st.otherTypes, t)
			}
		}
	}
}

func isTypeByte(c byte) bool { return typeByte[c] }

var typeByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
	}
	return t
}()

// mayBeTypeWord is false for a word that typeWordBytes cannot name, by
// its length and first letter: every type word starts with e, s, r or d
// and has one of typeWordLens letters (TestTypeWordFilterCoversEveryCase
// reads them off typeWordBytes' cases).
func mayBeTypeWord(first byte, n int) bool {
	switch first | 0x20 {
	case 'e', 's', 'r', 'd':
		return n < 64 && typeWordLens&(1<<n) != 0
	}
	return false
}

const typeWordLens = 1<<3 | 1<<5 | 1<<7 | 1<<8 | 1<<10 | 1<<11 | 1<<14 | 1<<19 | 1<<22

// typeWordFold is typeWord of w in lower case. The words are ASCII
// (keyTypeWords) and the longest type word has 22 letters, so a longer
// one names none and the lowering needs no allocation.
func typeWordFold[T string | []byte](w T) string {
	var low [24]byte
	if len(w) > len(low) {
		return ""
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	return typeWordBytes(low[:len(w)])
}

// mayNameTypeString is a cheap look for what every type word has, in
// either case: r or d, s, then a or s (rsa, dsa, dss), or 255 (ed25519).
// It looks only at a line's s, S and 5 (strings.IndexByte), not at every
// byte: most lines have few (TestMayNameTypeStringMatches compares it
// with the byte walk mayNameType; TestTypeWordFilterCoversEveryCase
// checks every type word has one).
func mayNameTypeString(s string) bool {
	if len(s) < 3 {
		return false
	}
	mid := s[1 : len(s)-1] // the bytes with one on either side
	for _, c := range [...]byte{'5', 's', 'S'} {
		for from := 0; ; {
			k := strings.IndexByte(mid[from:], c)
			if k < 0 {
				break
			}
			i := 1 + from + k // in s
			if c == '5' {
				if s[i-1] == '2' && s[i+1] == '5' {
					return true
				}
			} else if p, n := s[i-1]|0x20, s[i+1]|0x20; (p == 'r' || p == 'd') && (n == 'a' || n == 's') {
				return true
			}
			from += k + 1
		}
	}
	return false
}

func isB64(c byte) bool { return b64Byte[c] }

var b64Byte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/'
	}
	return t
}()

// scanKeys collects fingerprints and pasted public keys of a raw line,
// and gives part the text between them, in order (all of the line when
// it has none), so that their base64 is not read as words.
func (d *document) scanKeys(l line, st *statements, part func(string)) {
	raw := l.raw
	from := 0 // raw[from:i] is still to be given to part
	blank := func(i, next int) {
		part(raw[from:i])
		from = next
	}
	// Every case needs a colon 2, 3 or 6 bytes on (a pair run, MD5:,
	// SHA256:) or starts at AAAA: the bytes before the first such place
	// are passed over whole. hasPrefixFold also reads 0x1A as a colon
	// (0x1A|0x20 is ':'): a line with one is read byte by byte.
	jump := strings.IndexByte(raw, 0x1a) < 0
	colon, aaaa := -1, -1 // the next ':' from i+2 and "AAAA" from i, len(raw) for none
	until := 0            // the bytes before it are read one by one: no jump
	i := 0
	for i < len(raw) {
		if jump && i >= until {
			if colon < i+2 && colon != len(raw) {
				colon = len(raw)
				if i+2 < len(raw) {
					if k := strings.IndexByte(raw[i+2:], ':'); k >= 0 {
						colon = i + 2 + k
					}
				}
			}
			if aaaa < i && aaaa != len(raw) {
				aaaa = len(raw)
				if k := strings.Index(raw[i:], "AAAA"); k >= 0 {
					aaaa = i + k
				}
			}
			next := aaaa
			if colon < len(raw) {
				next = min(next, max(i, colon-6))
			}
			if next >= len(raw) {
				break
			}
			i = next
			// From there, every byte up to the colon's last place (2
			// before it) may start a case; past it, look again.
			until = i + 1
			if colon < len(raw) && i >= colon-6 {
				until = colon - 1
			}
		}
		c := raw[i]
		if !keyStart[c] || c|0x20 != 's' && c|0x20 != 'm' && c != 'A' && !(i+47 <= len(raw) && raw[i+2] == ':') {
			// None of the cases below can start here: each needs its
			// first byte to be one of these, and a run of hex pairs
			// needs its 47 bytes and a colon after the first pair.
			i++
			continue
		}
		switch {
		case hasPrefixFold(raw[i:], "sha256:"):
			j := i + len("sha256:")
			k := j
			for k < len(raw) && isB64(raw[k]) {
				k++
			}
			end := k
			for end < len(raw) && raw[end] == '=' {
				end++
			}
			body := raw[j:k]
			if sum, ok := fingerprintSum(body); ok && end == k {
				// body is a slice of the text: nothing is copied per
				// fingerprint, the set holds each distinct one once.
				if st.fingerprints.n == 0 {
					st.firstSum = sum
				}
				st.fingerprints.note(l.no, body)
				// The set is made at the second distinct value: most
				// files state one fingerprint, and need no set for it.
				if st.distinct == nil && body != st.fingerprints.first {
					st.distinct = map[string]struct{}{st.fingerprints.first: {}}
				}
				if st.distinct != nil {
					st.distinct[body] = struct{}{}
				}
			} else {
				// One per line: the message names no value, and a line of
				// 50 000 "SHA256:" must not make 50 000 problems.
				if st.badFP.last != l.no {
					st.badFP.note(l.no, "")
				}
			}
			blank(i, end)
			i = end
			continue
		case hasPrefixFold(raw[i:], "md5:") || isHexPairRun(raw[i:]):
			j := i
			if hasPrefixFold(raw[i:], "md5:") {
				j += 4
			}
			if isHexPairRun(raw[j:]) {
				st.md5.note(l.no, "")
				blank(i, j+47)
				i = j + 47
				continue
			}
		case strings.HasPrefix(raw[i:], "AAAA") && (i == 0 || !isB64(raw[i-1])):
			k := i
			for k < len(raw) && (isB64(raw[k]) || raw[k] == '=') {
				k++
			}
			if k-i >= 16 {
				if p := parsePasted(raw, i, k, l.no); p.ok || st.badPasted < maxPerCode {
					st.pasted = append(st.pasted, p)
					st.badPasted += btoi(!p.ok)
				} else {
					st.badPasted++ // counted: no message names it
				}
				blank(i, k)
				i = k
				continue
			}
		}
		i++
	}
	part(raw[from:])
}

// keyStart holds the bytes a fingerprint, an MD5 pair run or a pasted
// key can start with: s and m of either case (SHA256:, MD5:), the A of
// AAAA, and the hex digits of a pair run.
var keyStart = func() (t [256]bool) {
	for c := range 256 {
		b := byte(c)
		t[c] = b|0x20 == 's' || b|0x20 == 'm' || b == 'A' || isHex(b)
	}
	return t
}()

// validFingerprint reports whether body is the unpadded strict base64 of
// 32 bytes, as base64.RawStdEncoding.Strict().DecodeString would accept
// it, without the copy: 43 characters whose last carries no stray bits.
func validFingerprint(body string) bool {
	_, ok := fingerprintSum(body)
	return ok
}

// fingerprintSum is validFingerprint with the 32 bytes decoded.
func fingerprintSum(body string) (sum [sha256.Size]byte, ok bool) {
	var src [43]byte
	var dst [33]byte
	if len(body) != len(src) {
		return sum, false
	}
	copy(src[:], body)
	n, err := strictRaw.Decode(dst[:], src[:])
	if err != nil || n != len(sum) {
		return sum, false
	}
	return [sha256.Size]byte(dst[:n]), true
}

var strictRaw = base64.RawStdEncoding.Strict()

// decodeFingerprint is the SHA256 a stated fingerprint ("SHA256:…")
// names, as base64.RawStdEncoding.DecodeString reads it, into an array:
// the 43 characters of a stated fingerprint are decoded without a copy
// on the heap.
func decodeFingerprint(fp string) (sum [sha256.Size]byte, ok bool) {
	if fp == "" {
		return sum, false
	}
	var src [43]byte
	var dst [33]byte
	b64 := strings.TrimPrefix(fp, "SHA256:")
	if len(b64) != len(src) {
		// Never a fingerprint the file states (43 characters); read as
		// DecodeString reads it, which skips line breaks.
		b, err := base64.RawStdEncoding.DecodeString(b64)
		if err != nil || len(b) != len(sum) {
			return sum, false
		}
		return [sha256.Size]byte(b), true
	}
	copy(src[:], b64)
	n, err := base64.RawStdEncoding.Decode(dst[:], src[:])
	if err != nil || n != len(sum) {
		return sum, false
	}
	copy(sum[:], dst[:n])
	return sum, true
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case; prefix is lower case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c |= 0x20 // letters only: 0x1A is no colon, 0x12 no '2'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

func isHexPairRun(s string) bool {
	if len(s) < 47 {
		return false
	}
	for p := 0; p < 16; p++ {
		a, b := s[p*3], s[p*3+1]
		if !isHex(a) || !isHex(b) || p < 15 && s[p*3+2] != ':' {
			return false
		}
	}
	return len(s) == 47 || !isHex(s[47]) && s[47] != ':'
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// parsePasted reads "ssh-ed25519 AAAA…" from the key type word before the
// blob.
func parsePasted(raw string, start, end, no int) pastedKey {
	before := strings.TrimRight(raw[:start], " \t`")
	typ := before
	if i := strings.LastIndexAny(before, " \t`(>|:"); i >= 0 {
		typ = before[i+1:]
	}
	key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(typ + " " + raw[start:end]))
	if err != nil {
		return pastedKey{line: int32(no)}
	}
	return pastedKey{line: int32(no), ok: true, sum: sha256.Sum256(key.Marshal())}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (d *document) checkFingerprint(r *Result, st *statements, rules Rules) {
	distinct := st.distinctCount()
	for _, line := range st.badFP.lines {
		r.add("bad-fingerprint", checklist.SevError, line, "empreinte mal formée : après « SHA256: », il faut exactement 43 caractères base64, comme « ssh-keygen -lf » les affiche")
	}
	// The lines past the first maxPerCode were counted, not kept: the
	// last message kept says how many more (noteCapped).
	r.countMore("bad-fingerprint", st.badFP.n-len(st.badFP.lines))
	if st.fingerprints.n == 0 && st.md5.n > 0 {
		r.add("bad-fingerprint", checklist.SevError, st.md5.lines[0], "empreinte MD5 : donnez l'empreinte SHA256 que « ssh-keygen -lf » affiche par défaut")
	}
	switch {
	case distinct > 1:
		r.add("multiple-fingerprints", checklist.SevError, st.fingerprints.lines[1], "%d empreintes SHA256 différentes : gardez seulement celle de la clé de la séance", distinct)
	case distinct == 1:
		r.Fingerprint, r.FingerprintLine = "SHA256:"+st.fingerprints.first, st.fingerprints.lines[0]
	case st.badFP.n == 0 && st.md5.n == 0:
		r.add("missing-fingerprint", checklist.SevError, 0, "aucune empreinte : ajoutez la ligne de « ssh-keygen -lf ~/.ssh/id_ed25519_romeo.pub » (256 SHA256:… (ED25519))")
	}

	// The type belongs to the third element with the fingerprint: when the
	// whole element is absent, missing-fingerprint says so once.
	anyFingerprint := st.fingerprints.n+st.badFP.n+st.md5.n > 0
	switch {
	case st.ed25519:
	case len(st.otherTypes) > 0:
		r.add("wrong-type", checklist.SevError, st.otherLine, "le type indiqué est %s : la séance demande une clé ed25519", st.otherTypes[0])
	case anyFingerprint:
		// The offending text is the fingerprint stated without its type.
		r.add("missing-type", checklist.SevError, firstFingerprintLine(st), "le type de la clé n'est pas indiqué : écrivez ed25519 (la ligne de « ssh-keygen -lf » finit par (ED25519))")
	}

	// The stated fingerprint as bytes, compared with each key's sum: no
	// string is made per key but for a message.
	// The stated fingerprint is most often the first one read, whose
	// bytes the scan kept; the strict decoding it passed gives the bytes
	// DecodeString gives.
	fp := r.Fingerprint
	stated, statedOK := st.firstSum, st.fingerprints.n > 0 && strings.HasPrefix(fp, "SHA256:") && fp[len("SHA256:"):] == st.fingerprints.first
	if !statedOK {
		stated, statedOK = decodeFingerprint(r.Fingerprint)
	}
	kept := 0
	for _, p := range st.pasted {
		if !p.ok {
			r.add("bad-public-key", checklist.SevWarning, int(p.line), "la clé publique collée est illisible : recopiez la ligne du fichier .pub en entier, ou retirez-la")
			kept++
			continue
		}
		if statedOK && p.sum != stated {
			r.add("fingerprint-mismatch", checklist.SevError, int(p.line), "la clé publique collée a l'empreinte %s, pas celle indiquée (%s)", p.fingerprint(), r.Fingerprint)
		}
	}
	r.countMore("bad-public-key", st.badPasted-kept)
	if rules.Beside != nil {
		entries, err := keys.ParsePublic(rules.Beside.Data)
		switch {
		case err != nil:
			r.add("bad-public-key", checklist.SevError, 0, "le fichier %s, à côté d'acces.md, n'est pas une clé publique lisible", rules.Beside.Name)
		case r.Fingerprint != "" && ssh.FingerprintSHA256(entries[0].Key) != r.Fingerprint:
			r.add("fingerprint-mismatch", checklist.SevError, r.FingerprintLine, "le fichier %s a l'empreinte %s, pas celle indiquée (%s)", rules.Beside.Name, ssh.FingerprintSHA256(entries[0].Key), r.Fingerprint)
		}
	}
}

// firstFingerprintLine is the first line that states a fingerprint of
// any form.
func firstFingerprintLine(st *statements) int {
	first := 0
	for _, s := range []*seen{&st.fingerprints, &st.badFP, &st.md5} {
		if s.n > 0 && (first == 0 || s.lines[0] < first) {
			first = s.lines[0]
		}
	}
	return first
}
