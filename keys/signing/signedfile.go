package signing

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	goldhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"golang.org/x/crypto/ssh"
	"golang.org/x/net/html"

	"github.com/romeo-pret/pret/internal/htmlshown"
	"github.com/romeo-pret/pret/internal/mdbounds"
	"github.com/romeo-pret/pret/keys/leak"
)

// SigMarker ends the signed part of acces.md: the signed bytes are what
// `sed '/^<!-- pret:signature -->$/,$d'` prints (signature.md).
const SigMarker = "<!-- pret:signature -->"

// Above the marker, a stray marker would make OpenSSH's recipe cut
// elsewhere; below it, text would look signed and is not.
var (
	ErrUnsigned        = errors.New("le fichier n'est pas signé")
	ErrStray           = errors.New("marque ou bloc de signature hors de sa place")
	ErrCRLF            = errors.New("les fins de ligne ont été converties en CRLF (Windows) après la signature")
	ErrCRLFBlock       = errors.New("les fins de ligne du bloc de signature ont été converties en CRLF (Windows) après la signature")
	ErrCR              = errors.New("les fins de ligne ont été converties en CR seul (Mac classique) après la signature")
	ErrMisplacedMarker = errors.New("la marque <!-- pret:signature --> est suivie de texte, pas d'un bloc de signature")
	ErrTrailing        = errors.New("du texte suit le bloc de signature (seules des lignes vides peuvent le suivre, pas même un commentaire HTML)")
	ErrNoBlock         = errors.New("la marque <!-- pret:signature --> n'est suivie d'aucun bloc")
	ErrNoFence         = errors.New("le bloc de signature n'est pas entre deux lignes ``` (ou ~~~)")
	ErrAfterEnd        = errors.New("du texte suit la ligne END SSH SIGNATURE dans le bloc de code (un bloc ouvert par ~~~ se ferme par ~~~, un bloc ouvert par ``` se ferme par ```)")
	ErrLeftOpen        = errors.New("la partie signée finit dans un bloc resté ouvert (``` ou ~~~, <script>, <style>, <textarea>, <pre>, commentaire HTML…) : la marque et le bloc de signature y seraient pris, affichés comme du texte ou cachés")
	ErrBeforeBegin     = errors.New("du texte précède la ligne BEGIN SSH SIGNATURE dans le bloc de code")
	ErrIndented        = errors.New("le bloc de signature est indenté (quatre espaces ou plus) : ses lignes BEGIN/END doivent commencer la ligne")
)

// Replaceable reports whether a new signature may replace what follows
// the marker; anything but a block or nothing may be the learner's text.
func (f *SignedFile) Replaceable() bool {
	return f.Err == nil || errors.Is(f.Err, ErrNoBlock) || errors.Is(f.Err, ErrLeftOpen)
}

// SignedFile is an acces.md split at its signature marker.
type SignedFile struct {
	Message []byte     // every byte before the marker line (all without one)
	Claimed bool       // a marker or armour line, or a look-alike, is there
	Sig     *Signature // when the block is well formed, still to Verify
	Err     error      // why the signature part is malformed
	Line    int        // the line Err is about, else the marker's (1-based)
	// From and To: the marker's line through the closing fence's, 0 without.
	From, To int
}

func (f *SignedFile) Verify() error {
	switch {
	case !f.Claimed:
		return ErrUnsigned
	case f.Err != nil:
		return f.Err
	}
	return f.Sig.Verify(f.Message)
}

// Inert reports a well-formed signature without key material in its
// text fields: only then may a leak detector skip its lines.
func (f *SignedFile) Inert() bool {
	if f.Sig == nil || f.Err != nil {
		return false
	}
	// A field is bytes: a key's raw DER or openssh-key-v1 is still a key.
	return !slices.ContainsFunc(f.Sig.textFields(), func(field string) bool {
		if field == "" || field == SigNamespace {
			return false // nothing, or pret's own namespace: no key
		}
		// Raw bytes at any offset: one of three shifts aligns them to base64's quanta.
		return leak.Has(field) || slices.ContainsFunc([]int{0, 1, 2}, func(k int) bool {
			return k < len(field) && leak.Has(base64.StdEncoding.EncodeToString([]byte(field[k:])))
		})
	})
}

// SplitSigned cuts an acces.md as sed does: at the first line exactly the marker.
func SplitSigned(data []byte) *SignedFile {
	f := &SignedFile{Message: data}
	if mdbounds.CROnly(data) {
		// sed finds no marker in a file of CRs alone: read as its lines
		// (mdbounds.LoneCRs), one signed with LF was converted since.
		if lf := SplitSigned([]byte(mdbounds.LoneCRs(string(data)))); lf.Claimed {
			f.Claimed, f.Line, f.From, f.To = true, cmp.Or(lf.From, lf.Line), lf.From, lf.To
			f.Err = fmt.Errorf("%w (ligne %d)", ErrCR, f.Line)
		}
		return f
	}
	off, no := 0, 0
	for l := range bytes.Lines(data) {
		no++
		line := bytes.TrimSuffix(l, []byte("\n"))
		if string(line) == SigMarker {
			f.Message = data[:off]
			f.Claimed, f.From = true, no
			sig, at, err := f.parseBlock(data[off+len(l):], no)
			if err == nil {
				// Signed elsewhere (ssh-keygen -Y sign), the signed part may
				// leave a block open: the page shows the marker and the armour
				// inside it, not as the signature block, and the fence line as if signed.
				at, err = no, Signable(f.Message)
			}
			switch {
			case f.Err != nil: // a stray line above keeps its earlier report
			case err != nil:
				f.Line, f.Err = at, err
			default:
				f.Line, f.Sig = no, sig
			}
			return f
		}
		if f.Err == nil && string(line) == SigMarker+"\r" { // sed finds no marker either
			f.Claimed, f.Line, f.Err = true, no, fmt.Errorf("%w (ligne %d)", ErrCRLF, no)
			// Signed with CRLF lines above (pret writes its block in LF), then
			// converted whole: only the block changed, and dos2unix would break the rest.
			// Once at most: a marker line ending the file in "\r" is left as it is (fuzzed).
			lf := slices.Concat(data[:off], bytes.ReplaceAll(data[off:], []byte("\r\n"), []byte("\n")))
			if !bytes.Equal(lf, data) && SplitSigned(lf).Verify() == nil {
				f.Err = fmt.Errorf("%w (ligne %d)", ErrCRLFBlock, no)
			}
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

// parseBlock reads what follows the marker as goldmark does, one fenced block
// between blank lines, the armour from the file's own lines; or a refusal and its line.
func (f *SignedFile) parseBlock(rest []byte, markerLine int) (*Signature, int, error) {
	f.To = markerLine
	failAt := func(line int, err error) (*Signature, int, error) {
		return nil, line, fmt.Errorf("%w (ligne %d)", err, line)
	}
	if len(bytes.TrimRight(rest, " \t\r\n")) > maxBlockText { // blank lines after it show nothing
		return nil, markerLine, bad("trop long pour une signature")
	}
	lines := slices.Collect(strings.Lines(string(rest)))
	start := 0 // the first line that is not blank: where the first block starts
	for start < len(lines) && blank(lines[start]) {
		start++
	}
	// goldmark is quadratic in nested quotes: many '>' is refused unparsed.
	if strings.Count(string(rest), ">") > maxQuoteMarks {
		at := start
		for !strings.Contains(lines[at], ">") {
			at++
		}
		if at == start {
			return failAt(markerLine, ErrMisplacedMarker)
		}
		return failAt(markerLine+1+at, ErrTrailing)
	}
	doc := commonMark().Parser().Parse(text.NewReader(rest))
	first := doc.FirstChild()
	if first == nil {
		return nil, markerLine, ErrNoBlock
	}
	code, fenced := first.(*ast.FencedCodeBlock)
	switch {
	case fenced:
	case strings.TrimRight(lines[start], " \t\r\n") == armorBegin:
		return failAt(markerLine+1+start, ErrNoFence)
	case first.Kind() == ast.KindCodeBlock:
		return failAt(markerLine+1+start, ErrIndented)
	default:
		return failAt(markerLine, ErrMisplacedMarker)
	}
	open, end := start, start+1 // the fences: around the content, or in a row
	if body := code.Lines(); body.Len() > 0 {
		index := func(off int) int { return strings.Count(string(rest[:off]), "\n") }
		open, end = index(body.At(0).Start)-1, index(body.At(body.Len()-1).Start)+1
	}
	if open != start { // something a renderer does not show, as a link definition
		return failAt(markerLine, ErrMisplacedMarker)
	}
	f.To = markerLine + min(1+end, len(lines))
	// Only blank lines may follow: text there would look signed and is not,
	// and no line there can be judged invisible without reading what the
	// signed part leaves open (an HTML comment after the block closes a
	// <script> left open above and shows what follows it).
	if i := slices.IndexFunc(lines[min(end+1, len(lines)):], func(l string) bool { return !blank(l) }); i >= 0 {
		return failAt(markerLine+1+end+1+i, ErrTrailing)
	}
	armour := lines[open+1 : min(end, len(lines))]
	at := markerLine + 1 + open // the line an unreadable armour is reported at
	if i := slices.IndexFunc(armour, func(l string) bool { return !blank(l) }); i >= 0 {
		armour, at = armour[i:], markerLine+1+end-(len(armour)-i)
	}
	for len(armour) > 0 && blank(armour[len(armour)-1]) {
		armour = armour[:len(armour)-1]
	}
	isBegin := func(l string) bool { return strings.TrimRight(l, "\r\n") == armorBegin }
	if len(armour) > 0 && !isBegin(armour[0]) && slices.ContainsFunc(armour, isBegin) {
		return failAt(at, ErrBeforeBegin) // what sed would skip, the page shows as signed
	}
	// The END line as ParseArmor (and sshsig_dearmor) reads it: any line starting with the marker.
	isEnd := func(l string) bool { return strings.HasPrefix(l, armorEnd) }
	if i := slices.IndexFunc(armour[:max(len(armour)-1, 0)], isEnd); i >= 0 {
		return failAt(at+i+1, ErrAfterEnd)
	}
	sig, err := ParseArmor([]byte(strings.Join(armour, "")))
	return sig, at, err
}

// commonMark reads a page as goldmark does, and writes it with its HTML kept
// (unsafe), as a renderer that keeps HTML shows it; built once, not per file.
var commonMark = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(goldmark.WithRendererOptions(goldhtml.WithUnsafe()))
})

const (
	maxBlockText  = 2*maxSigBlob + 1024 // the longest armour, its fences, blank lines
	maxQuoteMarks = 16                  // more '>' than a fence's info string holds
)

func blank(l string) bool { return strings.Trim(l, " \t\r\n") == "" }

// AttachSignature is message (ending in a newline) then the marker and block.
func AttachSignature(message []byte, sig *Signature) []byte {
	b := append(bytes.Clone(message), SigMarker+"\n```\n"...)
	return append(append(b, sig.Armor()...), "```\n"...)
}

// SignFile replaces data's block by a new one; a file not Replaceable is refused.
func SignFile(random io.Reader, signer ssh.Signer, data []byte) ([]byte, error) {
	f := SplitSigned(data)
	if !f.Replaceable() {
		return nil, f.Err
	}
	msg := signedPart(f.Message)
	if err := Signable(msg); err != nil {
		return nil, err
	}
	sig, err := Sign(random, signer, msg)
	if err != nil {
		return nil, err
	}
	return AttachSignature(msg, sig), nil
}

// Signable refuses a signed part whose end leaves a block open (a fence,
// <script>, <style>, <textarea>, <pre>, a comment, <div> up to a blank
// line): the marker and the armour would be read into it, shown as text
// or hidden, and the page would not show them as the signature block.
// The error gives the line the open block starts at.
func Signable(message []byte) error {
	msg := signedPart(message)
	if len(bytes.TrimRight(msg, " \t\r\n")) > maxSignedPart || mdbounds.TooDeep(string(msg)) >= 0 {
		return errors.New("la partie signée n'est pas lue comme une page (plus de 16 Kio, ou une ligne ouvre plus de 16 citations ou listes) : un acces.md tient sur une page")
	}
	page := slices.Concat(msg, []byte(SigMarker+"\n```\n"+armorBegin+"\n"+armorEnd+"\n```\n"))
	doc := commonMark().Parser().Parse(text.NewReader(page))
	code, fenced := doc.LastChild().(*ast.FencedCodeBlock)
	marker, html := doc.LastChild().PreviousSibling().(*ast.HTMLBlock)
	if fenced && html && code.Lines().Len() == 2 && marker.Lines().Len() == 1 && !marker.HasClosure() {
		// Without a '<' the signed part holds no HTML of its own: the browser builds what goldmark read.
		if seg := marker.Lines().At(0); string(seg.Value(page)) == SigMarker+"\n" && (bytes.IndexByte(msg, '<') < 0 || shownByBrowser(doc, page)) {
			return nil
		}
	}
	return fmt.Errorf("%w (ligne %d)", ErrLeftOpen, openedAt(doc, page, len(msg)))
}

// shownByBrowser reports whether a browser shows page's armour: in the HTML
// goldmark writes, parsed as a browser parses it, a <code> starting with the
// BEGIN line that nothing around hides. A <script>, <style> or hidden element
// opened inline ("Texte <script>") is no block to goldmark, and takes in all
// that follows (outside tester, stop 40).
func shownByBrowser(doc ast.Node, page []byte) bool {
	var out bytes.Buffer
	if err := commonMark().Renderer().Render(&out, page, doc); err != nil {
		return false
	}
	tree, err := html.Parse(&out)
	if err != nil {
		return false
	}
	var armour *html.Node
	for n := range tree.Descendants() {
		if n.Type == html.ElementNode && n.Data == "code" && n.FirstChild != nil && strings.HasPrefix(n.FirstChild.Data, armorBegin) {
			armour = n // the last: the block after the marker
		}
	}
	for n := armour; n != nil; n = n.Parent {
		if n.Type == html.ElementNode && hides(n) {
			return false
		}
	}
	return armour != nil
}

// hides reports an element a browser does not show the content of
// (outside tester, stop 40).
func hides(n *html.Node) bool {
	return htmlshown.Hides(n.Data, func(yield func(string, string) bool) {
		for _, a := range n.Attr {
			if !yield(a.Key, a.Val) {
				return
			}
		}
	})
}

// openedAt is the line of the last block, at any depth, starting before
// off: the one left open, that the marker at off was read into.
func openedAt(doc ast.Node, src []byte, off int) int {
	markerLine := strings.Count(string(src[:off]), "\n") + 1
	at := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
			line := strings.Count(string(src[:n.Lines().At(0).Start]), "\n") + 1
			if _, fenced := n.(*ast.FencedCodeBlock); fenced {
				line-- // its fence line is not among its lines
			}
			if line < markerLine {
				at = max(at, line)
			}
		}
		return ast.WalkContinue, nil
	})
	if at == 0 {
		return markerLine
	}
	return at
}

// Past a page of 16 KiB (blank lines at its end not counted), or a line
// opening more than 16 containers (mdbounds), the signed part is not read,
// as acces-md.md's rules do not read it.
const maxSignedPart = 16 << 10

// signedPart is the message before the marker, ending in the newline the marker line needs.
func signedPart(message []byte) []byte {
	if len(message) > 0 && message[len(message)-1] != '\n' {
		return append(bytes.Clone(message), '\n')
	}
	return message
}
