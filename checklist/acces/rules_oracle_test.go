package acces

// The rules of acces.md as they were before they were made cheaper
// (date, path, statements, fingerprint, the problem recorder): each is
// the oracle the differential tests and fuzz targets of oracle_test.go
// compare the current code with, result for result. Copied verbatim but
// for the names (suffix Oracle), so that no change to the product code
// can change them.

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/keys/signing"
	"golang.org/x/crypto/ssh"
)

type foundDateOracle struct {
	y, m, d int
	text    string
}

func (f foundDateOracle) valid() (time.Time, bool) { return dates.Civil(f.y, f.m, f.d) }

// dateScanOracle reads the words of one line once, keeping five at most: the
// first date in the numeric or month-name formats, the first ISO date,
// and the first label word. A line of a million words costs no more
// memory than a short one.
type dateScanOracle struct {
	win  [5]string
	n    int // words in win
	skip int // words still covered by the last date found
	drop func(foundDateOracle) bool

	first, firstISO    foundDateOracle
	haveFirst, haveISO bool
	status             string // "demande", "verifie", or ""
}

func (s *dateScanOracle) push(w string) {
	if s.status == "" {
		switch {
		case strings.HasPrefix(w, "demand"):
			s.status = "demande"
		case strings.HasPrefix(w, "verif"), strings.HasPrefix(w, "ouvert"):
			s.status = "verifie"
		}
	}
	// ISO dates stay whole words because of their dashes.
	if !s.haveISO {
		if y, m, d, ok := dates.ISOWord(w); ok {
			if f := (foundDateOracle{y, m, d, w}); s.drop == nil || !s.drop(f) {
				s.firstISO, s.haveISO = f, true
			}
		}
	}
	s.win[s.n] = w
	s.n++
	if s.n == len(s.win) {
		s.step()
	}
}

// step looks at the oldest word with the others as look-ahead, then
// drops it.
func (s *dateScanOracle) step() {
	win := s.win // a copy: the window moves on before the look-ahead is read
	ws := win[:s.n]
	w := ws[0]
	copy(s.win[:], s.win[1:s.n])
	s.n--
	if s.skip > 0 {
		s.skip--
		return
	}
	if s.haveFirst || !dates.Digits(w) && w != "1er" {
		return
	}
	var f foundDateOracle
	if y, m, d, ok := slashedOracle(ws); ok {
		// 20/10/2026: three numbers around two slashes.
		f = foundDateOracle{y, m, d, w + "/" + ws[2] + "/" + ws[4]}
		s.skip = 4
	} else if y, m, d, ok := writtenOracle(ws); ok {
		// 20 octobre 2026, 1er octobre 2026
		f = foundDateOracle{y, m, d, w + " " + ws[1] + " " + ws[2]}
		s.skip = 2
	} else {
		return
	}
	if s.drop == nil || !s.drop(f) {
		s.first, s.haveFirst = f, true
	}
}

// date is the first date of the line: numeric or month-name formats
// first, then ISO.
func (s *dateScanOracle) date() (foundDateOracle, bool) {
	for s.n > 0 {
		s.step()
	}
	if s.haveFirst {
		return s.first, true
	}
	return s.firstISO, s.haveISO
}

// scanLineOracle reads a line's words; drop, when set, leaves out dates.
func scanLineOracle(folded string, drop func(foundDateOracle) bool) *dateScanOracle {
	s := &dateScanOracle{drop: drop}
	for w := range wordSeq(folded) {
		s.push(w)
	}
	return s
}

// slashedOracle and writtenOracle read a date at the head of the window ws; the
// word-level rules are those of dates.Parse.
func slashedOracle(ws []string) (y, m, d int, ok bool) {
	if len(ws) < 5 || ws[1] != "/" || ws[3] != "/" {
		return 0, 0, 0, false
	}
	return dates.Slashed(ws[0], ws[2], ws[4])
}

func writtenOracle(ws []string) (y, m, d int, ok bool) {
	if len(ws) < 3 {
		return 0, 0, 0, false
	}
	return dates.Written(ws[0], ws[1], ws[2])
}

func aboutSessionOracle(folded string) bool { return strings.Contains(folded, "seance") }

func (d *document) checkDateOracle(r *Result, rules Rules) {
	headingLabelled, headingUsed := false, false
	headingStatus := ""
	sessionDay := func(f foundDateOracle) bool {
		t, ok := f.valid()
		return ok && t.Equal(rules.SessionDay)
	}
	for l := range d.all() {
		if l.blank {
			continue
		}
		if l.heading {
			// A heading can hold the date itself: "## Demande du 20/10/2026".
			h := scanLineOracle(l.folded, nil)
			headingStatus = h.status
			headingLabelled, headingUsed = h.status != "", false
		}
		if !strings.ContainsAny(l.folded, "0123456789") {
			continue // no date without a digit
		}
		// "demandé le 20/10 pour la séance du 5 novembre": the session
		// day on such a line is the session's, not the request's.
		var drop func(foundDateOracle) bool
		if aboutSessionOracle(l.folded) {
			drop = sessionDay
		}
		sc := scanLineOracle(l.folded, drop)
		f, found := sc.date()
		if !found {
			continue
		}
		// A date counts when its line says what it is, or when it is the
		// first one under a heading that does; a line that starts with
		// "date" counts unless it is about the session.
		labelled := sc.status != "" || headingLabelled && !headingUsed ||
			strings.HasPrefix(l.folded, "date") && !aboutSessionOracle(l.folded)
		if !labelled {
			continue
		}
		headingUsed = true
		t, ok := f.valid()
		if ok {
			r.Date, r.Status = t.Format("2006-01-02"), sc.status
			if r.Status == "" {
				r.Status = headingStatus
			}
		}
		switch {
		case !ok:
			r.add("bad-date", checklist.SevError, l.no, "la date %q n'existe pas dans le calendrier (jour d'abord : JJ/MM/AAAA, ou AAAA-MM-JJ)", f.text)
		case !rules.Today.IsZero() && t.After(rules.Today):
			r.add("future-date", checklist.SevError, l.no, "la date %s est dans le futur : notez le jour de la demande ou de la vérification", t.Format("2006-01-02"))
		case !rules.SessionDay.IsZero() && !t.Before(rules.SessionDay):
			r.add("late-request", checklist.SevWarning, l.no, "la date %s tombe le jour de la séance ou après : le compte risque de ne pas être prêt", t.Format("2006-01-02"))
		}
		return
	}
	r.add("missing-date", checklist.SevError, 0, "aucune date de demande ou de vérification du compte : ajoutez par exemple « Date de la demande : 2026-10-20 »")
}

// nextPathTokenOracle is the first path-like word of raw[i:] and where to look
// for the next one: pathTokens one word at a time, with no list to make.
func nextPathTokenOracle(raw string, i int) (tok string, next int, ok bool) {
	if i == 0 && !strings.ContainsAny(raw, `/\`) {
		return "", len(raw), false
	}
	for i < len(raw) {
		// A word is a run of runes that are not separators, as
		// strings.FieldsFunc(raw, isPathSepOracle) cuts it.
		for i < len(raw) {
			r, n := utf8.DecodeRuneInString(raw[i:])
			if !isPathSepOracle(r) {
				break
			}
			i += n
		}
		from := i
		for i < len(raw) {
			r, n := utf8.DecodeRuneInString(raw[i:])
			if isPathSepOracle(r) {
				break
			}
			i += n
		}
		if i == from {
			break
		}
		f := strings.TrimRight(raw[from:i], ".:!?")
		if k := rootIndexOracle(f); k > 0 {
			f = f[k:] // "Clé:~/.ssh/x.pub"
		}
		if strings.ContainsAny(f, `/\`) {
			return f, i, true
		}
	}
	return "", len(raw), false
}

func isPathSepOracle(r rune) bool {
	return r == ' ' || r == '\t' || r == '`' || r == '"' || r == '\'' || r == '(' || r == ')' ||
		r == '<' || r == '>' || r == '[' || r == ']' || r == '|' || r == '*' || r == ',' || r == ';' || r == '«' || r == '»' || r == '\u00a0'
}

// rootIndexOracle finds where a path starts inside a word.
func rootIndexOracle(f string) int {
	best := -1
	for _, root := range []string{"~/", "~\\", "$HOME", "${HOME}", "%USERPROFILE%", ".ssh/", ".ssh\\", "/"} {
		if i := strings.Index(f, root); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if len(f) > 2 && f[1] == ':' && (f[2] == '\\' || f[2] == '/') {
		return 0
	}
	for i := 1; i+2 < len(f); i++ {
		if f[i+1] == ':' && (f[i+2] == '\\' || f[i+2] == '/') && (f[i] >= 'A' && f[i] <= 'Z' || f[i] >= 'a' && f[i] <= 'z') && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

func baseNameOracle(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

func (d *document) checkPathOracle(r *Result, rules Rules) {
	var private string
	privLine := 0
	for i := 0; i+1 < len(d.starts); i++ {
		l := d.rawLine(i)
		if l.leak {
			continue
		}
		for at := 0; ; {
			p, next, ok := nextPathTokenOracle(l.raw, at)
			if !ok {
				break
			}
			at = next
			base := baseNameOracle(p)
			if strings.HasSuffix(base, ".pub") && len(base) > 4 {
				r.PubPath = p
				if rules.KeyName != "" && base != rules.KeyName {
					r.add("unexpected-key-name", checklist.SevWarning, l.no, "la clé publique s'appelle %s, pas %s : vérifiez que c'est la clé de la séance", base, rules.KeyName)
				}
				return
			}
			if private == "" && strings.HasPrefix(base, "id_") && !strings.Contains(base, ".") {
				private, privLine = p, l.no
			}
		}
	}
	if private != "" {
		r.add("private-key-path", checklist.SevError, privLine, "le chemin donné est celui de la clé privée (%s) : donnez celui de la clé publique, %s.pub", private, private)
		return
	}
	r.add("missing-pubkey-path", checklist.SevError, 0, "aucun chemin de clé publique : ajoutez par exemple « ~/.ssh/%s » (un nom seul ne suffit pas)", orDefaultOracle(rules.KeyName, "id_ed25519_romeo.pub"))
}

func orDefaultOracle(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// statementsOracle is what the key lines of a file state. Every list in it is
// bounded whatever the file: a 1 MiB file of 100 000 fingerprints, type
// words or malformed SHA256 keeps counts, the first lines and the set of
// distinct values, never a record per occurrence (organisateurs.md,
// Scale).
type statementsOracle struct {
	fingerprints seenOracle // well-formed SHA256 fingerprints; values are their base64
	distinct     map[string]struct{}
	badFP        seenOracle // SHA256 with the wrong length or alphabet, one per line
	md5          seenOracle
	pasted       []pastedKeyOracle // every one that parses, the first maxPerCode that do not
	badPasted    int               // pasted keys that do not parse, kept or not
	ed25519      bool
	otherTypes   []string // distinct, in the order first named
	otherLine    int
	lineArr      [3][maxPerCode]int // the lines the three seenOracle keep
}

// seenOracle counts the statementsOracle of one kind and keeps the lines of the
// first maxPerCode (no message names more) and the first value.
type seenOracle struct {
	n     int
	lines []int
	first string
	last  int // the line of the last statement, kept or not
}

func (s *seenOracle) note(line int, v string) {
	if s.n == 0 {
		s.first = v
	}
	s.n++
	s.last = line
	if len(s.lines) < maxPerCode {
		s.lines = append(s.lines, line)
	}
}

// pastedKeyOracle is a public key pasted in the file: its line and, when it
// parses, the SHA256 of its wire form (its fingerprint's bytes), not the
// parsed key: a file of 10,000 pasted keys keeps 40 bytes each.
type pastedKeyOracle struct {
	line int32
	ok   bool
	sum  [sha256.Size]byte
}

// fingerprint is the key's fingerprint as ssh-keygen -lf writes it.
func (p pastedKeyOracle) fingerprint() string {
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(p.sum[:])
}

// typeWordBytesOracle names the key type a lower-case word states, "" for none. A switch, not
// a map: nothing to build when the program starts.
func typeWordBytesOracle(w []byte) string {
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

func (d *document) statementsOracle() *statementsOracle {
	st := &statementsOracle{}
	d.readStatementsOracle(st)
	return st
}

// distinctCountOracle is how many different SHA256 fingerprints were stated.
func (st *statementsOracle) distinctCountOracle() int {
	if st.distinct == nil && st.fingerprints.n > 0 {
		return 1 // every fingerprint is the first
	}
	return len(st.distinct)
}

// readStatementsOracle fills st, which the caller may keep on its stack: the
// first lines of each kind go to arrays inside it, so a one-page file
// makes no allocation for them.
func (d *document) readStatementsOracle(st *statementsOracle) {
	st.fingerprints.lines = st.lineArr[0][:0:maxPerCode]
	st.badFP.lines = st.lineArr[1][:0:maxPerCode]
	st.md5.lines = st.lineArr[2][:0:maxPerCode]
	var arr [512]byte // one line with its fingerprints blanked, reused
	for i := 0; i+1 < len(d.starts); i++ {
		l := d.rawLine(i)
		if l.leak {
			continue
		}
		if !strings.Contains(l.raw, ":") && !strings.Contains(l.raw, "AAAA") {
			typeWordsOracle(st, l.no, l.raw) // no fingerprint, no MD5 pairs, no pasted key
			continue
		}
		typeWordsOracle(st, l.no, d.scanKeyMaterialOracle(l, st, arr[:0]))
	}
}

// typeWordsOracle notes the key types a line (its key material blanked) names.
func typeWordsOracle[T string | []byte](st *statementsOracle, no int, rest T) {
	if !mayNameTypeOracle(rest) {
		return
	}
	// Words split on everything but letters, digits, '-' and '_', so
	// id_ed25519_romeo stays one word and does not state a type. Every
	// other byte separates, as every other rune did for strings.FieldsFunc.
	for i := 0; i < len(rest); {
		for i < len(rest) && !isTypeByteOracle(rest[i]) {
			i++
		}
		from := i
		for i < len(rest) && isTypeByteOracle(rest[i]) {
			i++
		}
		if i == from {
			continue
		}
		switch t := typeWordFoldOracle(rest[from:i]); t {
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

func isTypeByteOracle(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// typeWordFoldOracle is typeWord of w in lower case. The words are ASCII
// (keyTypeWords) and the longest type word has 22 letters, so a longer
// one names none and the lowering needs no allocation.
func typeWordFoldOracle[T string | []byte](w T) string {
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
	return typeWordBytesOracle(low[:len(w)])
}

// mayNameTypeOracle is a cheap look for the letters every type word has.
func mayNameTypeOracle[T string | []byte](s T) bool {
	for i := 0; i+2 < len(s); i++ {
		switch s[i] | 0x20 {
		case 'r', 'd':
			if s[i+1]|0x20 == 's' && s[i+2]|0x20 == 'a' || s[i+1]|0x20 == 's' && s[i+2]|0x20 == 's' {
				return true
			}
		case '2':
			if s[i+1] == '5' && s[i+2] == '5' {
				return true
			}
		}
	}
	return false
}

func isB64Oracle(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/'
}

// scanKeyMaterialOracle collects fingerprints and pasted public keys of a raw
// line and returns the line with them blanked, so their base64 is not
// read as words; out is the buffer it is writtenOracle into.
func (d *document) scanKeyMaterialOracle(l line, st *statementsOracle, out []byte) []byte {
	raw := l.raw
	i := 0
	for i < len(raw) {
		if c := raw[i]; c|0x20 != 's' && c|0x20 != 'm' && c != 'A' && !(isHexOracle(c) && i+47 <= len(raw) && raw[i+2] == ':') {
			// None of the cases below can start here: each needs its
			// first byte to be one of these, and a run of hex pairs
			// needs its 47 bytes and a colon after the first pair.
			out = append(out, c)
			i++
			continue
		}
		switch {
		case hasPrefixFoldOracle(raw[i:], "sha256:"):
			j := i + len("sha256:")
			k := j
			for k < len(raw) && isB64Oracle(raw[k]) {
				k++
			}
			end := k
			for end < len(raw) && raw[end] == '=' {
				end++
			}
			body := raw[j:k]
			if validFingerprintOracle(body) && end == k {
				// body is a slice of the text: nothing is copied per
				// fingerprint, the set holds each distinct one once.
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
			out = append(out, ' ')
			i = end
			continue
		case hasPrefixFoldOracle(raw[i:], "md5:") || isHexPairRunOracle(raw[i:]):
			j := i
			if hasPrefixFoldOracle(raw[i:], "md5:") {
				j += 4
			}
			if isHexPairRunOracle(raw[j:]) {
				st.md5.note(l.no, "")
				out = append(out, ' ')
				i = j + 47
				continue
			}
		case strings.HasPrefix(raw[i:], "AAAA") && (i == 0 || !isB64Oracle(raw[i-1])):
			k := i
			for k < len(raw) && (isB64Oracle(raw[k]) || raw[k] == '=') {
				k++
			}
			if k-i >= 16 {
				if p := parsePastedOracle(raw, i, k, l.no); p.ok || st.badPasted < maxPerCode {
					st.pasted = append(st.pasted, p)
					st.badPasted += btoiOracle(!p.ok)
				} else {
					st.badPasted++ // counted: no message names it
				}
				out = append(out, ' ')
				i = k
				continue
			}
		}
		out = append(out, raw[i])
		i++
	}
	return out
}

// validFingerprintOracle reports whether body is the unpadded strict base64 of
// 32 bytes, as base64.RawStdEncoding.Strict().DecodeString would accept
// it, without the copy: 43 characters whose last carries no stray bits.
func validFingerprintOracle(body string) bool {
	var src [43]byte
	var dst [33]byte
	if len(body) != len(src) {
		return false
	}
	copy(src[:], body)
	n, err := strictRawOracle.Decode(dst[:], src[:])
	return err == nil && n == 32
}

var strictRawOracle = base64.RawStdEncoding.Strict()

// hasPrefixFoldOracle is strings.HasPrefix ignoring ASCII case; prefix is lower case.
func hasPrefixFoldOracle(s, prefix string) bool {
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

func isHexPairRunOracle(s string) bool {
	if len(s) < 47 {
		return false
	}
	for p := 0; p < 16; p++ {
		a, b := s[p*3], s[p*3+1]
		if !isHexOracle(a) || !isHexOracle(b) || p < 15 && s[p*3+2] != ':' {
			return false
		}
	}
	return len(s) == 47 || !isHexOracle(s[47]) && s[47] != ':'
}

func isHexOracle(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// parsePastedOracle reads "ssh-ed25519 AAAA…" from the key type word before the
// blob.
func parsePastedOracle(raw string, start, end, no int) pastedKeyOracle {
	before := strings.TrimRight(raw[:start], " \t`")
	typ := before
	if i := strings.LastIndexAny(before, " \t`(>|:"); i >= 0 {
		typ = before[i+1:]
	}
	key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(typ + " " + raw[start:end]))
	if err != nil {
		return pastedKeyOracle{line: int32(no)}
	}
	return pastedKeyOracle{line: int32(no), ok: true, sum: sha256.Sum256(key.Marshal())}
}

func btoiOracle(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (d *document) checkFingerprintOracle(r *Result, st *statementsOracle, rules Rules) {
	distinct := st.distinctCountOracle()
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
		r.add("missing-type", checklist.SevError, firstFingerprintLineOracle(st), "le type de la clé n'est pas indiqué : écrivez ed25519 (la ligne de « ssh-keygen -lf » finit par (ED25519))")
	}

	// The stated fingerprint as bytes, compared with each key's sum: no
	// string is made per key but for a message.
	var stated [sha256.Size]byte
	statedOK := false
	if b, err := base64.RawStdEncoding.DecodeString(strings.TrimPrefix(r.Fingerprint, "SHA256:")); err == nil && len(b) == len(stated) && r.Fingerprint != "" {
		copy(stated[:], b)
		statedOK = true
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

// firstFingerprintLineOracle is the first line that states a fingerprint of
// any form.
func firstFingerprintLineOracle(st *statementsOracle) int {
	first := 0
	for _, s := range []*seenOracle{&st.fingerprints, &st.badFP, &st.md5} {
		if s.n > 0 && (first == 0 || s.lines[0] < first) {
			first = s.lines[0]
		}
	}
	return first
}

// resultOracle is Result's problem recorder as it was: a map of counts
// per code, made at the first problem, and fmt.Sprintf on every problem
// kept.
type resultOracle struct {
	Problems []checklist.Problem
	counts   map[string]int
}

func (r *resultOracle) add(code string, sev checklist.Severity, line int, format string, args ...any) {
	if r.counts == nil {
		r.counts = map[string]int{}
	}
	if r.counts[code]++; r.counts[code] > maxPerCode {
		return // counted, not built
	}
	r.Problems = append(r.Problems, checklist.Problem{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...), Line: line})
}

func (r *resultOracle) countMore(code string, n int) {
	if n <= 0 {
		return
	}
	if r.counts == nil {
		r.counts = map[string]int{}
	}
	r.counts[code] += n
}

func (r *resultOracle) noteCapped() {
	for i := len(r.Problems) - 1; i >= 0; i-- {
		p := &r.Problems[i]
		if n := r.counts[p.Code]; n > maxPerCode {
			p.Message += fmt.Sprintf(" (et %d autres problèmes %s plus loin)", n-maxPerCode, p.Code)
			r.counts[p.Code] = maxPerCode
		}
	}
}

// validateOracle is Validate with the rules above in place of the
// current ones; the reader, the leak detector, the sentence and the
// signature rule are the current ones (each has its own oracle).
func validateOracle(data []byte, rules Rules) *Result {
	r := &Result{}
	if len(data) > MaxAccessSize {
		r.add("too-large", checklist.SevError, 0, "fichier trop grand (plus de 1 Mio) : un acces.md tient sur une page ; il n'a pas été lu")
		return r
	}
	sf := signing.SplitSigned(data)
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if i := bytes.IndexByte(data, 0); i >= 0 {
		r.add("not-text", checklist.SevError, 1+bytes.Count(data[:i], []byte("\n")), "ce n'est pas un fichier texte (octet nul) : envoyez acces.md en texte UTF-8")
		checkSignature(r, sf, rules)
		return r
	}
	if !utf8.Valid(data) {
		r.add("not-text", checklist.SevError, invalidUTF8LineOracle(data), "le fichier n'est pas en UTF-8 : enregistrez acces.md en UTF-8")
		checkSignature(r, sf, rules)
		return r
	}
	doc := readLines(string(data))
	doc.dropSignature(sf, false)
	doc.leaks(r)
	doc.dropSignature(sf, true)
	st := &statementsOracle{}
	doc.readStatementsOracle(st)
	doc.checkDateOracle(r, rules)
	doc.checkPathOracle(r, rules)
	doc.checkFingerprintOracle(r, st, rules)
	doc.checkSentence(r)
	checkSignature(r, sf, rules)
	r.noteCapped()
	return r
}

func invalidUTF8LineOracle(data []byte) int {
	line := 1
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return line
		}
		if r == '\n' {
			line++
		}
		i += n
	}
	return 0
}
