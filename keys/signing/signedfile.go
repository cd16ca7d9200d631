package signing

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/romeo-pret/pret/keys/leak"
	"golang.org/x/crypto/ssh"
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
// no private key material in any field: only then may a leak detector skip
// its lines. A block that does not parse, or that smuggles a key in a
// field pret does not check (the signature bytes of a forged block), is
// read like any other text.
func (f *SignedFile) Inert() bool {
	if f.Sig == nil || f.Err != nil {
		return false
	}
	for _, m := range []string{"openssh-key-v1", "b3BlbnNzaC1rZXktdjE", "PRIVATE KEY", "PuTTY-User-Key-File"} {
		if bytes.Contains(f.Sig.blob, []byte(m)) {
			return false
		}
	}
	// A field may also hold a key as text (the namespace is free): read
	// the fields as the leak detector reads a file.
	return !leak.Has(string(f.Sig.blob))
}

// SplitSigned finds the signature of an acces.md. It never fails: what it
// cannot read is in Err, with the line.
func SplitSigned(data []byte) *SignedFile {
	f := new(SignedFile)
	f.Split(data)
	return f
}

// Split is SplitSigned into f, which a caller may keep on its stack: a
// validator of 100,000 files makes no SignedFile on the heap.
func (f *SignedFile) Split(data []byte) {
	*f = SignedFile{Message: data}
	if !mayClaim(data) {
		return // no line below can be a marker or stray (TestSplitSkipIsExact)
	}
	off, no := 0, 0
	for off < len(data) {
		no++
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			end += off
			next = end + 1
		} else {
			end = len(data)
		}
		l := data[off:end] // compared, never kept: no string per line
		if string(l) == SigMarker {
			f.Message = data[:off]
			f.Claimed, f.From = true, no
			if f.Err == nil {
				f.Line = no
			}
			f.parseBlock(data[next:], no)
			return
		}
		if f.Err == nil && stray(l) {
			f.Claimed, f.Line = true, no
			f.Err = fmt.Errorf("%w (ligne %d)", ErrStray, no)
		}
		off = next
	}
}

// mayClaim is false for a file that holds neither "pret:signature" (the
// marker, and every line stray calls a marker, hold it) nor "SSH
// SIGNATURE-----" (both armour lines hold it): a file of which no line
// claims a signature.
func mayClaim(data []byte) bool {
	return bytes.Contains(data, []byte("pret:signature")) || bytes.Contains(data, []byte("SSH SIGNATURE-----"))
}

// stray reports a line that is, or tries to be, a marker or an armour
// line; prose that mentions a signature is not one.
func stray(l []byte) bool {
	t := bytes.TrimSpace(l)
	return bytes.Contains(l, []byte("pret:signature")) || string(t) == armorBegin || string(t) == armorEnd
}

// parseBlock reads what follows the marker: a fence, the armour, a fence,
// then nothing but blank lines. Text after the block would look signed
// and is not, so it is refused, and so is a marker followed by text: it
// is not where a signature goes, and what follows it is the learner's.
// To ends on the closing fence (or on the marker when no block follows),
// so that a reader can set the block aside and still read what follows.
func (f *SignedFile) parseBlock(rest []byte, markerLine int) {
	lines := strings.Split(string(rest), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	blank := func(l string) bool { return strings.Trim(l, " \t\r") == "" }
	last := len(lines)
	for last > 0 && blank(lines[last-1]) {
		last--
	}
	f.To = markerLine
	fail := func(line int, err error) {
		if f.Err == nil { // a stray line above keeps its earlier report
			f.Line, f.Err = line, err
		}
		f.Sig = nil
	}
	if last == 0 {
		fail(markerLine, ErrNoBlock)
		return
	}
	if lines[0] != fence {
		fail(markerLine, fmt.Errorf("%w (ligne %d)", ErrMisplacedMarker, markerLine))
		return
	}
	closing := -1
	for i := 1; i < last; i++ {
		if lines[i] == fence {
			closing = i
			break
		}
	}
	if closing < 0 {
		f.To = markerLine + last
		fail(markerLine+1, fmt.Errorf("%w : le bloc ouvert par ``` n'est pas fermé", ErrBadArmor))
		return
	}
	f.To = markerLine + 1 + closing
	for i := closing + 1; i < last; i++ {
		if !blank(lines[i]) {
			fail(markerLine+1+i, fmt.Errorf("%w (ligne %d)", ErrTrailing, markerLine+1+i))
			return
		}
	}
	sig, err := ParseArmor([]byte(strings.Join(lines[1:closing], "\n")))
	if err != nil {
		fail(markerLine+2, err)
		return
	}
	if f.Err == nil {
		f.Sig = sig
	}
}

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
// message (already ending in a newline): an ed25519 SSHSIG block has one
// length whatever the key, so it is known before the passphrase is
// asked, and a file the signature would take over a size cap can be
// refused first.
func SignedLen(message []byte) int {
	// Any ed25519 key will do, and ed25519 signing needs no randomness.
	s, err := ssh.NewSignerFromKey(ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)))
	if err != nil {
		return len(message) + 1024 // never: the key is well formed
	}
	sig, err := Sign(bytes.NewReader(make([]byte, 64)), s, nil)
	if err != nil {
		return len(message) + 1024
	}
	return len(message) + len(AttachSignature(nil, sig))
}
