package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestInitAllocatesNothingOfPret: pret's packages build little when the
// program starts (pret version, pret empreinte use almost none of it).
// The bound is in bytes, all packages together, read from the runtime's
// own init trace; the time is measured, not asserted (docs/tests.md).
func TestInitAllocatesNothingOfPret(t *testing.T) {
	cmd := exec.Command(binary(t), "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var trace strings.Builder
	cmd.Stderr = &trace
	if err := cmd.Run(); err != nil {
		t.Fatalf("pret version: %v\n%s", err, trace.String())
	}
	// What start-up may cost is a contract of its own (within 1.5x
	// ssh-keygen -lf, measured by .ci/startup); here, a bound on what
	// pret's packages build at init all together, so that plain
	// package-level regexps stay plain and a table built at init by
	// mistake still shows.
	const budget = 128 << 10
	seen, total := 0, 0
	for _, l := range strings.Split(trace.String(), "\n") {
		// init github.com/romeo-pret/pret/checklist @1.2 ms, 0.01 ms clock, 1032 bytes, 10 allocs
		f := strings.Fields(l)
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		seen++
		if !strings.HasPrefix(f[1], "github.com/romeo-pret/pret") && f[1] != "main" {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("init trace %q", l)
		}
		total += n
	}
	if total > budget {
		t.Errorf("pret's packages allocate %d bytes at init, over %d: build the large ones on first use", total, budget)
	}
	if seen == 0 {
		t.Fatalf("no init trace read:\n%s", trace.String())
	}
}
