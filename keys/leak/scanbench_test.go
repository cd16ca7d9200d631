package leak

import (
	"fmt"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/keytest"
)

// fileOf is n bytes of what a submission holds besides a key: pages,
// prose, fingerprints and sha256 sums, as a learner's notes or a README.
func fileOf(n int) string {
	const readme = "Fichiers rendus pour la séance.\n" +
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  notes.txt\n" +
		"- 256 SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU kim@portable (ED25519)\n\n"
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(onePage)
		b.WriteString(readme)
	}
	return b.String()[:n]
}

// BenchmarkFile: one honest file of 16 KiB and of 1 MiB, as every file
// of a submission is read: Lines on the text (what acces.md gets), File
// on its UTF-8 bytes and on its UTF-16 bytes (five readings), and
// keys/leak's worst case for File, bytes that trigger every reading.
//
//	go test ./keys/leak -run '^$' -bench File -benchmem
func BenchmarkFile(b *testing.B) {
	for _, n := range []int{16 << 10, 1 << 20} {
		text := fileOf(n)
		utf16 := keytest.Encodings[3].Encode(text)
		both := []byte(strings.Repeat("a\x00\x00a", n/4))
		for _, c := range []struct {
			name string
			size int
			scan func()
		}{
			{"Lines/utf8", n, func() { Lines(text) }},
			{"File/utf8", n, func() { File([]byte(text)) }},
			{"File/utf16", len(utf16), func() { File(utf16) }},
			{"File/utf16-both-parities", len(both), func() { File(both) }},
		} {
			b.Run(fmt.Sprintf("%s/%dKiB", c.name, n>>10), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(c.size))
				for b.Loop() {
					c.scan()
				}
			})
		}
	}
}
