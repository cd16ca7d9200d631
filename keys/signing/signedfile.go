package signing

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/keys/leak"
)

// SigMarker is the line that ends the signed part of acces.md; the
// armour follows in a fenced block. The signed bytes are exactly what
// `sed '/^<!-- pret:signature -->$/,$d'` prints, so anyone can check a
// file with OpenSSH alone.
const SigMarker = "<!-- pret:signature -->"

// Why a signature part is refused. Above the marker, a stray marker or
// armour line would make OpenSSH's recipe cut the file elsewhere; below
// it, text would look signed and is not.
var (
	ErrUnsigned        = errors.New("le fichier n'est pas signé")
	ErrStray           = errors.New("marque ou bloc de signature hors de sa place")
	ErrMisplacedMarker = errors.New("la marque <!-- pret:signature --> est suivie de texte, pas d'un bloc de signature")
	ErrTrailing        = errors.New("du texte suit le bloc de signature")
	ErrNoBlock         = errors.New("la marque <!-- pret:signature --> n'est suivie d'aucun bloc")
	// ErrNoFence: the rendered page would show the armour as text.
	ErrNoFence = errors.New("le bloc de signature n'est pas entre deux lignes ``` (ou ~~~)")
	// ErrAfterEnd: OpenSSH's recipe stops at END; what follows is not
	// signed, usually a block opened with ~~~ and "closed" with ```.
	ErrAfterEnd = errors.New("du texte suit la ligne END SSH SIGNATURE dans le bloc de code (un bloc ouvert par ~~~ se ferme par ~~~, un bloc ouvert par ``` se ferme par ```)")
	// ErrIndented: OpenSSH's recipe finds BEGIN and END at line start only.
	ErrIndented = errors.New("le bloc de signature est indenté (quatre espaces ou plus) : ses lignes BEGIN/END doivent commencer la ligne")
)

// Replaceable reports whether a new signature may replace what follows
// the marker: a well-formed block (valid or not), a bare marker, or no
// marker. Anything else may be the learner's text, fixed by hand first.
func (f *SignedFile) Replaceable() bool {
	return f.Err == nil || errors.Is(f.Err, ErrNoBlock)
}

// SignedFile is an acces.md split at its signature marker.
type SignedFile struct {
	Message []byte     // every byte before the marker line (all without one)
	Claimed bool       // a marker or armour line, or a look-alike, is there
	Sig     *Signature // when the block is well formed, still to Verify
	Err     error      // why the signature part is malformed
	Line    int        // the line Err is about, else the marker's (1-based)
	// From and To are the lines of the marker through the block's closing
	// fence (To is From without a block), 0 without a marker.
	From, To int
}

// Verify checks the signature over the signed part.
func (f *SignedFile) Verify() error {
	switch {
	case !f.Claimed:
		return ErrUnsigned
	case f.Err != nil:
		return f.Err
	}
	return f.Sig.Verify(f.Message)
}

// Inert reports whether the block is a well-formed signature whose text
// fields hold no private key material: only then may a leak detector
// skip its lines.
func (f *SignedFile) Inert() bool {
	if f.Sig == nil || f.Err != nil {
		return false
	}
	for _, field := range f.Sig.textFields() {
		if leak.Has(field) {
			return false
		}
	}
	return true
}

// SplitSigned finds the signature of an acces.md; what it cannot read is
// in Err. As the sed line, the first line exactly the marker cuts the file.
func SplitSigned(data []byte) *SignedFile {
	f := &SignedFile{Message: data}
	off, no := 0, 0
	for l := range bytes.Lines(data) {
		no++
		line := bytes.TrimSuffix(l, []byte("\n"))
		if string(line) == SigMarker {
			f.Message = data[:off]
			f.Claimed, f.From = true, no
			if f.Err == nil {
				f.Line = no
			}
			f.parseBlock(data[off+len(l):], no)
			return f
		}
		if f.Err == nil && stray(line) {
			f.Claimed, f.Line = true, no
			f.Err = fmt.Errorf("%w (ligne %d)", ErrStray, no)
		}
		off += len(l)
	}
	return f
}

// stray reports a line that is, or tries to be, a marker or an armour line.
func stray(l []byte) bool {
	t := bytes.TrimSpace(l)
	return bytes.Contains(l, []byte("pret:signature")) || string(t) == armorBegin || string(t) == armorEnd
}

// parseBlock reads what follows the marker as goldmark does: blank lines,
// one fenced code block (any CommonMark fence; unclosed, it runs to the
// end), then blank lines. The armour is read from the file's own lines:
// sed takes BEGIN and END only where they start a line.
func (f *SignedFile) parseBlock(rest []byte, markerLine int) {
	f.To = markerLine
	fail := func(line int, err error) {
		if f.Err == nil { // a stray line above keeps its earlier report
			f.Line, f.Err = line, err
		}
		f.Sig = nil
	}
	failAt := func(line int, err error) { fail(line, fmt.Errorf("%w (ligne %d)", err, line)) }
	if len(rest) > maxBlockText {
		fail(markerLine, fmt.Errorf("%w : trop long pour une signature", ErrBadArmor))
		return
	}
	lines := strings.SplitAfter(string(rest), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	start := 0 // the first line that is not blank: where the first block starts
	for start < len(lines) && blank(lines[start]) {
		start++
	}
	// goldmark's time grows with the square of nested quotes, which no
	// signature block has: many '>' is text, refused unparsed.
	if strings.Count(string(rest), ">") > maxQuoteMarks {
		at := start
		for !strings.Contains(lines[at], ">") {
			at++
		}
		if at == start {
			failAt(markerLine, ErrMisplacedMarker)
		} else {
			failAt(markerLine+1+at, ErrTrailing)
		}
		return
	}
	// lineOf is the line of the file at offset off of rest.
	lineOf := func(off int) int { return markerLine + 1 + strings.Count(string(rest[:off]), "\n") }
	doc := goldmark.New().Parser().Parse(text.NewReader(rest))
	first := doc.FirstChild()
	if first == nil {
		fail(markerLine, ErrNoBlock)
		return
	}
	code, fenced := first.(*ast.FencedCodeBlock)
	switch {
	case fenced:
	case strings.TrimRight(lines[start], " \t\r\n") == armorBegin:
		failAt(markerLine+1+start, ErrNoFence)
		return
	case first.Kind() == ast.KindCodeBlock:
		failAt(markerLine+1+start, ErrIndented)
		return
	default:
		failAt(markerLine, ErrMisplacedMarker)
		return
	}
	body := code.Lines()
	open := start
	if body.Len() > 0 {
		open = lineOf(body.At(0).Start) - markerLine - 2
	}
	if open != start { // something a renderer does not show, as a link definition
		failAt(markerLine, ErrMisplacedMarker)
		return
	}
	end := open + 1 // the line after the content: the closing fence
	if body.Len() > 0 {
		end = lineOf(body.At(body.Len()-1).Start) - markerLine
	}
	f.To = markerLine + min(1+end, len(lines))
	if next := first.NextSibling(); next != nil {
		at := end + 1
		for at < len(lines) && blank(lines[at]) {
			at++
		}
		failAt(markerLine+1+at, ErrTrailing)
		return
	}
	// The armour, blank lines around it aside.
	armour := lines[open+1 : min(end, len(lines))]
	at := markerLine + 1 + open // the line an unreadable armour is reported at
	for len(armour) > 0 && blank(armour[0]) {
		armour = armour[1:]
	}
	if len(armour) > 0 {
		at = markerLine + 1 + end - len(armour)
	}
	for len(armour) > 0 && blank(armour[len(armour)-1]) {
		armour = armour[:len(armour)-1]
	}
	for i, l := range armour[:max(len(armour)-1, 0)] {
		if strings.TrimRight(l, "\r\n") == armorEnd {
			failAt(at+i+1, ErrAfterEnd)
			return
		}
	}
	sig, err := ParseArmor([]byte(strings.Join(armour, "")))
	if err != nil {
		fail(at, err)
		return
	}
	if f.Err == nil {
		f.Sig = sig
	}
}

const (
	maxBlockText  = 2*maxSigBlob + 1024 // the longest armour, fences, blank lines
	maxQuoteMarks = 16                  // more '>' than a fence's info string holds
)

func blank(l string) bool { return strings.Trim(l, " \t\r\n") == "" }

// AttachSignature is message (empty or ending in a newline) followed by
// the marker and the block of sig.
func AttachSignature(message []byte, sig *Signature) []byte {
	b := append(bytes.Clone(message), SigMarker+"\n```\n"...)
	return append(append(b, sig.Armor()...), "```\n"...)
}

// SignFile returns data's signed part (its old block dropped, a final
// newline added) followed by a new block; a file not Replaceable is refused.
func SignFile(random io.Reader, signer ssh.Signer, data []byte) ([]byte, error) {
	f := SplitSigned(data)
	if !f.Replaceable() {
		return nil, f.Err
	}
	msg := f.Message
	if len(msg) > 0 && msg[len(msg)-1] != '\n' {
		msg = append(bytes.Clone(msg), '\n')
	}
	sig, err := Sign(random, signer, msg)
	if err != nil {
		return nil, err
	}
	return AttachSignature(msg, sig), nil
}

// SignedLen is the length of SignFile's result for an ed25519 key and
// message (ending in a newline): one length whatever the key, so a file
// over a size cap is refused before the passphrase is asked.
func SignedLen(message []byte) int {
	return len(message) + len(AttachSignature(nil, &Signature{blob: make([]byte, ed25519BlobLen)}))
}

// ed25519BlobLen: magic, version, key, namespace, reserved, "sha512",
// signature, each string after its 4-byte length.
const ed25519BlobLen = 6 + 4 + (4 + 4 + 11 + 4 + 32) + (4 + len(SigNamespace)) + 4 + (4 + 6) + (4 + 4 + 11 + 4 + 64)
