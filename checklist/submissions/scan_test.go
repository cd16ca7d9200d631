package submissions

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	mrand "math/rand/v2"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/keytest"
)

// quotes reports whether a result says a word of the key's text.
func quotes(r checklist.FileResult, key string) bool {
	for _, w := range strings.Fields(key) {
		if len(w) < 16 || strings.Contains(w, "PRIVATE") {
			continue
		}
		for _, p := range r.Problems {
			if strings.Contains(p.Message, w[:16]) {
				return true
			}
		}
	}
	return false
}

// TestKeyHandedInAnyFileIsALeak (issue 30): a private key handed in as a
// file of its own (beside acces.md, alone, in cle.txt written in UTF-16,
// pasted in the online text, dumped by xxd into notes) is a
// private-key-leak on its learner's row, listed first, naming the file
// and never quoting it, in a folder and in a zip; what else learners hand
// in (a README of sha256 sums, base64 in prose, a .pub, binary bytes) is
// none.
func TestKeyHandedInAnyFileIsALeak(t *testing.T) {
	forms := keytest.Forms(t)
	key := forms[0].File() // ed25519, OpenSSH
	k4, k5 := newKey(4), newKey(5)
	var readme strings.Builder
	for i := range 20 {
		fmt.Fprintf(&readme, "%x  fichier%d\n", sha256.Sum256([]byte{byte(i)}), i)
	}
	readme.WriteString(keytest.Base64Prose(mrand.New(mrand.NewPCG(1, 2)), 200) + "\n")
	binary := make([]byte, 8192)
	rand.Read(binary)
	html := "<p>Voici ma clé :<br>\n" + strings.ReplaceAll(strings.TrimSpace(key), "\n", "<br>\n") + "</p>\n"
	// As Moodle's editor saves it: one line, the key's lines as <br>.
	oneLine := "<p dir=\"ltr\">Voici ma clé&nbsp;:</p><p>" + strings.ReplaceAll(strings.TrimSpace(key), "\n", "<br>") + "</p>"
	files := map[string]entry{
		"etu1/acces.md":             {body: page(newKey(1).fp, false)},
		"etu1/id_ed25519_romeo":     {body: key},
		"etu2/id_ed25519_romeo":     {body: key},
		"etu3/acces.md":             {body: page(newKey(3).fp, false)},
		"etu3/cle.txt":              {body: string(keytest.Encodings[3].Encode(key))}, // UTF-16 LE, BOM
		"etu4/acces.md":             {body: page(k4.fp, false)},
		"etu4/README.md":            {body: readme.String()},
		"etu4/id_ed25519_romeo.pub": {body: string(k4.pub)},
		"etu5/acces.md":             {body: page(k5.fp, false)},
		"etu5/photo.bin":            {body: string(binary)},
		"etu7/docs/acces.md":        {body: page(newKey(7).fp, false)},
		"etu7/.ssh/id_ed25519":      {body: key}, // another folder of hers
		"etu6/acces.md":             {body: "Date : hier\n"},
		"etu6/id_ed25519_romeo.pub": {body: key}, // the wrong file sent: said once
		"Dupont Alice_123456_assignsubmission_file_/id_ed25519_romeo": {body: key},
		// Online text is read as the page (onlinetext.go): its row is the file.
		"Martin Bob_234567_assignsubmission_onlinetext_/onlinetext.html": {body: html},
		"Leroy Dan_456789_assignsubmission_onlinetext_/onlinetext.html":  {body: oneLine},
		"Durand Chloé_345678_assignsubmission_file_/acces.md":            {body: page(newKey(6).fp, false)},
		"Durand Chloé_345678_assignsubmission_file_/notes.txt":           {body: "Ma clé :\n" + keytest.XXD([]byte(key))},
	}
	want := map[string]struct{ codes, file string }{
		"etu1/acces.md":      {"private-key-leak", "etu1/id_ed25519_romeo"},
		"etu2/":              {"private-key-leak no-acces-md", "etu2/id_ed25519_romeo"}, // her folder: a learner (platforms)
		"etu3/acces.md":      {"private-key-leak", "etu3/cle.txt"},
		"etu4/acces.md":      {"", ""},
		"etu5/acces.md":      {"", ""},
		"etu7/docs/acces.md": {"private-key-leak", "etu7/.ssh/id_ed25519"},
		"etu6/acces.md":      {"private-key-leak bad-date missing-pubkey-path missing-fingerprint missing-sentence", "id_ed25519_romeo.pub"},
		"Dupont Alice_123456_assignsubmission_file_/": {"private-key-leak no-acces-md", "Dupont Alice_123456_assignsubmission_file_/id_ed25519_romeo"},
		// Online text is read as the page (onlinetext.go): its row is the file.
		"Martin Bob_234567_assignsubmission_onlinetext_/onlinetext.html": {"private-key-leak missing-date missing-pubkey-path missing-fingerprint missing-sentence", ""},
		"Leroy Dan_456789_assignsubmission_onlinetext_/onlinetext.html":  {"private-key-leak missing-date missing-pubkey-path missing-fingerprint missing-sentence", ""},
		"Durand Chloé_345678_assignsubmission_file_/acces.md":            {"private-key-leak", "notes.txt"},
	}
	for how, arg := range bothWays(t, files) {
		got := byPath(Validate([]string{arg[0]}, Options{Rules: testRules}), arg[1])
		if len(got) != len(want) {
			t.Errorf("%s: %d results, want %d: %v", how, len(got), len(want), got)
		}
		for path, w := range want {
			r, ok := got[path]
			switch {
			case !ok:
				t.Errorf("%s: no result for %s", how, path)
			case codesOfResult(r) != w.codes:
				t.Errorf("%s: %s: %q, want %q: %v", how, path, codesOfResult(r), w.codes, r.Problems)
			case w.file != "" && !strings.Contains(r.Problems[0].Message, w.file):
				t.Errorf("%s: %s: the leak does not name %s: %s", how, path, w.file, r.Problems[0].Message)
			case w.file != "" && r.Valid:
				t.Errorf("%s: %s: valid with a leak", how, path)
			case quotes(r, key):
				t.Errorf("%s: %s quotes the key: %v", how, path, r.Problems)
			}
		}
	}
}

// TestKeyInBothCopiesOfAnExport: one export given as its folder and its
// zip at once is one row per learner, and a key file of the same name in
// both is named twice: each copy is to be deleted (outside tester).
func TestKeyInBothCopiesOfAnExport(t *testing.T) {
	key := keytest.Forms(t)[0].File()
	const eve = "Zola Eve_105_assignsubmission_file_/"
	ways := bothWays(t, map[string]entry{eve + "acces.md": {body: page(newKey(8).fp, false)}, eve + "id_ed25519_romeo": {body: key}})
	results := Validate([]string{ways["dossier"][0], ways["zip"][0]}, Options{Rules: testRules})
	if len(results) != 1 {
		t.Fatalf("%d results, want one for Eve: %v", len(results), results)
	}
	var leaks []string
	for _, p := range results[0].Problems {
		if p.Code == checklist.CodePrivateKeyLeak {
			leaks = append(leaks, p.Message)
		}
	}
	if len(leaks) != 2 || !strings.Contains(strings.Join(leaks, "\n"), ways["dossier"][1]+eve+"id_ed25519_romeo") ||
		!strings.Contains(strings.Join(leaks, "\n"), ways["zip"][1]+eve+"id_ed25519_romeo") {
		t.Errorf("the leaks name %q, want both copies of the key file", leaks)
	}
}

// TestEveryKeyInAnyFile (issue 30), as an invariant over real keys: each
// key of every type and form, in every encoding with invisible
// characters inside, or dumped as hex in every way, in a file of any name
// beside a valid acces.md, is a private-key-leak listed first on that
// row, in a folder and in a zip.
func TestEveryKeyInAnyFile(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(30, 4))
	names := []string{"id_ed25519_romeo", "cle.txt", "onlinetext.html", "cle privee.TXT", "notes", "id_ed25519_romeo.pub", "Clé (1).docx"}
	files := map[string]entry{}
	for i, f := range keytest.Forms(t) {
		var bodies []string
		for _, e := range keytest.Encodings {
			bodies = append(bodies, string(e.Encode(keytest.Sprinkle(f.File(), keytest.Invisible, rng.IntN(6), e.Holds, rng))))
		}
		for _, d := range keytest.Dumps {
			bodies = append(bodies, d.Dump([]byte(f.File())))
		}
		for j, body := range bodies {
			dir := fmt.Sprintf("etu-%02d-%02d/", i, j)
			files[dir+"acces.md"] = entry{body: page(newKey(byte(i*32+j)).fp, false)}
			files[dir+names[rng.IntN(len(names))]] = entry{body: body}
		}
	}
	for how, arg := range bothWays(t, files) {
		results := Validate([]string{arg[0]}, Options{Rules: testRules})
		if len(results) != len(files)/2 {
			t.Fatalf("%s: %d results for %d learners", how, len(results), len(files)/2)
		}
		for _, r := range results {
			if len(r.Problems) == 0 || r.Problems[0].Code != "private-key-leak" || r.Valid {
				t.Errorf("%s: %s: %v", how, r.Path, r.Problems)
			}
		}
	}
}
