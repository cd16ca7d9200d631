// Package acces holds the rules of acces.md (docs/acces-md.md), read on
// the blocks of the rendered page (markdown.go), a file per element.
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

// MaxAccessSize is the largest acces.md read (a page is a few hundred bytes).
const MaxAccessSize = 1 << 20

const tooLarge = "fichier trop grand (plus de 1 Mio) : un acces.md tient sur une page ; il n'a pas été lu"

// PubFile is a public key file found beside the acces.md, read whole.
type PubFile struct {
	Name string
	Data []byte
}

// Rules are what a file is checked against: the course's key name and days.
type Rules struct {
	KeyName          string    // the expected public key file name, "id_ed25519_romeo.pub"
	SessionDay       time.Time // civil day; a request on or after it is late
	Today            time.Time // civil day; a later date is in the future
	Beside           *PubFile  // a .pub in the same folder, if any
	RequireSignature bool      // --exiger-signature
}

// Result is what Validate found in one file.
type Result struct {
	Problems []checklist.Problem
	// Fingerprint is set when the file states exactly one well-formed one.
	Fingerprint     string
	FingerprintLine int
	PubPath         string // the first public key path stated, as shown
	// Date is the labelled date when it is a real day (AAAA-MM-JJ), Status
	// what it dates: "demande", "verifie", or "".
	Date, Status string
	DateLine     int    // 0 when none: onboarding changes only that line
	SignedBy     string // the signer's fingerprint when no signature problem
	// SignatureFix is the advice for a signature problem: « pret signer »,
	// or a change by hand first when re-signing would drop text.
	SignatureFix string

	counts map[string]int // problems per code, kept or not
}

func (r *Result) Valid() bool {
	return !slices.ContainsFunc(r.Problems, func(p checklist.Problem) bool { return p.Severity == checklist.SevError })
}

// maxPerCode bounds the problems of one code in one file: 50,000 malformed
// fingerprints get ten messages, the last saying how many more.
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

func (r *Result) noteCapped() {
	for i := len(r.Problems) - 1; i >= 0; i-- {
		p := &r.Problems[i]
		if n := r.counts[p.Code]; n > maxPerCode {
			p.Message += fmt.Sprintf(" (et %d autres problèmes %s plus loin)", n-maxPerCode, p.Code)
			r.counts[p.Code] = maxPerCode
		}
	}
}

// Validate reports every problem of acces-md.md. No message ever quotes
// private key material.
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
		// A signature that no longer holds says the file was damaged.
		checkSignature(r, sf, rules, false)
		return r
	}
	if !utf8.Valid(data) {
		r.add("not-text", checklist.SevError, invalidUTF8Line(data), "le fichier n'est pas en UTF-8 : enregistrez acces.md en UTF-8")
		checkSignature(r, sf, rules, false)
		return r
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	// The signature block is no key material unless a field smuggles some
	// (Inert); the rules do not read it as words either.
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
	var keyText map[string]bool
	if len(leaked) > 0 {
		r.Problems = append(r.Problems, checklist.LeakProblem(leaked))
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
		// A line of the key copied elsewhere is no key material to the
		// detector, but quoting it would print part of the key.
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

// maskKey looks for keyWindow-long pieces of key text starting every
// keyStride: any keyWindow+keyStride-1 characters of the key hold one.
const (
	keyWindow    = 16
	keyStride    = 8
	maxKeyPieces = 8192 // 64 KiB of key text: a private key is under 4 KiB
)

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

// maskKey replaces with « … » every base64 run of s holding a key piece.
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

// blankLines empties the lines blank says (1-based), keeping the line
// breaks so line numbers do not move.
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

// invalidUTF8Line: no UTF-8 sequence holds a line feed, so lines can be
// checked one by one.
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

// Target is one acces.md to validate, with the .pub beside it.
type Target struct {
	Path string
	Pub  string // the .pub in the same folder (ChoosePub), "" when none
}

// TargetFor is the target of one named file (checklist/submissions walks
// folders and archives).
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

// ValidateFile reads t through the bounded reader and validates it.
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
			pub = nil // reported as a bad public key
		}
		rules.Beside = &PubFile{Name: filepath.Base(t.Pub), Data: pub}
	}
	r := Validate(data, rules)
	res.Problems, res.Fingerprint, res.Valid = r.Problems, r.Fingerprint, r.Valid()
	res.Date, res.Statut, res.Signed = r.Date, r.Status, r.SignedBy != ""
	return res
}

// BaseName is the last element of a path with either separator.
func BaseName(p string) string { return p[strings.LastIndexAny(p, `/\`)+1:] }
