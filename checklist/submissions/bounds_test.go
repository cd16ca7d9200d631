package submissions

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/romeo-pret/pret/checklist/acces"
)

// TestMissingMessagesShared: 100,000 learners who each handed in an acces.docx
// kept 100,000 copies of one 230-byte message (22 MiB of a zip's 85 MiB peak):
// learners who received the same share one message.
func TestMissingMessagesShared(t *testing.T) {
	files := map[string]entry{}
	for i := range 5 {
		files[fmt.Sprintf("Nom%d Prénom_%d_assignsubmission_file_/acces.docx", i, i+1)] = entry{body: "PK"}
	}
	files["Autre Nom_9_assignsubmission_file_/acces.pdf"] = entry{body: "%PDF"}
	for kind, arg := range bothWays(t, files) {
		var first *byte
		n := 0
		for _, r := range Validate([]string{arg[0]}, Options{Rules: testRules}) {
			if len(r.Problems) != 1 || r.Problems[0].Code != "no-acces-md" {
				t.Fatalf("%s: %+v", kind, r)
			}
			if r.Apprenant == "Autre Nom" {
				continue
			}
			p := unsafe.StringData(r.Problems[0].Message)
			if first == nil {
				first = p
			}
			if p != first {
				t.Errorf("%s: %s has a message of its own", kind, r.Apprenant)
			}
			n++
		}
		if n != 5 {
			t.Errorf("%s: %d learners with acces.docx, want 5", kind, n)
		}
	}
}

// TestSharedPubReadOnce: a .pub beside many acces.md files, in a folder or an
// archive, is read once: every file gets the same PubFile, which the rules parse
// once (acces.TestSharedPubReadOnce).
func TestSharedPubReadOnce(t *testing.T) {
	files := map[string]entry{"promo/id_ed25519_romeo.pub": {body: string(newKey(45).pub)}}
	for i := range 4 {
		files[fmt.Sprintf("promo/l%d_acces.md", i)] = entry{body: page(newKey(45).fp, false)}
	}
	for kind, arg := range bothWays(t, files) {
		var pubs []*acces.PubFile
		w := &walker{keyName: testRules.KeyName, seen: map[fileID]bool{}, filled: map[string]bool{}, emit: func(it item) {
			if !it.scan { // the .pub itself, read for a key (scan.go)
				pubs = append(pubs, it.pub)
			}
		}}
		w.arg(arg[0])
		if len(pubs) != 4 {
			t.Fatalf("%s: %d files", kind, len(pubs))
		}
		for _, p := range pubs {
			if p == nil || p != pubs[0] {
				t.Errorf("%s: the .pub is read for each file: %p, %p", kind, p, pubs[0])
			}
		}
	}
}
