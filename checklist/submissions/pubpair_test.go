package submissions

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMoodlePubPairedByLearner: generated flat Moodle exports (every
// learner's acces.md and .pub side by side in one folder, under Moodle
// names with ids), on disk, in an archive's root and in archive folders
// spelt "lot/", "lot//", "lot/./": each submission is checked against
// its own learner's .pub (the configured name preferred over another
// .pub of the same learner), never another learner's. A learner whose
// own .pub states another key gets fingerprint-mismatch; one without a
// .pub gets none; no report names another learner's .pub.
func TestMoodlePubPairedByLearner(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for round := range 16 {
		n := 2 + rng.IntN(6)
		type learner struct {
			prefix   string
			mismatch bool
			files    map[string][]byte
		}
		var ls []learner
		for i := range n {
			prefix := fmt.Sprintf("%s %c_%d_assignsubmission_file_", []string{"Dupont", "Martin", "Durand"}[rng.IntN(3)], 'A'+rune(i), 100+rng.IntN(900)*10+i)
			own := newKey(byte(60 + round*8 + i))
			other := newKey(byte(200 + i))
			l := learner{prefix: prefix, files: map[string][]byte{prefix + "acces.md": []byte(page(own.fp, false))}}
			switch rng.IntN(4) {
			case 0: // the configured name
				l.files[prefix+"id_ed25519_romeo.pub"] = own.pub
			case 1: // the configured name, and another .pub sorting first
				l.files[prefix+"id_ed25519_romeo.pub"] = own.pub
				l.files[prefix+"aaa.pub"] = other.pub
			case 2: // only another name
				l.files[prefix+"zz_autre.pub"] = own.pub
			case 3: // a wrong key under the configured name
				l.files[prefix+"id_ed25519_romeo.pub"] = other.pub
				l.mismatch = true
			}
			if rng.IntN(5) == 0 && !l.mismatch { // no .pub at all
				for k := range l.files {
					if strings.HasSuffix(k, ".pub") {
						delete(l.files, k)
					}
				}
			}
			ls = append(ls, l)
		}
		for _, layout := range []string{"disk", "zip root", "zip lot/", "zip lot//", "zip lot/./", "zip ./"} {
			dir := t.TempDir()
			var arg string
			if layout == "disk" {
				arg = filepath.Join(dir, "flat")
				os.Mkdir(arg, 0o755)
				for _, l := range ls {
					for name, data := range l.files {
						os.WriteFile(filepath.Join(arg, name), data, 0o644)
					}
				}
			} else {
				prefix := strings.TrimPrefix(strings.TrimPrefix(layout, "zip "), "root")
				var buf bytes.Buffer
				zw := zip.NewWriter(&buf)
				// Learners shuffled, each one's files in a shuffled order.
				for _, i := range rng.Perm(len(ls)) {
					for name, data := range ls[i].files {
						w, _ := zw.Create(prefix + name)
						w.Write(data)
					}
				}
				zw.Close()
				arg = filepath.Join(dir, "lot.zip")
				os.WriteFile(arg, buf.Bytes(), 0o644)
			}
			res := Validate([]string{arg}, Options{Rules: testRules, Workers: 1 + round%3})
			if len(res) != n {
				t.Fatalf("round %d %s: %d results, want %d", round, layout, len(res), n)
			}
			for _, r := range res {
				var l *learner
				for i := range ls {
					if strings.Contains(r.Path, ls[i].prefix) {
						l = &ls[i]
					}
				}
				if l == nil {
					t.Fatalf("%s: no learner", r.Path)
				}
				codes := codesOfResult(r)
				if got := strings.Contains(codes, "fingerprint-mismatch"); got != l.mismatch {
					t.Errorf("round %d %s %s: fingerprint-mismatch %v, want %v (%+v)", round, layout, r.Path, got, l.mismatch, r.Problems)
				}
				for _, p := range r.Problems {
					for _, o := range ls {
						if o.prefix != l.prefix && strings.Contains(p.Message, o.prefix) {
							t.Errorf("round %d %s %s names another learner: %s", round, layout, r.Path, p.Message)
						}
					}
				}
				if strings.Contains(codes, "duplicate-fingerprint") {
					t.Errorf("round %d %s %s: %s", round, layout, r.Path, codes)
				}
			}
		}
	}
}

// TestArchivePubBesideAfterCleaning: entry folders spelt with "//" or
// "./" find the .pub beside them, and a ".." never reaches a .pub above
// the archive's root.
func TestArchivePubBesideAfterCleaning(t *testing.T) {
	a, b := newKey(91), newKey(92)
	for _, c := range []struct {
		entry, pub string
		mismatch   bool
	}{
		{"etu2//acces.md", "etu2/id_ed25519_romeo.pub", true},
		{"etu3/./acces.md", "etu3/id_ed25519_romeo.pub", true},
		{"etu4/acces.md", "etu4//id_ed25519_romeo.pub", true},
		{"./etu5/acces.md", "etu5/./id_ed25519_romeo.pub", true},
		{"etu6/x/../acces.md", "etu6/id_ed25519_romeo.pub", true},
		{"../../acces.md", "id_ed25519_romeo.pub", true},
		{"etu7/acces.md", "etu7/sous/id_ed25519_romeo.pub", false},
	} {
		p := filepath.Join(t.TempDir(), "lot.zip")
		os.WriteFile(p, zipLayout(t, map[string]entry{c.entry: {body: page(a.fp, false)}, c.pub: {body: string(b.pub)}}), 0o644)
		res := Validate([]string{p}, Options{Rules: testRules})
		if len(res) != 1 {
			t.Fatalf("%s: %d results", c.entry, len(res))
		}
		if got := strings.Contains(codesOfResult(res[0]), "fingerprint-mismatch"); got != c.mismatch {
			t.Errorf("%s beside %s: fingerprint-mismatch %v, want %v", c.entry, c.pub, got, c.mismatch)
		}
	}
}

// TestPubInLearnerFolderWhateverTheName: in Bob's Moodle folder, a
// submission named after another learner's Moodle file is still Bob's,
// checked against Bob's .pub, on disk and in an archive (outside tester,
// stop 27: it escaped the check).
func TestPubInLearnerFolderWhateverTheName(t *testing.T) {
	alice, bob := newKey(31), newKey(32)
	folder := "Martin Bob_654321_assignsubmission_file_"
	files := map[string]entry{
		folder + "/Dupont Alice_123456_assignsubmission_file_acces.md": {body: page(alice.fp, false)},
		folder + "/id_ed25519_romeo.pub":                               {body: string(bob.pub)},
	}
	for kind, arg := range bothWays(t, files) {
		res := Validate([]string{arg[0]}, Options{Rules: testRules, Workers: 1})
		if len(res) != 1 || !strings.Contains(codesOfResult(res[0]), "fingerprint-mismatch") {
			t.Fatalf("%s: %d results, want one fingerprint-mismatch: %+v", kind, len(res), res)
		}
	}
}
