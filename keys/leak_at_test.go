package keys

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// lineStarts splits text as pret's readers do: line i is
// text[s[i]:s[i+1]], its "\n" included.
func lineStarts(text string) []int32 {
	var s []int32
	for off := 0; off < len(text); {
		s = append(s, int32(off))
		j := strings.IndexByte(text[off:], '\n')
		if j < 0 {
			off = len(text)
		} else {
			off += j + 1
		}
	}
	return append(s, int32(len(text)))
}

// TestMaterialMaskAtAgrees: reading a caller's line offsets gives the
// mask the detector gives splitting the text itself, over generated
// texts (keys pasted whole, cut, quoted, among prose, with and without a
// final line break), one after the other so that pooled tables are
// reused; a table that does not fit the text is not used; the caller's
// table is left as it was and never reused for another file.
func TestMaterialMaskAtAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 19))
	for i := range 20_000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(genLine(r))
			if r.IntN(9) > 0 {
				b.WriteByte('\n')
			}
		}
		text := b.String()
		starts := lineStarts(text)
		kept := slices.Clone(starts)
		want := MaterialMask(text)
		if got := MaterialMaskAt(text, starts); !slices.Equal(got, want) {
			t.Fatalf("case %d: %q: mask %v with the caller's offsets, %v without", i, text, got, want)
		}
		if len(starts) > 2 {
			if got := MaterialMaskAt(text, starts[:len(starts)-1]); !slices.Equal(got, want) {
				t.Fatalf("case %d: a short table was used: %v, want %v", i, got, want)
			}
		}
		// The next files split by the detector write its own table,
		// never the caller's, which the caller may still be reading.
		MaterialMask(strings.Repeat("x\n", 1+r.IntN(40)))
		MaterialMask(genLine(r) + "\n" + genLine(r))
		if !slices.Equal(starts, kept) {
			t.Fatalf("case %d: the caller's offsets were written to", i)
		}
	}
}
