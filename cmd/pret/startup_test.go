package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestInitAllocatesNothingOfPret: no package of pret builds a table, a
// regexp or a template when the program starts, since most commands
// never use them (pret version, pret empreinte). Each is built on first
// use. The bound is in bytes, read from the runtime's own init trace; the
// time it saves is measured, not asserted (docs/tests.md).
func TestInitAllocatesNothingOfPret(t *testing.T) {
	cmd := exec.Command(binary(t), "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var trace strings.Builder
	cmd.Stderr = &trace
	if err := cmd.Run(); err != nil {
		t.Fatalf("pret version: %v\n%s", err, trace.String())
	}
	seen := 0
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
		if n, err := strconv.Atoi(f[7]); err != nil || n > 4096 {
			t.Errorf("%s allocates %s bytes at init: build it on first use (sync.OnceValue)", f[1], f[7])
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace read:\n%s", trace.String())
	}
}
