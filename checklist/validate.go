package checklist

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/keys"
)

// MaxAccessSize is the largest acces.md read: one page is a few hundred
// bytes, and nothing over this is read further.
const MaxAccessSize = 1 << 20

// Severity of a problem: only errors make a file invalid.
const (
	SevError   = "error"
	SevWarning = "warning"
)

// Problem is one finding in an acces.md, with a stable code (acces-md.md).
type Problem struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Line     int    `json:"line,omitempty"`
}

// PubFile is a public key file found beside acces.md.
type PubFile struct {
	Name string
	Data []byte
}

// Rules are the values the validator compares against.
type Rules struct {
	KeyName    string    // the expected public key file name, "id_ed25519_romeo.pub"
	SessionDay time.Time // civil day; a request on or after it is late
	Today      time.Time // civil day; a later date is in the future
	Beside     *PubFile  // a .pub in the same folder, if any
}

// Result is what the validator found in one file.
type Result struct {
	Problems []Problem
	// Fingerprint is the stated SHA256 fingerprint ("SHA256:…"), when the
	// file states exactly one well-formed fingerprint.
	Fingerprint string
	// PubPath is the first public key path stated, as written.
	PubPath string
}

// Valid reports whether no problem is an error.
func (r *Result) Valid() bool {
	for _, p := range r.Problems {
		if p.Severity == SevError {
			return false
		}
	}
	return true
}

func (r *Result) add(code, sev string, line int, format string, args ...any) {
	r.Problems = append(r.Problems, Problem{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...), Line: line})
}

// Validate reads an acces.md and reports every problem of acces-md.md.
// No message ever quotes a line of private key material.
func Validate(data []byte, rules Rules) *Result {
	r := &Result{}
	if len(data) > MaxAccessSize {
		r.add("too-large", SevError, 0, "fichier trop grand (plus de 1 Mio) : un acces.md tient sur une page ; il n'a pas été lu")
		return r
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if i := bytes.IndexByte(data, 0); i >= 0 {
		r.add("not-text", SevError, 1+bytes.Count(data[:i], []byte("\n")), "ce n'est pas un fichier texte (octet nul) : envoyez acces.md en texte UTF-8")
		return r
	}
	if !utf8.Valid(data) {
		r.add("not-text", SevError, 0, "le fichier n'est pas en UTF-8 : enregistrez acces.md en UTF-8")
		return r
	}
	doc := readLines(string(data))
	doc.leaks(r)
	st := doc.statements()
	doc.checkDate(r, rules)
	doc.checkPath(r, rules)
	doc.checkFingerprint(r, st, rules)
	doc.checkSentence(r)
	return r
}

type document struct{ lines []line }

func readLines(s string) *document {
	raw := strings.Split(s, "\n")
	if len(raw) > 0 && raw[len(raw)-1] == "" {
		raw = raw[:len(raw)-1]
	}
	d := &document{lines: make([]line, len(raw))}
	for i, l := range raw {
		l = strings.TrimSuffix(l, "\r")
		text, heading, starts, cells := stripDecoration(l)
		d.lines[i] = line{no: i + 1, raw: l, heading: heading, starts: starts, cells: cells}
		d.lines[i].folded = fold(text)
		d.lines[i].words = words(d.lines[i].folded)
		d.lines[i].blank = len(d.lines[i].words) == 0
	}
	return d
}

// leaks marks every line of private key material and reports them by
// number only.
func (d *document) leaks(r *Result) {
	var marked []int
	inPEM, inPuTTY := false, false
	for i := range d.lines {
		l := &d.lines[i]
		raw := l.raw
		switch {
		case strings.Contains(raw, "-----BEGIN") && strings.Contains(raw, "PRIVATE KEY"):
			inPEM = !strings.Contains(raw, "-----END")
			l.leak = true
		case inPEM:
			l.leak = true
			if strings.Contains(raw, "-----END") {
				inPEM = false
			}
		case strings.Contains(raw, "PuTTY-User-Key-File-"):
			inPuTTY, l.leak = true, true
		case inPuTTY:
			l.leak = true
			if strings.Contains(raw, "Private-MAC:") || strings.TrimSpace(raw) == "" {
				inPuTTY = false
			}
		case strings.Contains(raw, "b3BlbnNzaC1rZXktdjE") || strings.Contains(raw, "-----END") && strings.Contains(raw, "PRIVATE KEY"):
			l.leak = true
		}
		if l.leak {
			marked = append(marked, l.no)
			// Nothing of this line is read by the other rules.
			l.folded, l.cells, l.words, l.blank = "", nil, nil, true
		}
	}
	if len(marked) == 0 {
		return
	}
	r.add("private-key-leak", SevError, marked[0],
		"clé privée dans le fichier (%s) : supprimez ces lignes, et considérez cette clé comme compromise : créez-en une nouvelle",
		lineRanges(marked))
}

// lineRanges writes [3 4 5 9] as "lignes 3 à 5, 9".
func lineRanges(nums []int) string {
	var parts []string
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, fmt.Sprint(nums[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d à %d", nums[i], nums[j]))
		}
		i = j + 1
	}
	word := "ligne "
	if len(nums) > 1 {
		word = "lignes "
	}
	return word + strings.Join(parts, ", ")
}

// blocks groups lines into the units a sentence lives in: a paragraph, a
// list item with its wrapped lines, a table cell. Each block keeps where
// its lines start and end among its words, since a sentence written on a
// line of its own needs no full stop before it.
type block struct {
	first  int
	folded string
	words  []string
	edges  []int // word indexes where a line starts or ends, ascending
}

// edge reports whether a line starts or ends at word index i.
func (b *block) edge(i int) bool {
	for _, e := range b.edges {
		if e == i {
			return true
		}
	}
	return false
}

func (b *block) addLine(folded string, ws []string) {
	if len(b.edges) == 0 || b.edges[len(b.edges)-1] != len(b.words) {
		b.edges = append(b.edges, len(b.words))
	}
	if b.folded != "" {
		b.folded += " "
	}
	b.folded += folded
	if b.words == nil {
		b.words = ws // the common one-line block shares the line's words
	} else {
		b.words = append(b.words[:len(b.words):len(b.words)], ws...)
	}
	b.edges = append(b.edges, len(b.words))
}

func (d *document) blocks() []block {
	var out []block
	var cur *block
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for _, l := range d.lines {
		switch {
		case l.blank:
			flush()
		case l.cells != nil:
			flush()
			for _, c := range l.cells {
				b := block{first: l.no}
				f := fold(c)
				b.addLine(f, words(f))
				out = append(out, b)
			}
		case l.starts || cur == nil:
			flush()
			cur = &block{first: l.no}
			cur.addLine(l.folded, l.words)
			if l.heading {
				flush()
			}
		default:
			cur.addLine(l.folded, l.words)
		}
	}
	flush()
	return out
}

// ---- the date ----

var monthNames = map[string]time.Month{
	"janvier": 1, "fevrier": 2, "mars": 3, "avril": 4, "mai": 5, "juin": 6,
	"juillet": 7, "aout": 8, "septembre": 9, "octobre": 10, "novembre": 11, "decembre": 12,
}

type foundDate struct {
	y, m, d int
	text    string
}

func (f foundDate) valid() (time.Time, bool) {
	if f.m < 1 || f.m > 12 || f.d < 1 || f.d > 31 {
		return time.Time{}, false
	}
	t := time.Date(f.y, time.Month(f.m), f.d, 0, 0, 0, 0, time.UTC)
	return t, t.Day() == f.d && int(t.Month()) == f.m
}

// findDates reads the dates of a line's words in the three formats.
func findDates(ws []string) []foundDate {
	var out []foundDate
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if !isDigits(w) && w != "1er" {
			continue
		}
		// 2026-10-20: words keeps "2026-10-20" whole (a dash inside a word).
		// 20/10/2026: three numbers around two slashes.
		if i+4 < len(ws) && ws[i+1] == "/" && ws[i+3] == "/" && isDigits(ws[i+2]) && isDigits(ws[i+4]) &&
			len(w) <= 2 && len(ws[i+2]) <= 2 && len(ws[i+4]) == 4 {
			out = append(out, foundDate{atoi(ws[i+4]), atoi(ws[i+2]), atoi(w), w + "/" + ws[i+2] + "/" + ws[i+4]})
			i += 4
			continue
		}
		// 20 octobre 2026, 1er octobre 2026
		if i+2 < len(ws) && (len(w) <= 2 || w == "1er") && isDigits(ws[i+2]) && len(ws[i+2]) == 4 {
			if m, ok := monthNames[ws[i+1]]; ok {
				d := 1
				if w != "1er" {
					d = atoi(w)
				}
				out = append(out, foundDate{atoi(ws[i+2]), int(m), d, w + " " + ws[i+1] + " " + ws[i+2]})
				i += 2
			}
		}
	}
	// ISO dates stay whole words because of their dashes.
	for _, w := range ws {
		if len(w) >= 8 && len(w) <= 10 && strings.Count(w, "-") == 2 {
			p := strings.Split(w, "-")
			if len(p[0]) == 4 && isDigits(p[0]) && isDigits(p[1]) && isDigits(p[2]) && len(p[1]) <= 2 && len(p[2]) <= 2 {
				out = append(out, foundDate{atoi(p[0]), atoi(p[1]), atoi(p[2]), w})
			}
		}
	}
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 6; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

func hasLabelWord(ws []string) bool {
	for _, w := range ws {
		if strings.HasPrefix(w, "demand") || strings.HasPrefix(w, "verif") || strings.HasPrefix(w, "ouvert") {
			return true
		}
	}
	return false
}

func aboutSession(folded string) bool { return strings.Contains(folded, "seance") }

func (d *document) checkDate(r *Result, rules Rules) {
	headingLabelled, headingUsed := false, false
	for _, l := range d.lines {
		if l.blank {
			continue
		}
		if l.heading {
			headingLabelled, headingUsed = hasLabelWord(l.words), false
			// A heading can hold the date itself: "## Demande du 20/10/2026".
		}
		dates := findDates(l.words)
		if len(dates) == 0 {
			continue
		}
		// A date counts when its line says what it is, or when it is the
		// first one under a heading that does; a line that starts with
		// "date" counts unless it is about the session.
		labelled := hasLabelWord(l.words) || headingLabelled && !headingUsed ||
			strings.HasPrefix(l.folded, "date") && !aboutSession(l.folded)
		if !labelled {
			continue
		}
		if aboutSession(l.folded) {
			// "demandé le 20/10 pour la séance du 5 novembre": the session
			// day on such a line is the session's, not the request's.
			kept := dates[:0:0]
			for _, c := range dates {
				if t, ok := c.valid(); !ok || !t.Equal(rules.SessionDay) {
					kept = append(kept, c)
				}
			}
			if dates = kept; len(dates) == 0 {
				continue
			}
		}
		headingUsed = true
		f := dates[0]
		t, ok := f.valid()
		switch {
		case !ok:
			r.add("bad-date", SevError, l.no, "la date %q n'existe pas dans le calendrier (jour d'abord : JJ/MM/AAAA, ou AAAA-MM-JJ)", f.text)
		case !rules.Today.IsZero() && t.After(rules.Today):
			r.add("future-date", SevError, l.no, "la date %s est dans le futur : notez le jour de la demande ou de la vérification", t.Format("2006-01-02"))
		case !rules.SessionDay.IsZero() && !t.Before(rules.SessionDay):
			r.add("late-request", SevWarning, l.no, "la date %s tombe le jour de la séance ou après : le compte risque de ne pas être prêt", t.Format("2006-01-02"))
		}
		return
	}
	r.add("missing-date", SevError, 0, "aucune date de demande ou de vérification du compte : ajoutez par exemple « Date de la demande : 2026-10-20 »")
}

// ---- the public key path ----

// pathTokens returns the words of a raw line that look like paths: they
// hold a slash or a backslash.
func pathTokens(raw string) []string {
	if !strings.ContainsAny(raw, `/\`) {
		return nil
	}
	var out []string
	for _, f := range strings.FieldsFunc(raw, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '`' || r == '"' || r == '\'' || r == '(' || r == ')' ||
			r == '<' || r == '>' || r == '[' || r == ']' || r == '|' || r == '*' || r == ',' || r == ';' || r == '«' || r == '»' || r == '\u00a0'
	}) {
		f = strings.TrimRight(f, ".:!?")
		if i := rootIndex(f); i > 0 {
			f = f[i:] // "Clé:~/.ssh/x.pub"
		}
		if strings.ContainsAny(f, `/\`) {
			out = append(out, f)
		}
	}
	return out
}

// rootIndex finds where a path starts inside a word.
func rootIndex(f string) int {
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

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

func (d *document) checkPath(r *Result, rules Rules) {
	var private string
	privLine := 0
	for _, l := range d.lines {
		if l.leak {
			continue
		}
		for _, p := range pathTokens(l.raw) {
			base := baseName(p)
			if strings.HasSuffix(base, ".pub") && len(base) > 4 {
				r.PubPath = p
				if rules.KeyName != "" && base != rules.KeyName {
					r.add("unexpected-key-name", SevWarning, l.no, "la clé publique s'appelle %s, pas %s : vérifiez que c'est la clé de la séance", base, rules.KeyName)
				}
				return
			}
			if private == "" && strings.HasPrefix(base, "id_") && !strings.Contains(base, ".") {
				private, privLine = p, l.no
			}
		}
	}
	if private != "" {
		r.add("private-key-path", SevError, privLine, "le chemin donné est celui de la clé privée (%s) : donnez celui de la clé publique, %s.pub", private, private)
		return
	}
	r.add("missing-pubkey-path", SevError, 0, "aucun chemin de clé publique : ajoutez par exemple « ~/.ssh/%s » (un nom seul ne suffit pas)", orDefault(rules.KeyName, "id_ed25519_romeo.pub"))
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ---- fingerprint, type, pasted keys ----

type statements struct {
	fingerprints []fpAt // well-formed SHA256 fingerprints
	badFP        []fpAt // SHA256 with the wrong length or alphabet
	md5          []fpAt
	pasted       []pastedKey
	ed25519      bool
	otherTypes   []string
	otherLine    int
}

type fpAt struct {
	fp   string
	line int
}

type pastedKey struct {
	line int
	key  ssh.PublicKey // nil when it does not parse
}

var typeWords = map[string]string{
	"ed25519": "ed25519", "ssh-ed25519": "ed25519",
	"ed25519-sk": "ED25519-SK", "sk-ssh-ed25519": "ED25519-SK",
	"rsa": "RSA", "ssh-rsa": "RSA",
	"ecdsa": "ECDSA", "ecdsa-sha2-nistp256": "ECDSA", "ecdsa-sha2-nistp384": "ECDSA", "ecdsa-sha2-nistp521": "ECDSA",
	"ecdsa-sk": "ECDSA-SK", "sk-ecdsa-sha2-nistp256": "ECDSA-SK",
	"dsa": "DSA", "ssh-dss": "DSA",
}

func (d *document) statements() *statements {
	st := &statements{}
	for _, l := range d.lines {
		if l.leak {
			continue
		}
		rest := d.scanKeyMaterial(l, st)
		if !mayNameType(rest) {
			continue
		}
		for _, w := range keyTypeWords(rest) {
			switch t := typeWords[strings.ToLower(w)]; t {
			case "":
			case "ed25519":
				st.ed25519 = true
			default:
				if st.otherLine == 0 {
					st.otherLine = l.no
				}
				st.otherTypes = append(st.otherTypes, t)
			}
		}
	}
	return st
}

// mayNameType is a cheap look for the letters every type word has.
func mayNameType(s string) bool {
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

// keyTypeWords splits on everything but letters, digits, '-' and '_', so
// id_ed25519_romeo stays one word and does not state a type.
func keyTypeWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	})
}

func isB64(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/'
}

// scanKeyMaterial collects fingerprints and pasted public keys of a raw
// line and returns the line with them blanked, so their base64 is not
// read as words.
func (d *document) scanKeyMaterial(l line, st *statements) string {
	raw := l.raw
	if !strings.Contains(raw, ":") && !strings.Contains(raw, "AAAA") {
		return raw // no fingerprint, no MD5 pairs, no pasted key
	}
	var out strings.Builder
	i := 0
	for i < len(raw) {
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
			if b, err := base64.RawStdEncoding.Strict().DecodeString(body); err == nil && len(b) == 32 && end == k {
				st.fingerprints = append(st.fingerprints, fpAt{"SHA256:" + body, l.no})
			} else {
				st.badFP = append(st.badFP, fpAt{raw[i:end], l.no})
			}
			out.WriteByte(' ')
			i = end
			continue
		case hasPrefixFold(raw[i:], "md5:") || isHexPairRun(raw[i:]):
			j := i
			if hasPrefixFold(raw[i:], "md5:") {
				j += 4
			}
			if isHexPairRun(raw[j:]) {
				st.md5 = append(st.md5, fpAt{"MD5", l.no})
				out.WriteByte(' ')
				i = j + 47
				continue
			}
		case strings.HasPrefix(raw[i:], "AAAA") && (i == 0 || !isB64(raw[i-1])):
			k := i
			for k < len(raw) && (isB64(raw[k]) || raw[k] == '=') {
				k++
			}
			if k-i >= 16 {
				st.pasted = append(st.pasted, parsePasted(raw, i, k, l.no))
				out.WriteByte(' ')
				i = k
				continue
			}
		}
		out.WriteByte(raw[i])
		i++
	}
	return out.String()
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case; prefix is lower case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if s[i]|0x20 != prefix[i] && s[i] != prefix[i] {
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
		return pastedKey{line: no}
	}
	return pastedKey{line: no, key: key}
}

func (d *document) checkFingerprint(r *Result, st *statements, rules Rules) {
	distinct := map[string]bool{}
	for _, f := range st.fingerprints {
		distinct[f.fp] = true
	}
	for _, b := range st.badFP {
		r.add("bad-fingerprint", SevError, b.line, "empreinte mal formée : après « SHA256: », il faut exactement 43 caractères base64, comme « ssh-keygen -lf » les affiche")
	}
	if len(st.fingerprints) == 0 && len(st.md5) > 0 {
		r.add("bad-fingerprint", SevError, st.md5[0].line, "empreinte MD5 : donnez l'empreinte SHA256 que « ssh-keygen -lf » affiche par défaut")
	}
	switch {
	case len(distinct) > 1:
		r.add("multiple-fingerprints", SevError, st.fingerprints[1].line, "%d empreintes SHA256 différentes : gardez seulement celle de la clé de la séance", len(distinct))
	case len(distinct) == 1:
		r.Fingerprint = st.fingerprints[0].fp
	case len(st.badFP) == 0 && len(st.md5) == 0:
		r.add("missing-fingerprint", SevError, 0, "aucune empreinte : ajoutez la ligne de « ssh-keygen -lf ~/.ssh/id_ed25519_romeo.pub » (256 SHA256:… (ED25519))")
	}

	// The type belongs to the third element with the fingerprint: when the
	// whole element is absent, missing-fingerprint says so once.
	anyFingerprint := len(st.fingerprints)+len(st.badFP)+len(st.md5) > 0
	switch {
	case st.ed25519:
	case len(st.otherTypes) > 0:
		r.add("wrong-type", SevError, st.otherLine, "le type indiqué est %s : la séance demande une clé ed25519", st.otherTypes[0])
	case anyFingerprint:
		r.add("missing-type", SevError, 0, "le type de la clé n'est pas indiqué : écrivez ed25519 (la ligne de « ssh-keygen -lf » finit par (ED25519))")
	}

	for _, p := range st.pasted {
		if p.key == nil {
			r.add("bad-public-key", SevWarning, p.line, "la clé publique collée est illisible : recopiez la ligne du fichier .pub en entier, ou retirez-la")
			continue
		}
		if r.Fingerprint != "" && ssh.FingerprintSHA256(p.key) != r.Fingerprint {
			r.add("fingerprint-mismatch", SevError, p.line, "la clé publique collée a l'empreinte %s, pas celle indiquée (%s)", ssh.FingerprintSHA256(p.key), r.Fingerprint)
		}
	}
	if rules.Beside != nil {
		entries, err := keys.ParsePublic(rules.Beside.Data)
		switch {
		case err != nil:
			r.add("bad-public-key", SevError, 0, "le fichier %s, à côté d'acces.md, n'est pas une clé publique lisible", rules.Beside.Name)
		case r.Fingerprint != "" && ssh.FingerprintSHA256(entries[0].Key) != r.Fingerprint:
			r.add("fingerprint-mismatch", SevError, 0, "le fichier %s a l'empreinte %s, pas celle indiquée (%s)", rules.Beside.Name, ssh.FingerprintSHA256(entries[0].Key), r.Fingerprint)
		}
	}
}

// ---- the sentence ----

var sentenceWords = words(fold(strings.TrimSuffix("Connexion uniquement vers le nœud de login indiqué par les organisateurs.", ".")))

func (d *document) checkSentence(r *Result) {
	found := false
	var altered []block
	for _, b := range d.blocks() {
		exact, hostAfter := containsSentence(b)
		switch {
		case exact && !hostAfter:
			found = true
		case exact && hostAfter, startsLikeSentence(b):
			altered = append(altered, b)
		case strings.Contains(b.folded, "noeud de login") || strings.Contains(b.folded, "noeud login"):
			altered = append(altered, b)
		}
	}
	for _, b := range altered {
		if found && !startsLikeSentence(b) {
			continue // prose about the login node beside the exact sentence
		}
		r.add("altered-sentence", SevError, b.first, "la phrase diffère de celle du cours : recopiez exactement « Connexion uniquement vers le nœud de login indiqué par les organisateurs. », sans nom de serveur")
		return
	}
	if !found {
		r.add("missing-sentence", SevError, 0, "la phrase manque : recopiez « Connexion uniquement vers le nœud de login indiqué par les organisateurs. »")
	}
}

// startsLikeSentence: a line or a sentence of the block opens with
// "connexion", as a copy of the sentence would.
func startsLikeSentence(b block) bool {
	for i, w := range b.words {
		if w == "connexion" && (i == 0 || b.edge(i) || strings.Contains(".!?:", b.words[i-1])) {
			return true
		}
	}
	return false
}

// containsSentence finds the sentence as whole words, starting a line or
// following a sentence end or a colon, and ending a line or followed by a
// full stop. hostAfter reports a host name written after it in the block.
func containsSentence(b block) (exact, hostAfter bool) {
	ws := b.words
	n := len(sentenceWords)
	for i := 0; i+n <= len(ws); i++ {
		match := true
		for j := 0; j < n; j++ {
			if ws[i+j] != sentenceWords[j] {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		if i > 0 && !b.edge(i) && !strings.Contains(".!?:", ws[i-1]) {
			continue
		}
		end := i + n
		switch {
		case end == len(ws):
			return true, false
		case ws[end] == "." || ws[end] == "!":
			return true, hostLike(ws[end+1:])
		case b.edge(end):
			return true, hostLike(ws[end:])
		}
	}
	return false, false
}

// fileExtensions end words that look like host names but are files.
var fileExtensions = map[string]bool{"pub": true, "md": true, "txt": true, "yaml": true, "yml": true, "sbatch": true, "out": true, "sh": true, "json": true}

// hostLike spots a host name or address among the words after the
// sentence: "romeo.univ-reims.fr", "10.0.0.1", "kim@login".
func hostLike(ws []string) bool {
	for i := 0; i+2 < len(ws); i++ {
		if ws[i+1] == "@" && isWordish(ws[i]) && isWordish(ws[i+2]) {
			return true
		}
		if ws[i+1] == "." && isWordish(ws[i]) && isWordish(ws[i+2]) && !fileExtensions[ws[i+2]] {
			return true
		}
	}
	return false
}

func isWordish(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return isWordRune(r)
}
