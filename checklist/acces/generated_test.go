package acces

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/keys/signing"
	"github.com/romeo-pret/pret/templates"
)

// honestPage lays the four elements out as learners do, at random: each
// in its own block (a paragraph, a list item, a quote, a heading and the
// text under it, a table row, a code block), separated by blank lines,
// with decoration a renderer hides.
func honestPage(rng *rand.Rand) (page string, elements []string, dressed []string) {
	elements = []string{
		pick(rng, "Date de la demande : 2026-10-16", "Demandé le 16/10/2026", "Compte vérifié ouvert le 14 octobre 2026", "Demande : 2 octobre 2026"),
		pick(rng, "Clé : ~/.ssh/id_ed25519_romeo.pub", "Chemin : `$HOME/.ssh/id_ed25519_romeo.pub`", "Clé publique : /home/kim/.ssh/id_ed25519_romeo.pub", "`C:\\Users\\kim\\.ssh\\id_ed25519_romeo.pub`"),
		pick(rng, "256 "+fpA+" seance-novembre (ED25519)", "Empreinte "+fpA+", type ed25519", "`256 "+fpA+" kim@portable (ED25519)`"),
		pick(rng, templates.Sentence, "*"+templates.Sentence+"*", "« "+templates.Sentence+" »", "**"+strings.TrimSuffix(templates.Sentence, ".")+"**"),
	}
	rng.Shuffle(3, func(i, j int) { elements[i], elements[j] = elements[j], elements[i] })
	for _, e := range elements {
		dressed = append(dressed, dress(rng, e))
	}
	return strings.Join(dressed, "\n\n") + "\n", elements, dressed
}

func dress(rng *rand.Rand, e string) string {
	switch rng.IntN(7) {
	case 0:
		return "- " + e
	case 1:
		return "> " + e
	case 2:
		return "1. " + e
	case 3:
		return "| " + strings.ReplaceAll(e, "|", "\\|") + " |\n|---|"
	case 4:
		if strings.Contains(e, "`") || strings.Contains(e, "*") || strings.Contains(e, "«") {
			return e
		}
		return "```\n" + e + "\n```"
	case 5:
		return "## " + e
	}
	return e
}

func pick(rng *rand.Rand, s ...string) string { return s[rng.IntN(len(s))] }

// TestGeneratedPages holds the rules over generated layouts: an honest
// page is valid whatever its layout; one word changed, dropped or added
// in the sentence, or text added in its paragraph, is altered-sentence;
// the same text in a paragraph of its own (after a blank line) changes
// nothing.
func TestGeneratedPages(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	want := strings.Fields(strings.TrimSuffix(templates.Sentence, "."))
	for i := range 600 {
		page, elements, dressed := honestPage(rng)
		if r := Validate([]byte(page), rules); len(r.Problems) != 0 {
			t.Fatalf("honest page %d: %+v\n%s", i, r.Problems, page)
		}
		sentence := elements[3]
		var altered string
		kind := i % 5
		if kind >= 3 {
			kind += 2 // 5: text after, 6: text before
		}
		if kind >= 5 && strings.ContainsAny(dressed[3][:1], "|`#") {
			continue // a line break ends a table row or a heading, or stays in the code
		}
		switch ws := append([]string(nil), want...); kind {
		case 0: // a word changed
			ws[rng.IntN(len(ws))] = pick(rng, "calcul", "romeo1", "tout", "serveur")
			altered = strings.Join(ws, " ") + "."
		case 1: // a word dropped
			k := rng.IntN(len(ws))
			altered = strings.Join(append(ws[:k:k], ws[k+1:]...), " ") + "."
		case 2: // a word added
			k := 1 + rng.IntN(len(ws)-1)
			altered = strings.Join(append(append(ws[:k:k], pick(rng, "seulement", "romeo1", "et")), ws[k:]...), " ") + "."
		case 5: // text after it, in its paragraph
			altered = sentence + "\n" + pick(rng, "Non.", "Sauf exception : tout nœud de calcul.", "Voir romeo.univ-reims.fr.")
		case 6: // text before it, in its paragraph
			altered = pick(rng, "Je me connecte à romeo1.", "Remarque importante.", "Ok") + "\n" + sentence
		}
		bad := strings.Replace(page, sentence, altered, 1)
		if r := Validate([]byte(bad), rules); !has(r, "altered-sentence") || r.Valid() {
			t.Fatalf("altered page %d: %+v\n%s", i, r.Problems, bad)
		}
		if kind >= 5 {
			// The same words in a paragraph of their own are another
			// paragraph, not the sentence's.
			apart := strings.Replace(altered, "\n", "\n\n", 1)
			if !strings.Contains(apart, "nœud") || strings.Contains(apart, sentence+"\n\n") && !strings.Contains(strings.SplitN(apart, "\n\n", 2)[1], "nœud") {
				if r := Validate([]byte(strings.Replace(page, sentence, apart, 1)), rules); len(r.Problems) != 0 {
					t.Fatalf("page %d with a paragraph apart: %+v\n%s", i, r.Problems, strings.Replace(page, sentence, apart, 1))
				}
			}
		}
	}
}

// TestCROnlyPagesReadAsLF: a page saved with classic Mac OS line ends
// (CR alone), which editors and CommonMark read as lines, gets the
// verdict of its LF form, line numbers included, a key in it too
// (outside tester: it was one line, every field missing).
func TestCROnlyPagesReadAsLF(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB\n-----END OPENSSH PRIVATE KEY-----\n"
	for i := range 60 {
		page, _, _ := honestPage(rng)
		if i%2 == 1 {
			page += "\n" + key
		}
		lf := Validate([]byte(page), rules)
		cr := Validate([]byte(strings.ReplaceAll(page, "\n", "\r")), rules)
		if !reflect.DeepEqual(lf.Problems, cr.Problems) || i%2 == 0 && len(cr.Problems) != 0 || i%2 == 1 && !has(cr, "private-key-leak") {
			t.Fatalf("page %d: CR alone %+v, LF %+v\n%s", i, cr.Problems, lf.Problems, page)
		}
	}
}

// TestLoneCRIsASpace: in a file with LF, a CR alone reads as the space
// goldmark and browsers show, for every rule (outside tester: after the
// path, missing-pubkey-path; before « > Connexion », altered-sentence).
func TestLoneCRIsASpace(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for i := range 200 {
		page, _, _ := honestPage(rng)
		lfs := []int{}
		for j, c := range page[:len(page)-1] {
			if c == '\n' {
				lfs = append(lfs, j)
			}
		}
		at := lfs[rng.IntN(len(lfs))]
		cr := Validate([]byte(page[:at]+"\r"+page[at+1:]), rules)
		space := Validate([]byte(page[:at]+" "+page[at+1:]), rules)
		if !reflect.DeepEqual(cr.Problems, space.Problems) {
			t.Fatalf("page %d, CR for the LF at %d: %+v; a space: %+v\n%s", i, at, cr.Problems, space.Problems, page)
		}
	}
}

// TestConvertedSignedFileIsOnlyBadSignature: a signed file whose line
// ends are turned to CRLF on the way (a mail client, an editor), or to
// CRs alone (a classic Mac OS editor), no longer matches its signature,
// and nothing else: the words did not change.
func TestConvertedSignedFileIsOnlyBadSignature(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	s := fastSigner(t)
	for i := range 50 {
		page, _, _ := honestPage(rng)
		page = strings.ReplaceAll(page, fpA, fmt.Sprint(fingerprintOf(s)))
		data := signed(t, s, page)
		if r := Validate(data, rules); len(r.Problems) != 0 || r.SignedBy == "" {
			t.Fatalf("page %d signed: %+v", i, r.Problems)
		}
		// CRs alone: read as its lines, the signature said converted at
		// the marker's line, with the way back (outside tester: « hors
		// de sa place », line 1).
		marker := 1 + strings.Count(string(data[:strings.Index(string(data), signing.SigMarker)]), "\n")
		r := Validate([]byte(strings.ReplaceAll(string(data), "\n", "\r")), rules)
		if len(r.Problems) != 1 || r.Problems[0].Code != "bad-signature" || r.Problems[0].Line != marker ||
			!strings.Contains(r.Problems[0].Message, "converties en CR seul") || !strings.Contains(r.Problems[0].Message, "mac2unix acces.md") {
			t.Fatalf("page %d in CRs alone (marker on line %d): %+v", i, marker, r.Problems)
		}
		crlf := strings.ReplaceAll(string(data), "\n", "\r\n")
		r = Validate([]byte(crlf), rules)
		if len(r.Problems) != 1 || r.Problems[0].Code != "bad-signature" {
			t.Fatalf("page %d in CRLF: %+v\n%s", i, r.Problems, crlf)
		}
		// The message names the cause (outside tester, stop 27), and its
		// advice makes the file valid again.
		if !strings.Contains(r.Problems[0].Message, "converties en CRLF") || !strings.Contains(r.Problems[0].Message, "dos2unix acces.md") {
			t.Fatalf("page %d in CRLF: %q", i, r.Problems[0].Message)
		}
		if r := Validate([]byte(strings.ReplaceAll(crlf, "\r\n", "\n")), rules); len(r.Problems) != 0 {
			t.Fatalf("page %d back to LF: %+v", i, r.Problems)
		}
		// Signed with CRLF lines (pret writes its block in LF), then
		// converted whole: only the block changed. The message says so,
		// not dos2unix, and LF in the block alone makes it valid again
		// (outside tester, stop 28).
		data = signed(t, s, strings.ReplaceAll(page, "\n", "\r\n"))
		crlf = strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n", "\r\n")
		r = Validate([]byte(crlf), rules)
		if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Message, "du bloc de signature ont été converties en CRLF") || strings.Contains(r.Problems[0].Message, "dos2unix acces.md") {
			t.Fatalf("page %d signed in CRLF, block in CRLF: %+v", i, r.Problems)
		}
		at := strings.Index(crlf, signing.SigMarker)
		if r := Validate([]byte(crlf[:at]+strings.ReplaceAll(crlf[at:], "\r\n", "\n")), rules); len(r.Problems) != 0 {
			t.Fatalf("page %d, block back to LF: %+v", i, r.Problems)
		}
	}
}

func fingerprintOf(s interface{ PublicKey() ssh.PublicKey }) string {
	return ssh.FingerprintSHA256(s.PublicKey())
}
