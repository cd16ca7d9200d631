package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestInitAllocationsBounded: pret's packages build little when the
// program starts (pret version and pret empreinte use almost none of
// it), read from the runtime's own init trace: at most 32 KiB in any one
// package, so a table or template built at init by mistake shows where
// it is, and 128 KiB in all (about 67 KiB in December 2026). Start-up
// time is measured with hyperfine (docs/tests.md), never asserted.
func TestInitAllocationsBounded(t *testing.T) {
	cmd := exec.Command(binary(t), "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var trace strings.Builder
	cmd.Stderr = &trace
	if err := cmd.Run(); err != nil {
		t.Fatalf("pret version: %v\n%s", err, trace.String())
	}
	const perPackage, budget = 32 << 10, 128 << 10
	seen, total := 0, 0
	for _, l := range strings.Split(trace.String(), "\n") {
		// init github.com/romeo-pret/pret/checklist @1.2 ms, 0.01 ms clock, 1032 bytes, 10 allocs
		f := strings.Fields(l)
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		if !strings.HasPrefix(f[1], "github.com/romeo-pret/pret/") && f[1] != "main" {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("init trace %q", l)
		}
		seen++
		total += n
		if n > perPackage {
			t.Errorf("%s allocates %d bytes at init, over %d: build the large ones on first use", f[1], n, perPackage)
		}
	}
	if total > budget {
		t.Errorf("pret's packages allocate %d bytes at init, over %d: build the large ones on first use", total, budget)
	}
	if seen < 5 {
		t.Fatalf("the init of only %d packages of pret read:\n%s", seen, trace.String())
	}
}
