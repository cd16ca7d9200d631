// Package acces holds the rules of acces.md (docs/acces-md.md), read on
// the blocks of the rendered page (markdown.go), a file per element.
package acces

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/mdbounds"
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
// One .pub may sit beside many files (a zip of 10,000 entries in one folder): it is
// read once, by the first validation that needs it.
type PubFile struct {
	Name string
	Data []byte
	once sync.Once
	read pubRead
}

// Rules are what a file is checked against: the course's key name and days.
type Rules struct {
	KeyName          string    // the expected public key file name, "id_ed25519_romeo.pub"
	SessionDay       time.Time // civil day; a request on or after it is late
	Today            time.Time // civil day; a later date is in the future
	Beside           *PubFile  // a .pub in the same folder, if any
	RequireSignature bool      // --exiger-signature
	// OnlineText: the file is a Moodle online text (onlinetext.html), read as the
	// page its author typed in Moodle's editor, which rewrites the bytes it is
	// given: no signature can hold there, so none is required.
	OnlineText bool
}

// Result is what Validate found in one file.
type Result struct {
	Problems        []checklist.Problem
	Fingerprint     string // set when the file states exactly one well-formed one
	FingerprintLine int
	PubPath         string // the first public key path stated, as shown
	// Date: the labelled date when a real day (AAAA-MM-JJ); Status what it dates: "demande", "verifie", "".
	Date, Status string
	DateLine     int    // 0 when none: onboarding changes only that line
	SignedBy     string // the signer's fingerprint when no signature problem
	// SignatureFix: « pret signer », or a change by hand first when re-signing would drop text.
	SignatureFix string

	counts map[checklist.Code]int // problems per code, kept or not
}

func (r *Result) Valid() bool {
	return !slices.ContainsFunc(r.Problems, func(p checklist.Problem) bool { return p.Severity == checklist.SevError })
}

// maxPerCode bounds the problems of one code in one file: 50,000 malformed
// fingerprints get ten messages, the last saying how many more.
const maxPerCode = 10

func (r *Result) add(code checklist.Code, sev checklist.Severity, line int, format string, args ...any) {
	if r.counts == nil { // most files have no problem
		r.counts = map[checklist.Code]int{}
	}
	if r.counts[code]++; r.counts[code] > maxPerCode {
		return
	}
	r.Problems = append(r.Problems, checklist.Problem{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...), Line: line})
}

// Validate reports every problem of acces-md.md. No message ever quotes
// private key material.
func Validate(data []byte, rules Rules) *Result {
	r := &Result{}
	rules.RequireSignature = rules.RequireSignature && !rules.OnlineText
	if len(data) > MaxAccessSize {
		r.add(checklist.CodeTooLarge, checklist.SevError, 0, tooLarge)
		return r
	}
	// The signature covers the file as sent, BOM and line ends included.
	sf := signing.SplitSigned(data)
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	bad, why := bytes.IndexByte(data, 0), "ce n'est pas un fichier texte (octet nul) : envoyez acces.md en texte UTF-8"
	if bad < 0 && !utf8.Valid(data) {
		// data holds no NUL: the first one ToValidUTF8 writes is at the first invalid byte.
		bad = bytes.IndexByte(bytes.ToValidUTF8(data, []byte{0}), 0)
		why = "le fichier n'est pas en UTF-8 : enregistrez acces.md en UTF-8"
	}
	if bad >= 0 {
		// Not text, but a key in it (Latin-1, PowerShell's UTF-16, UTF-16
		// appended to UTF-8) is sent all the same: said first.
		if leaked := leak.File(data); len(leaked) > 0 {
			r.Problems = append(r.Problems, checklist.LeakProblem(leaked))
		}
		r.add(checklist.CodeNotText, checklist.SevError, 1+bytes.Count(data[:bad], []byte("\n")), "%s", why)
		// A signature that no longer holds says the file was damaged.
		checkSignature(r, sf, rules, false)
		return r
	}
	text, pieces := withoutLeaks(r, mdbounds.LoneCRs(strings.ReplaceAll(string(data), "\r\n", "\n")), sf)

	ed25519 := applyRules(r, text, rules)
	if slices.ContainsFunc(r.Problems, func(p checklist.Problem) bool { return p.Code == checklist.CodePrivateKeyLeak }) {
		// The rules do not read a line of key material: an online text on
		// one line, a date beside the key, would be missing for no reason given.
		for i, p := range r.Problems {
			if slices.Contains(unreadWhenLeaked, p.Code) {
				r.Problems[i].Message += " (pret ne lit pas les lignes de la clé privée signalée)"
			}
		}
	}
	checkSignature(r, sf, rules, ed25519)
	// A line of the key copied elsewhere is no key material to the
	// detector, but quoting it would print part of the key.
	for i := range r.Problems {
		if r.Problems[i].Code != checklist.CodePrivateKeyLeak {
			r.Problems[i].Message = pieces.Mask(r.Problems[i].Message)
		}
	}
	r.PubPath, r.Fingerprint = pieces.Mask(r.PubPath), pieces.Mask(r.Fingerprint)
	for i := len(r.Problems) - 1; i >= 0; i-- { // the last of a capped code counts the rest
		p := &r.Problems[i]
		if n := r.counts[p.Code]; n > maxPerCode {
			p.Message += fmt.Sprintf(" (et %d autres problèmes %s plus loin)", n-maxPerCode, p.Code)
			r.counts[p.Code] = maxPerCode
		}
	}
	// A key is an incident: said first, the .pub's among them (issue 30).
	slices.SortStableFunc(r.Problems, func(a, b checklist.Problem) int {
		return cmp.Compare(leakLast(a), leakLast(b))
	})
	return r
}

// unreadWhenLeaked are the codes of what a line of key material may hold.
var unreadWhenLeaked = []checklist.Code{checklist.CodeMissingDate, checklist.CodeMissingPubkeyPath,
	checklist.CodeMissingFingerprint, checklist.CodeMissingType, checklist.CodeMissingSentence}

// applyRules reads text's blocks, as a renderer shows them or, for an online text,
// as a browser does, and adds what each rule finds to r; ed25519 reports the type
// stated.
func applyRules(r *Result, text string, rules Rules) (ed25519 bool) {
	var p struct { // one allocation, kept by the closure below
		date     dateRule
		path     pathRule
		key      keyRule
		sentence sentenceRule
	}
	read := readBlocks
	if rules.OnlineText {
		read = readOnlineText
	}
	why, line := read(text, func(b *block) {
		if b.kind == row && p.date.done {
			return // only the date rule reads a row
		}
		ts := textfold.Tokens(b.text)
		p.date.visit(b, ts, rules)
		if b.kind != row { // a row's cells were read one by one
			p.path.visit(b)
			p.key.visit(b)
			p.sentence.visit(b, words(ts))
		}
	})
	if why != "" { // unread, as over MaxAccessSize: no rule reports what it did not read
		r.add(checklist.CodeTooLarge, checklist.SevError, line, "acces.md n'est pas lu (%s) : un acces.md tient sur une page ; retirez ce qui n'y est pas demandé", why)
	} else {
		p.date.finish(r, rules)
		p.path.finish(r, rules)
		p.key.finish(r, rules)
		p.sentence.finish(r)
	}
	return p.key.ed25519
}

// leakLast orders problems: a private-key-leak (0) before the others (1).
func leakLast(p checklist.Problem) int {
	if p.Code == checklist.CodePrivateKeyLeak {
		return 0
	}
	return 1
}

// withoutLeaks reports the lines of key material of text, and returns
// text without them nor the signature block (breaks kept, so line
// numbers stay), which the rules read, and the pieces of their key text
// no message may show.
func withoutLeaks(r *Result, text string, sf *signing.SignedFile) (string, leak.Pieces) {
	// The signature block is no key material unless a field smuggles some
	// (Inert); the rules do not read it as words either.
	inSignature := func(n int) bool { return sf.From > 0 && n >= sf.From && n <= sf.To }
	leaked := leak.Lines(text)
	if sf.Inert() {
		leaked = slices.DeleteFunc(leaked, inSignature)
	} else if sf.Sig != nil {
		for n := sf.From; n <= sf.To; n++ {
			leaked = append(leaked, n)
		}
		slices.Sort(leaked)
		leaked = slices.Compact(leaked)
	}
	if len(leaked) == 0 && sf.From == 0 {
		return text, leak.Pieces{}
	}
	if len(leaked) > 0 {
		r.Problems = append(r.Problems, checklist.LeakProblem(leaked))
	}
	var kept strings.Builder
	n := 0
	for line := range strings.Lines(text) {
		n++
		if _, leak := slices.BinarySearch(leaked, n); leak || inSignature(n) {
			line = line[len(strings.TrimSuffix(line, "\n")):]
		}
		kept.WriteString(line)
	}
	return kept.String(), leak.PiecesOf(text, leaked)
}

// words are the folded words and marks of a block (acces-md.md, "Reading the text"), ts filtered
// in place: without the decoration a renderer leaves (quotes, emphasis, pipes, heading marks).
func words(ts []textfold.Token) []textfold.Token {
	return slices.DeleteFunc(ts, func(t textfold.Token) bool { return !notDecoration(t) })
}

// notDecoration: t is one of words, a word or a mark.
func notDecoration(t textfold.Token) bool {
	r, _ := utf8.DecodeRuneInString(t.Folded)
	return !strings.ContainsRune(`"«»“”„‘’'*_`+"`|>#", r)
}

// Target is one acces.md to validate, with the .pub beside it.
type Target struct {
	Path string
	Pub  string // the .pub in the same folder, "" when none
}

// TargetFor is the target of one named file (checklist/submissions walks folders): its
// .pub is the configured name when present, else the first in name order.
func TargetFor(path, keyName string) Target {
	t := Target{Path: path}
	if entries, err := os.ReadDir(filepath.Dir(path)); err == nil { // sorted by name
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".pub") && e.Type().IsRegular() && (t.Pub == "" || e.Name() == keyName) {
				t.Pub = filepath.Join(filepath.Dir(path), e.Name())
			}
		}
	}
	return t
}

// ValidateFile reads t through the bounded reader and validates it.
func ValidateFile(t Target, rules Rules) checklist.FileResult {
	res := checklist.FileResult{Path: t.Path}
	data, err := safefile.Read(t.Path, safefile.Kind{Name: "fichier", Max: MaxAccessSize}, safefile.FollowLink)
	if err != nil {
		p := checklist.Problem{Code: checklist.CodeUnreadable, Severity: checklist.SevError, Message: "fichier illisible : " + safefile.Reason(err)}
		if errors.Is(err, safefile.ErrTooLarge) {
			p.Code, p.Message = checklist.CodeTooLarge, tooLarge
		}
		res.Problems = []checklist.Problem{p}
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
