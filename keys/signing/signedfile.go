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

// SigMarker is the line that ends the signed part of acces.md. Markdown
// does not show it; what follows it is the signature block:
//
//	<!-- pret:signature -->
//	```
//	-----BEGIN SSH SIGNATURE-----
//	…
//	-----END SSH SIGNATURE-----
//	```
//
// The signed bytes are exactly what
// `sed '/^<!-- pret:signature -->$/,$d'` prints, so anyone can check a
// file with OpenSSH alone; the parser below follows that sed line for line.
const SigMarker = "<!-- pret:signature -->"

const fence = "```"

// Why a signature part is refused. Above the marker, a stray marker or
// armour line would make OpenSSH's recipe cut the file elsewhere than
// pret; below it, text would look signed and is not.
var (
	ErrUnsigned        = errors.New("le fichier n'est pas signé")
	ErrStray           = errors.New("marque ou bloc de signature hors de sa place")
	ErrMisplacedMarker = errors.New("la marque <!-- pret:signature --> est suivie de texte, pas d'un bloc de signature")
	ErrTrailing        = errors.New("du texte suit le bloc de signature")
	ErrNoBlock         = errors.New("la marque <!-- pret:signature --> n'est suivie d'aucun bloc")
	// ErrNoFence: OpenSSH's recipe would read the armour, but the rendered
	// page would show it as a paragraph of text (signature.md).
	ErrNoFence = errors.New("le bloc de signature n'est pas entre deux lignes ``` (ou ~~~)")
	// ErrAfterEnd: OpenSSH's recipe stops at END, but the text after it is
	// not signed. The usual cause is a block opened with ~~~ and closed
	// with ```, which CommonMark does not close.
	ErrAfterEnd = errors.New("du texte suit la ligne END SSH SIGNATURE dans le bloc de code (un bloc ouvert par ~~~ se ferme par ~~~, un bloc ouvert par ``` se ferme par ```)")
	// ErrIndented: the BEGIN and END lines do not start the line, so
	// OpenSSH's recipe does not find them.
	ErrIndented = errors.New("le bloc de signature est indenté (quatre espaces ou plus) : ses lignes BEGIN/END doivent commencer la ligne")
)

// Replaceable reports whether a new signature may take the place of what
// follows the marker: a well-formed block (valid or not), a bare marker,
// or no marker. Anything else may be the learner's own text, which
// re-signing would drop or leave unsigned: it is fixed by hand first.
func (f *SignedFile) Replaceable() bool {
	return f.Err == nil || errors.Is(f.Err, ErrNoBlock)
}

// SignedFile is an acces.md split at its signature marker.
type SignedFile struct {
	// Message is every byte before the marker line: what is signed.
	// Without a marker, the whole file.
	Message []byte
	// Claimed is true when the file has a marker, an armour line or
	// something that looks like one: it claims to be signed.
	Claimed bool
	// Sig is the signature when the block is well formed; it still has to
	// be verified (Verify).
	Sig *Signature
	// Err says why the signature part is malformed; nil when it is well
	// formed or absent.
	Err error
	// Line is the line Err is about, else the marker's line (1-based).
	Line int
	// From and To are the lines of the marker through the closing fence
	// of the block (To is From when no block follows the marker), 0
	// without a marker.
	From, To int
}

// Verify checks the signature over the signed part. It returns
// ErrUnsigned without a signature, the parse error for a malformed block,
// else what Signature.Verify returns.
func (f *SignedFile) Verify() error {
	switch {
	case !f.Claimed:
		return ErrUnsigned
	case f.Err != nil:
		return f.Err
	}
	return f.Sig.Verify(f.Message)
}

// Inert reports whether the block is a well-formed signature that carries
// no private key material: only then may a leak detector skip its lines.
// Key and signature bytes are not text; the fields a signer may fill with
// any text (textFields) are read as the leak detector reads a file.
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

// SplitSigned finds the signature of an acces.md. It never fails: what it
// cannot read is in Err, with the line. It follows the sed line of
// signature.md: the first line that is exactly the marker cuts the file.
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

// stray reports a line that is, or tries to be, a marker or an armour
// line; prose that mentions a signature is not one.
func stray(l []byte) bool {
	t := bytes.TrimSpace(l)
	return bytes.Contains(l, []byte("pret:signature")) || string(t) == armorBegin || string(t) == armorEnd
}

// parseBlock reads what follows the marker as Markdown does (goldmark,
// as checklist/acces reads the page): blank lines, one fenced code block
// (any fence CommonMark allows; unclosed, it runs to the end of the
// file), then blank lines only. The armour is read from the file's own
// lines, not the code block's: sed takes BEGIN and END only where they
// start a line. To ends on the closing fence, or on the marker when no
// block follows.
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
	// A block quote is never part of a signature block, and goldmark's
	// time grows with the square of quotes nested in one another: text
	// with more than a few '>' after the marker is text, refused without
	// parsing it.
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
	// The code block's lines are the lines after the opening fence; it
	// was closed unless they run to the end of the file.
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
	// The armour, blank lines around it aside (sed takes the BEGIN
	// through END lines only).
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

// maxBlockText bounds what follows the marker: the armour of the
// longest signature read (maxSigBlob), its fences and some blank lines.
const maxBlockText = 2*maxSigBlob + 1024

// maxQuoteMarks is more '>' than a signature block's info string holds.
const maxQuoteMarks = 16

func blank(l string) bool { return strings.Trim(l, " \t\r\n") == "" }

// AttachSignature is message followed by the marker and the block of sig.
// message must be empty or end with a newline: the marker starts a line.
func AttachSignature(message []byte, sig *Signature) []byte {
	var b bytes.Buffer
	b.Grow(len(message) + 512)
	b.Write(message)
	b.WriteString(SigMarker + "\n" + fence + "\n")
	b.Write(sig.Armor())
	b.WriteString(fence + "\n")
	return b.Bytes()
}

// SignFile returns data signed: its signed part (without its old block,
// with a final newline) followed by a new block. A file that is not
// Replaceable is refused: text would be dropped.
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

// SignedLen is the length SignFile's result has when an ed25519 key signs
// message (already ending in a newline): an ed25519 SSHSIG blob has one
// length whatever the key, so a file the signature would take over a
// size cap can be refused before the passphrase is asked.
func SignedLen(message []byte) int {
	return len(message) + len(AttachSignature(nil, &Signature{blob: make([]byte, ed25519BlobLen)}))
}

// ed25519BlobLen is the magic, the version, the key (type and 32 bytes),
// the namespace, the empty reserved field, "sha512" and the signature
// (type and 64 bytes), each string after its 4-byte length.
const ed25519BlobLen = 6 + 4 + (4 + 4 + 11 + 4 + 32) + (4 + len(SigNamespace)) + 4 + (4 + 6) + (4 + 4 + 11 + 4 + 64)
