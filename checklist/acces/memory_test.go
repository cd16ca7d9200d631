package acces

import (
	"crypto/ed25519"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
	"golang.org/x/crypto/ssh"
)

// oldCells is how a table row's cells were read before eachCell: split
// on every pipe, each cell cleaned, empty and separator cells dropped.
func oldCells(row string) []string {
	var cells []string
	for _, p := range strings.Split(row, "|") {
		p = cleanInline(strings.TrimSpace(p))
		if strings.Trim(p, "-: ") != "" {
			cells = append(cells, p)
		}
	}
	return cells
}

// TestEachCellMatchesSplit: the cells eachCell reads one at a time, and
// the text stripDecoration joins from them, are those of the split the
// validator made before (a slice of every cell of the row).
func TestEachCellMatchesSplit(t *testing.T) {
	pieces := []string{"|", "|", "||", " ", "a", "---", ":-:", "*b*", "_c_", "`d`", "é", "«", "-", ":", "\u00a0", "x|y", "> "}
	r := rand.New(rand.NewPCG(21, 22))
	for i := range 50_000 {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		raw := b.String()
		var got []string
		s := strings.TrimSpace(raw)
		for strings.HasPrefix(s, ">") {
			s = strings.TrimSpace(s[1:])
		}
		row := strings.Trim(s, "|")
		eachCell(row, func(c string) bool { got = append(got, c); return true })
		want := oldCells(row)
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: %q: cells %q, want %q", i, raw, got, want)
		}
		text, _, starts, gotRow := stripDecoration(raw)
		if !strings.HasPrefix(s, "|") {
			continue
		}
		if text != strings.Join(want, " ") || !starts || (gotRow != "") != (len(want) > 0) {
			t.Fatalf("case %d: %q: text %q row %q, want %q with %d cells", i, raw, text, gotRow, strings.Join(want, " "), len(want))
		}
	}
}

// TestEachCellStops: a yield that returns false ends the walk.
func TestEachCellStops(t *testing.T) {
	n := 0
	eachCell("a|b|c|d", func(string) bool { n++; return n < 2 })
	if n != 2 {
		t.Fatalf("%d cells read after a stop at the second", n)
	}
}

// TestStatementsBounded: whatever a file repeats — type words,
// fingerprints well formed or not, MD5 — what statements keeps is
// bounded: the distinct types once each, maxPerCode lines per kind, and
// the counts. The problems report the same counts as before.
func TestStatementsBounded(t *testing.T) {
	const fp = "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU"
	text := strings.Repeat("RSA DSA ecdsa RSA\n", 5000) + strings.Repeat("SHA256:abc\n", 3000) +
		strings.Repeat(fp+" ", 4000) + "\n" + strings.Repeat("MD5:01:23:45:67:89:ab:cd:ef:01:23:45:67:89:ab:cd:ef\n", 2000)
	d := readLines(text)
	st := d.statements()
	if !slices.Equal(st.otherTypes, []string{"RSA", "DSA", "ECDSA"}) || st.otherLine != 1 {
		t.Errorf("types %q from line %d, want RSA DSA ECDSA from line 1", st.otherTypes, st.otherLine)
	}
	for name, s := range map[string]*seen{"fingerprints": &st.fingerprints, "badFP": &st.badFP, "md5": &st.md5} {
		if len(s.lines) > maxPerCode {
			t.Errorf("%s: %d lines kept", name, len(s.lines))
		}
	}
	if st.fingerprints.n != 4000 || st.distinctCount() != 1 || st.badFP.n != 3000 || st.md5.n != 2000 {
		t.Errorf("counts: %d fingerprints (%d distinct), %d malformed, %d MD5", st.fingerprints.n, st.distinctCount(), st.badFP.n, st.md5.n)
	}
	if st.badFP.lines[0] != 5001 || st.fingerprints.lines[0] != 8001 || st.md5.lines[0] != 8002 {
		t.Errorf("first lines: %v %v %v", st.badFP.lines[0], st.fingerprints.lines[0], st.md5.lines[0])
	}
	r := Validate([]byte(text), Rules{})
	if r.Fingerprint != fp || r.FingerprintLine != 8001 {
		t.Errorf("fingerprint %q at %d", r.Fingerprint, r.FingerprintLine)
	}
	n, last := 0, ""
	for _, p := range r.Problems {
		if p.Code == "bad-fingerprint" {
			n, last = n+1, p.Message
		}
	}
	// 3000 malformed lines: ten built, the last saying 2990 more.
	if n != maxPerCode || !strings.Contains(last, "et 2990 autres problèmes bad-fingerprint") {
		t.Errorf("%d bad-fingerprint problems, last %q", n, last)
	}
}

// TestPastedKeysBounded: pasted keys keep 40 bytes each, those that do
// not parse only the first maxPerCode; the problems are those a key kept
// whole gave: bad-public-key ten times, the last counting the others,
// and fingerprint-mismatch for each key but the stated one, in the
// order of the file.
func TestPastedKeysBounded(t *testing.T) {
	var pubs []string
	var fps []string
	for i := range 3 {
		seed := make([]byte, ed25519.SeedSize)
		seed[0] = byte(i + 1)
		pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
		k, err := ssh.NewPublicKey(pub)
		if err != nil {
			t.Fatal(err)
		}
		pubs = append(pubs, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k))))
		fps = append(fps, ssh.FingerprintSHA256(k))
	}
	text := "256 " + fps[0] + " (ED25519)\n" + strings.Repeat("AAAAAAAAAAAAAAAAAAAA\n", 3000) +
		pubs[1] + "\n" + pubs[0] + "\n" + strings.Repeat(pubs[2]+"\n", 20)
	st := readLines(text).statements()
	if len(st.pasted) != maxPerCode+22 || st.badPasted != 3000 {
		t.Fatalf("%d pasted kept, %d unreadable counted", len(st.pasted), st.badPasted)
	}
	r := Validate([]byte(text), Rules{})
	var bad, mismatch []checklist.Problem
	for _, p := range r.Problems {
		switch p.Code {
		case "bad-public-key":
			bad = append(bad, p)
		case "fingerprint-mismatch":
			mismatch = append(mismatch, p)
		}
	}
	if len(bad) != maxPerCode || bad[0].Line != 2 || !strings.Contains(bad[len(bad)-1].Message, "et 2990 autres problèmes bad-public-key") {
		t.Errorf("bad-public-key: %+v", bad)
	}
	// Line 3002 holds key 1, 3003 the stated key 0, then twenty of key 2:
	// mismatches at 3002 and the first nine of key 2, then counted.
	if len(mismatch) != maxPerCode || mismatch[0].Line != 3002 || !strings.Contains(mismatch[0].Message, fps[1]) ||
		mismatch[1].Line != 3004 || !strings.Contains(mismatch[1].Message, fps[2]) || !strings.Contains(mismatch[len(mismatch)-1].Message, "et 11 autres") {
		t.Errorf("fingerprint-mismatch: %+v", mismatch)
	}
}
