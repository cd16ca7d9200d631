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

var (
	// ErrUnsigned is a file with no signature at all.
	ErrUnsigned = errors.New("le fichier n'est pas signé")
	// ErrStray is a marker or an armour line where it does not belong:
	// above the marker, OpenSSH's recipe would cut the file elsewhere than
	// pret, so such a file is never accepted.
	ErrStray = errors.New("marque ou bloc de signature hors de sa place")
	// ErrMisplacedMarker is a marker line followed by text rather than by
	// a signature block: set in the middle of the file, it would cut the
	// signed part short and leave the rest unsigned.
	ErrMisplacedMarker = errors.New("la marque <!-- pret:signature --> est suivie de texte, pas d'un bloc de signature")
	// ErrTrailing is text after the signature block: it is not signed,
	// and re-signing must not drop it.
	ErrTrailing = errors.New("du texte suit le bloc de signature")
	// ErrNoBlock is a marker with nothing after it.
	ErrNoBlock = errors.New("la marque <!-- pret:signature --> n'est suivie d'aucun bloc")
	// ErrNoFence is an armour right after the marker, but not in a fenced
	// code block: OpenSSH's recipe would read it, but the rendered page
	// would show the signature as a paragraph of text (signature.md).
	ErrNoFence = errors.New("le bloc de signature n'est pas entre deux lignes ``` (ou ~~~)")
	// ErrAfterEnd is text in the code block after the armour's END line:
	// OpenSSH's recipe would stop at END, but the text is not signed. The
	// usual cause is a block opened with ~~~ and closed with ``` (or the
	// other way round), which CommonMark does not close.
	ErrAfterEnd = errors.New("du texte suit la ligne END SSH SIGNATURE dans le bloc de code (un bloc ouvert par ~~~ se ferme par ~~~, un bloc ouvert par ``` se ferme par ```)")
	// ErrIndented is a signature in an indented code block: its BEGIN and
	// END lines do not start the line, and OpenSSH's recipe does not
	// find them.
	ErrIndented = errors.New("le bloc de signature est indenté (quatre espaces ou plus) : ses lignes BEGIN/END doivent commencer la ligne")
)

// Replaceable reports whether a new signature may take the place of what
// follows the marker: a well-formed block (whether or not it still
// holds), a bare marker, or no marker at all. Anything else — a stray
// marker or armour line, a marker followed by text, text after the block,
// a block that does not parse — may be the learner's own text, and
// re-signing would drop it or leave it unsigned: it is fixed by hand
// first.
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
// The bytes of keys and signatures are not text and are not read; the
// fields a signer may fill with any text are (the namespace, the reserved
// field, a certificate's names and options, a webauthn origin and client
// data), each as the leak detector reads a file. A block that does not
// parse is read like any other text.
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
	off := 0
	for no := 1; off < len(data); no++ {
		line, _, found := bytes.Cut(data[off:], []byte("\n"))
		next := off + len(line)
		if found {
			next++
		}
		if string(line) == SigMarker {
			f.Message = data[:off]
			f.Claimed, f.From = true, no
			if f.Err == nil {
				f.Line = no
			}
			f.parseBlock(data[next:], no)
			return f
		}
		if f.Err == nil && stray(line) {
			f.Claimed, f.Line = true, no
			f.Err = fmt.Errorf("%w (ligne %d)", ErrStray, no)
		}
		off = next
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
// as checklist/acces reads the page): blank lines, then a fenced code
// block (``` or ~~~, of any length, with or without an info string,
// indented by up to three spaces; unclosed, it runs to the end of the
// file, as CommonMark says) whose lines are the armour, then blank lines
// only. Text after the block would look signed and is not, so it is
// refused, and so is a marker followed by text: it is not where a
// signature goes, and what follows it is the learner's. The armour is
// read from the file's own lines, not from the code block's: OpenSSH's
// recipe (sed) takes the BEGIN and END lines only where they start a
// line. To ends on the closing fence (or on the marker when no block
// follows), so that a reader can set the block aside and still read what
// follows.
func (f *SignedFile) parseBlock(rest []byte, markerLine int) {
	f.To = markerLine
	fail := func(line int, err error) {
		if f.Err == nil { // a stray line above keeps its earlier report
			f.Line, f.Err = line, err
		}
		f.Sig = nil
	}
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
			fail(markerLine, fmt.Errorf("%w (ligne %d)", ErrMisplacedMarker, markerLine))
		} else {
			fail(markerLine+1+at, fmt.Errorf("%w (ligne %d)", ErrTrailing, markerLine+1+at))
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
		fail(markerLine+1+start, fmt.Errorf("%w (ligne %d)", ErrNoFence, markerLine+1+start))
		return
	case first.Kind() == ast.KindCodeBlock:
		fail(markerLine+1+start, fmt.Errorf("%w (ligne %d)", ErrIndented, markerLine+1+start))
		return
	default:
		fail(markerLine, fmt.Errorf("%w (ligne %d)", ErrMisplacedMarker, markerLine))
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
		fail(markerLine, fmt.Errorf("%w (ligne %d)", ErrMisplacedMarker, markerLine))
		return
	}
	end := open + 1 // the line after the content: the closing fence
	if body.Len() > 0 {
		end = lineOf(body.At(body.Len()-1).Start) - markerLine
	}
	closed := end < len(lines)
	if closed {
		f.To = markerLine + 1 + end
	} else {
		f.To = markerLine + len(lines)
	}
	if next := first.NextSibling(); next != nil {
		at := end + 1
		for at < len(lines) && blank(lines[at]) {
			at++
		}
		fail(markerLine+1+at, fmt.Errorf("%w (ligne %d)", ErrTrailing, markerLine+1+at))
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
			fail(at+i+1, fmt.Errorf("%w (ligne %d)", ErrAfterEnd, at+i+1))
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

// SignFile returns data signed: its signed part (data without its old
// block; a final newline added if it had none) followed by a new block. A
// marker or armour line out of place, text after the marker or the block,
// or a block that does not parse, is refused (see Replaceable): the file
// could not be checked with OpenSSH alone, or text would be dropped.
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
