package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/testenv"
)

// oneFileShapes are 1 MiB acces.md files of the shapes that cost the
// validator most, each a line-level token repeated to the cap (the
// rules' own package measures more, in process: checklist/acces
// TestValidatePeakMemory), and a random mix of them.
func oneFileShapes() map[string]string {
	tokens := []string{"\n", "RSA ECDSA DSA ed25519-sk ", "|a|b|", "|\n", "SHA256:abc\n", "AAAAAAAAAAAAAAAAAAAA ",
		"~/.ssh/id_ed25519_romeo.pub ", "_a_ *b* `c` ", "> - 20/10/2026 octobre\r\n", "-----BEGIN\n", "b3BlbnNzaC1rZXktdjE\n"}
	out := map[string]string{}
	for _, tok := range tokens {
		out[fmt.Sprintf("%q", tok)] = strings.Repeat(tok, (1<<20)/len(tok))
	}
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for b.Len() < 1<<20-64 {
		b.WriteString(tokens[r.IntN(len(tokens))])
	}
	out["mix"] = b.String()
	return out
}

// TestOneFilePeak: `pret valider` on one file at the 1 MiB cap, whatever
// its shape, peaks less than 16 MiB above the same command on a one-line
// file (organisateurs.md: a single 1 MiB file is validated in under
// 16 MiB; pret's binary and runtime, about 12 MiB, are there before any
// file is read). Least of three runs, /usr/bin/time.
func TestOneFilePeak(t *testing.T) {
	testenv.Long(t)
	h := newHome(t)
	writeFile(t, h.path("petit_acces.md"), []byte("x\n"), 0o644)
	base := h.peakKiB("valider", "--format", "json", "petit_acces.md")
	worst, worstName := int64(0), ""
	for name, text := range oneFileShapes() {
		writeFile(t, h.path("acces.md"), []byte(text), 0o644)
		kib := h.peakUnder(base+16<<10, "valider", "--format", "json", "acces.md")
		if kib-base > worst {
			worst, worstName = kib-base, name
		}
		if kib-base > 16<<10 {
			t.Errorf("%s: peak %d KiB, %d KiB over a one-line file (%d KiB): over 16 MiB", name, kib, kib-base, base)
		}
	}
	t.Logf("one-line file: %d KiB; worst 1 MiB shape (%s): %d KiB more", base, worstName, worst)
}
