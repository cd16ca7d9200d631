package signing

import (
	"bytes"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// splitSignedOracle is SplitSigned as it was, every line compared with
// the marker and read for a stray line: the oracle of the skip.
func splitSignedOracle(data []byte) *SignedFile {
	f := &SignedFile{Message: data}
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
		l := data[off:end]
		if string(l) == SigMarker {
			f.Message = data[:off]
			f.Claimed, f.From = true, no
			if f.Err == nil {
				f.Line = no
			}
			f.parseBlock(data[next:], no)
			return f
		}
		if f.Err == nil && stray(l) {
			f.Claimed, f.Line = true, no
			f.Err = fmt.Errorf("%w (ligne %d)", ErrStray, no)
		}
		off = next
	}
	return f
}

// splitPieces are the lines and bits of lines around a signature.
var splitPieces = []string{SigMarker, "pret:signature", "<!-- pret:signature", armorBegin, armorEnd, "  " + armorBegin + " ", "-----BEGIN SSH SIGNATURE", "SSH SIGNATURE-----",
	fence, "U1NIU0lH", "signature", "Date : 2026-10-20", "", " ", "\t", "\r", "x"}

// TestSplitMatchesOracle: over signed files, their tamperings and lines
// of marker and armour pieces, SplitSigned (and so its skip of files
// that claim nothing) returns what the line-by-line reading returned.
func TestSplitMatchesOracle(t *testing.T) {
	signer, _ := testSigner(t)
	var files [][]byte
	for _, m := range messages(t, signer) {
		files = append(files, m)
		if s, err := SignFile(rand.Reader, signer, m); err == nil {
			files = append(files, s)
			for _, v := range tampered(s) {
				files = append(files, v)
			}
		}
	}
	rng := mrand.New(mrand.NewPCG(51, 52))
	for range 50_000 {
		var b strings.Builder
		for range rng.IntN(8) {
			for range rng.IntN(3) {
				b.WriteString(splitPieces[rng.IntN(len(splitPieces))])
			}
			b.WriteString([]string{"\n", "\r\n", ""}[rng.IntN(3)])
		}
		files = append(files, []byte(b.String()))
	}
	for _, data := range files {
		if got, want := SplitSigned(data), splitSignedOracle(data); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", data, got, want)
		}
	}
}

// FuzzSplitMatchesOracle: the same on any bytes.
func FuzzSplitMatchesOracle(f *testing.F) {
	signer, _ := testSigner(f)
	for _, m := range messages(f, signer) {
		f.Add(m)
	}
	f.Add([]byte(SigMarker))
	f.Add([]byte("a\n " + armorEnd + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := SplitSigned(data), splitSignedOracle(data); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", data, got, want)
		}
	})
}

// TestSplitSkipIsExact: every line SplitSigned would note (the marker,
// a stray line) holds one of the two strings mayClaim looks for.
func TestSplitSkipIsExact(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(53, 54))
	for range 200_000 {
		var b strings.Builder
		for range rng.IntN(4) {
			b.WriteString(splitPieces[rng.IntN(len(splitPieces))])
		}
		l := []byte(b.String())
		if (string(l) == SigMarker || stray(l)) && !mayClaim(l) {
			t.Fatalf("%q is a marker or stray line, yet mayClaim skips it", l)
		}
	}
}
