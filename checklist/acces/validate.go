// Package acces holds the rules of acces.md (acces-md.md): one file per
// element the page must state, the reader they share, and the batch
// validation of `pret valider`.
package acces

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/keys/signing"
)

// MaxAccessSize is the largest acces.md read: one page is a few hundred
// bytes, and nothing over this is read further.
const MaxAccessSize = 1 << 20

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
	// PubPath is the first public key path stated, as written.
	PubPath string
	// Date is the labelled date when it is a real day (AAAA-MM-JJ), and
	// Status what it dates: "demande", "verifie", or "" when the file
	// does not say.
	Date, Status string
	// SignedBy is the fingerprint of the key whose signature holds over the
	// file, when no signature problem was found; empty otherwise.
	SignedBy string
	// SignatureFix is what to do about a signature problem, when there is
	// one: « pret signer » for a signature that no longer holds, a change
	// by hand first when re-signing would drop text (pret signer refuses
	// then, and must not be the advice).
	SignatureFix string

	// counts are the problems per code, kept or not (maxPerCode): a few
	// codes in place, the rest in a map made only for a file that has
	// more kinds of problem than that. No map for a typical file.
	counts     [4]codeCount
	moreCounts map[string]int
	capped     bool // a code passed maxPerCode: noteCapped has work
}

type codeCount struct {
	code string
	n    int
}

// Valid reports whether no problem is an error.
func (r *Result) Valid() bool {
	for _, p := range r.Problems {
		if p.Severity == checklist.SevError {
			return false
		}
	}
	return true
}

// maxPerCode bounds the problems of one code in one file: a line of
// 50 000 malformed fingerprints gets ten, the last saying how many more,
// not 50 000 messages (and megabytes of report).
const maxPerCode = 10

func (r *Result) add(code string, sev checklist.Severity, line int, format string, args ...any) {
	if r.count(code, 1) > maxPerCode {
		return // counted, not built
	}
	msg := format
	// A message without arguments is its format as fmt would print it
	// when it holds no verb: no Sprintf on the path of most problems.
	if len(args) > 0 || strings.IndexByte(format, '%') >= 0 {
		msg = fmt.Sprintf(format, args...)
	}
	r.Problems = append(r.Problems, checklist.Problem{Code: code, Severity: sev, Message: msg, Line: line})
}

// count adds n to the problems of code and returns their number.
func (r *Result) count(code string, n int) int {
	for i := range r.counts {
		c := &r.counts[i]
		if c.code == "" {
			c.code = code
		}
		if c.code == code {
			c.n += n
			r.capped = r.capped || c.n > maxPerCode
			return c.n
		}
	}
	if r.moreCounts == nil {
		r.moreCounts = map[string]int{}
	}
	r.moreCounts[code] += n
	r.capped = r.capped || r.moreCounts[code] > maxPerCode
	return r.moreCounts[code]
}

// countOf is the number of problems of code, kept or not.
func (r *Result) countOf(code string) int {
	for i := range r.counts {
		if r.counts[i].code == code {
			return r.counts[i].n
		}
	}
	return r.moreCounts[code]
}

// countMore counts n problems of code past those built: a rule that
// keeps only the first maxPerCode of a kind (statements) still has the
// last one say how many more there were.
func (r *Result) countMore(code string, n int) {
	if n <= 0 {
		return
	}
	r.count(code, n)
}

// noteCapped tells, on the last problem kept of each code that reached
// maxPerCode, how many more there were.
func (r *Result) noteCapped() {
	if !r.capped {
		return
	}
	for i := len(r.Problems) - 1; i >= 0; i-- {
		p := &r.Problems[i]
		if n := r.countOf(p.Code); n > maxPerCode {
			p.Message += fmt.Sprintf(" (et %d autres problèmes %s plus loin)", n-maxPerCode, p.Code)
			r.count(p.Code, maxPerCode-n)
		}
	}
}

// Validate reads an acces.md and reports every problem of acces-md.md.
// No message ever quotes a line of private key material.
func Validate(data []byte, rules Rules) *Result {
	r := &Result{}
	ValidateInto(r, data, rules)
	return r
}

// ValidateInto is Validate into r, which it resets first: a caller that
// validates file after file keeps one Result and copies out what it
// keeps (the Problems slice is new for each file; r never shares it).
func ValidateInto(r *Result, data []byte, rules Rules) {
	*r = Result{}
	if len(data) > MaxAccessSize {
		r.add("too-large", checklist.SevError, 0, "fichier trop grand (plus de 1 Mio) : un acces.md tient sur une page ; il n'a pas été lu")
		return
	}
	// The signature covers the file as sent, BOM included.
	var split signing.SignedFile
	split.Split(data)
	sf := &split
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if i := bytes.IndexByte(data, 0); i >= 0 {
		r.add("not-text", checklist.SevError, 1+bytes.Count(data[:i], []byte("\n")), "ce n'est pas un fichier texte (octet nul) : envoyez acces.md en texte UTF-8")
		// The signature is over bytes, not text: saying it no longer
		// holds tells the learner the file was damaged after signing.
		checkSignature(r, sf, rules)
		return
	}
	if !utf8.Valid(data) {
		r.add("not-text", checklist.SevError, invalidUTF8Line(data), "le fichier n'est pas en UTF-8 : enregistrez acces.md en UTF-8")
		checkSignature(r, sf, rules)
		return
	}
	doc := readLines(string(data))
	doc.dropSignature(sf, false)
	doc.leaks(r)
	doc.dropSignature(sf, true)
	// The statements' struct and its arrays of lines serve file after
	// file; nothing of it outlives checkFingerprint.
	st := statementsPool.Get().(*statements)
	*st = statements{}
	doc.readStatements(st)
	doc.checkDate(r, rules)
	doc.checkPath(r, rules)
	doc.checkFingerprint(r, st, rules)
	*st = statements{}
	statementsPool.Put(st)
	doc.checkSentence(r)
	checkSignature(r, sf, rules)
	doc.release()
	r.noteCapped()
}

var statementsPool = sync.Pool{New: func() any { return new(statements) }}

// invalidUTF8Line is the line of the first byte that is not UTF-8.
func invalidUTF8Line(data []byte) int {
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
