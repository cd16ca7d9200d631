// Package acces holds the rules of acces.md (docs/acces-md.md). The page
// is read as a Markdown renderer reads it (markdown.go): each rule looks
// at the blocks a reader of the rendered page sees, one file per element
// the page must state.
package acces

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/textfold"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/keys/leak"
	"github.com/romeo-pret/pret/keys/signing"
)

// MaxAccessSize is the largest acces.md read: one page is a few hundred
// bytes, and nothing over this is read further.
const MaxAccessSize = 1 << 20

const tooLarge = "fichier trop grand (plus de 1 Mio) : un acces.md tient sur une page ; il n'a pas été lu"

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
	// RequireSignature makes a file without a signature block invalid
	// (`pret valider --exiger-signature`).
	RequireSignature bool
}

// Result is what the validator found in one file.
type Result struct {
	Problems []checklist.Problem
	// Fingerprint is the stated SHA256 fingerprint ("SHA256:…"), when the
	// file states exactly one well-formed fingerprint.
	Fingerprint string
	// FingerprintLine is the line that states Fingerprint.
	FingerprintLine int
	// PubPath is the first public key path stated, as shown.
	PubPath string
	// Date is the labelled date when it is a real day (AAAA-MM-JJ), and
	// Status what it dates: "demande", "verifie", or "" when the file
	// does not say.
	Date, Status string
	// DateLine is the line of the labelled date (1-based), 0 when none:
	// where pret offers to change only the date (onboarding).
	DateLine int
	// SignedBy is the fingerprint of the key whose signature holds over the
	// file, when no signature problem was found; empty otherwise.
	SignedBy string
	// SignatureFix is what to do about a signature problem, when there is
	// one: « pret signer » for a signature that no longer holds, a change
	// by hand first when re-signing would drop text.
	SignatureFix string

	counts map[string]int // problems per code, kept or not
}

// Valid reports whether no problem is an error.
func (r *Result) Valid() bool {
	return !slices.ContainsFunc(r.Problems, func(p checklist.Problem) bool { return p.Severity == checklist.SevError })
}

// maxPerCode bounds the problems of one code in one file: a line of
// 50 000 malformed fingerprints gets ten, the last saying how many more,
// not 50 000 messages (and megabytes of report).
const maxPerCode = 10

func (r *Result) add(code string, sev checklist.Severity, line int, format string, args ...any) {
	if r.counts == nil {
		r.counts = map[string]int{}
	}
	if r.counts[code]++; r.counts[code] > maxPerCode {
		return
	}
	r.Problems = append(r.Problems, checklist.Problem{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...), Line: line})
}

// noteCapped tells, on the last problem kept of each code past
// maxPerCode, how many more there were.
func (r *Result) noteCapped() {
	for i := len(r.Problems) - 1; i >= 0; i-- {
		p := &r.Problems[i]
		if n := r.counts[p.Code]; n > maxPerCode {
			p.Message += fmt.Sprintf(" (et %d autres problèmes %s plus loin)", n-maxPerCode, p.Code)
			r.counts[p.Code] = maxPerCode
		}
	}
}

// Validate reads an acces.md and reports every problem of acces-md.md.
// No message ever quotes a line of private key material.
func Validate(data []byte, rules Rules) *Result {
	r := &Result{}
	if len(data) > MaxAccessSize {
		r.add("too-large", checklist.SevError, 0, tooLarge)
		return r
	}
	// The signature covers the file as sent, BOM and line ends included.
	sf := signing.SplitSigned(data)
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if i := bytes.IndexByte(data, 0); i >= 0 {
		r.add("not-text", checklist.SevError, 1+bytes.Count(data[:i], []byte("\n")), "ce n'est pas un fichier texte (octet nul) : envoyez acces.md en texte UTF-8")
		// The signature is over bytes: saying it no longer holds tells
		// the learner the file was damaged after signing.
		checkSignature(r, sf, rules, false)
		return r
	}
	if !utf8.Valid(data) {
		r.add("not-text", checklist.SevError, invalidUTF8Line(data), "le fichier n'est pas en UTF-8 : enregistrez acces.md en UTF-8")
		checkSignature(r, sf, rules, false)
		return r
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	// The signature block is a public key and a signature, never private
	// key material, unless one of its fields smuggles some (Inert); the
	// rules do not read it as words either.
	inSignature := func(n int) bool { return sf.From > 0 && n >= sf.From && n <= sf.To }
	inert := sf.Inert()
	var leaked []int
	for _, n := range leak.Lines(text) {
		if !inSignature(n) || !inert {
			leaked = append(leaked, n)
		}
	}
	if sf.Sig != nil && !inert {
		for n := sf.From; n <= sf.To; n++ {
			leaked = append(leaked, n)
		}
		slices.Sort(leaked)
		leaked = slices.Compact(leaked)
	}
	if len(leaked) > 0 {
		r.Problems = append(r.Problems, checklist.LeakProblem(leaked))
	}
	var keyText map[string]bool
	if len(leaked) > 0 {
		keyText = keyWindows(text, leaked)
	}
	if len(leaked) > 0 || sf.From > 0 {
		text = blankLines(text, func(n int) bool {
			_, leak := slices.BinarySearch(leaked, n)
			return leak || inSignature(n)
		})
	}

	p := page{rules: rules}
	readBlocks(text, p.visit)
	p.date.finish(r, rules)
	p.path.finish(r, rules)
	p.keys.finish(r, rules)
	p.sentence.finish(r)
	checkSignature(r, sf, rules, p.keys.ed25519)
	if keyText != nil {
		// A line of the key copied elsewhere (into a path, after a
		// label) is not key material to the detector, but quoting it
		// would print part of the key.
		for i := range r.Problems {
			if r.Problems[i].Code != "private-key-leak" {
				r.Problems[i].Message = maskKey(r.Problems[i].Message, keyText)
			}
		}
		r.PubPath = maskKey(r.PubPath, keyText)
		r.Fingerprint = maskKey(r.Fingerprint, keyText)
	}
	r.noteCapped()
	return r
}

// keyWindow is the length of the pieces of key text maskKey looks for,
// and keyStride how far apart they start: any run of keyWindow+keyStride-1
// base64 characters of the key holds a piece that starts on a stride.
const (
	keyWindow    = 16
	keyStride    = 8
	maxKeyPieces = 8192 // 64 KiB of key text: a private key is under 4 KiB
)

// keyWindows is the set of keyWindow-long pieces of the leaked lines'
// base64, white space removed, starting every keyStride characters.
func keyWindows(text string, leaked []int) map[string]bool {
	var b strings.Builder
	n := 0
	for l := range strings.Lines(text) {
		n++
		if _, ok := slices.BinarySearch(leaked, n); ok {
			for _, c := range []byte(l) {
				if isB64(c) {
					b.WriteByte(c)
				}
			}
		}
	}
	all := b.String()
	pieces := map[string]bool{}
	for i := 0; i+keyWindow <= len(all) && len(pieces) < maxKeyPieces; i += keyStride {
		pieces[all[i:i+keyWindow]] = true
	}
	return pieces
}

// maskKey replaces in s every run of base64 characters that holds a
// piece of the key with « … ».
func maskKey(s string, pieces map[string]bool) string {
	var out strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isB64(s[j]) {
			j++
		}
		if j == i {
			out.WriteByte(s[i])
			i++
			continue
		}
		run := s[i:j]
		for k := 0; k+keyWindow <= len(run); k++ {
			if pieces[run[k:k+keyWindow]] {
				run = "…"
				break
			}
		}
		out.WriteString(run)
		i = j
	}
	return out.String()
}

// page is the rules reading a file block by block.
type page struct {
	rules    Rules
	date     dateRule
	path     pathRule
	keys     keyRule
	sentence sentenceRule
}

func (p *page) visit(b *block) {
	ts := textfold.Tokens(b.text)
	ws := words(ts)
	p.date.visit(b, ts, ws, p.rules)
	if b.kind == row {
		return // its cells were read one by one
	}
	p.path.visit(b)
	p.keys.visit(b)
	p.sentence.visit(b, ws)
}

// blankLines is text with the lines blank says (1-based) emptied: never
// read further, never quoted; the line breaks stay, so the line numbers
// of the rest do not move.
func blankLines(text string, blank func(int) bool) string {
	var b strings.Builder
	b.Grow(len(text))
	n := 0
	for line := range strings.Lines(text) {
		if n++; blank(n) {
			line = line[len(strings.TrimSuffix(line, "\n")):]
		}
		b.WriteString(line)
	}
	return b.String()
}

// invalidUTF8Line is the line of the first byte that is not UTF-8 (no
// UTF-8 sequence holds a line feed, so lines can be checked one by one).
func invalidUTF8Line(data []byte) int {
	n := 1
	for line := range bytes.Lines(data) {
		if !utf8.Valid(line) {
			break
		}
		n++
	}
	return n
}

// Target is one acces.md to validate, with the .pub found beside it.
type Target struct {
	Path string
	// Pub is the public key file in the same folder ("" when none): the
	// configured name when present, else the first in name order.
	Pub string
}

// TargetFor is the target of one file named by the person, with the
// .pub that sits in its folder. Folders and archives are walked by
// checklist/submissions; this serves the commands that read one file.
func TargetFor(path, keyName string) Target {
	t := Target{Path: path}
	if entries, err := os.ReadDir(filepath.Dir(path)); err == nil {
		if pub := ChoosePub(entries, keyName); pub != "" {
			t.Pub = filepath.Join(filepath.Dir(path), pub)
		}
	}
	return t
}

// ChoosePub picks the public key file of a folder: the configured name
// when present, else the first in name order.
func ChoosePub(entries []fs.DirEntry, keyName string) string {
	name := ""
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".pub") && e.Type().IsRegular() {
			if e.Name() == keyName {
				return keyName
			}
			if name == "" || e.Name() < name {
				name = e.Name()
			}
		}
	}
	return name
}

// ValidateFile reads one file within the size bound and validates it,
// with the .pub beside it.
func ValidateFile(t Target, rules Rules) checklist.FileResult {
	res := checklist.FileResult{Path: t.Path}
	data, err := safefile.Read(t.Path, safefile.Kind{Name: "fichier", Max: MaxAccessSize}, safefile.FollowLink)
	switch {
	case errors.Is(err, safefile.ErrTooLarge):
		res.Problems = []checklist.Problem{{Code: "too-large", Severity: checklist.SevError, Message: tooLarge}}
		return res
	case err != nil:
		res.Problems = []checklist.Problem{{Code: "unreadable", Severity: checklist.SevError, Message: "fichier illisible : " + safefile.Reason(err)}}
		return res
	}
	if t.Pub != "" {
		pub, err := keys.ReadFile(safefile.KeyFiles{}, t.Pub)
		if err != nil {
			pub = nil // unreadable or too large: reported as a bad public key
		}
		rules.Beside = &PubFile{Name: filepath.Base(t.Pub), Data: pub}
	}
	r := Validate(data, rules)
	res.Problems, res.Fingerprint, res.Valid = r.Problems, r.Fingerprint, r.Valid()
	res.Date, res.Statut, res.Signed = r.Date, r.Status, r.SignedBy != ""
	return res
}

// BaseName is the last part of a path written with / or \.
func BaseName(p string) string { return p[strings.LastIndexAny(p, `/\`)+1:] }
