package acces

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// poolPages are pages that leave the most behind in a pooled document:
// the course's mix, then each with its lines shuffled, its tables and
// headings moved to other lines, cut to a few lines, or grown long
// (past maxFormLines, read line by line), so that a page follows one
// whose lines had other flags, rows and lengths.
func poolPages(t *testing.T) [][]byte {
	rng := rand.New(rand.NewPCG(3, 4))
	var out [][]byte
	for _, p := range benchPages(t, 300, false) {
		out = append(out, p)
		lines := strings.SplitAfter(string(p), "\n")
		rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
		out = append(out, []byte(strings.Join(lines, "")))
		out = append(out, []byte(strings.Join(lines[:1+rng.IntN(len(lines))], "")))
		out = append(out, []byte("# Titre\n| a | b |\n|---|---|\n"+strings.Join(lines, "")+"\n> citation\n"))
		if rng.IntN(30) == 0 {
			out = append(out, []byte(strings.Repeat("| x | y |\n", maxFormLines+rng.IntN(10))+string(p)))
		}
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// TestPooledDocumentIsFresh: a file validated after others, with one
// Result filled again and documents taken back from the pool, gets
// exactly the Result it gets from a document and a Result of its own.
// Nothing of the file before (its forms' flags and rows, its offsets,
// its problems or counts) reaches the next.
func TestPooledDocumentIsFresh(t *testing.T) {
	pages := poolPages(t)
	for _, rules := range []Rules{{}, {KeyName: "id_ed25519_romeo.pub"}, {RequireSignature: true}} {
		var reused Result
		got := make([]Result, len(pages))
		for i, p := range pages {
			ValidateInto(&reused, p, rules)
			got[i] = reused
		}
		// The same pages, each with a pool of its own: a new document.
		shared := docPool
		for i, p := range pages {
			docPool = &sync.Pool{New: func() any { return new(document) }}
			want := Validate(p, rules)
			if !reflect.DeepEqual(got[i], *want) {
				docPool = shared
				t.Fatalf("page %d after %d others:\ngot  %+v\nwant %+v\npage:\n%s", i, i, got[i], *want, p)
			}
		}
		docPool = shared
	}
}
