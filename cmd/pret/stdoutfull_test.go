package main

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// TestStdoutFullNeverExitsZero: every command line that prints on
// standard output, in every format, run with standard output on
// /dev/full, exits non-zero with the reason in French on stderr, the
// same way whatever the format: a lost report is never a success.
func TestStdoutFullNeverExitsZero(t *testing.T) {
	t.Parallel()
	notShort(t)
	if runtime.GOOS != "linux" {
		t.Skip("/dev/full is Linux's")
	}
	h := newHome(t)
	putKey(t, h.dir)
	os.WriteFile(h.path("values.yaml"), []byte("scheduler:\n  enabled: true\nslurmConfig:\n  KillWait: 60\n"), 0o644)
	os.WriteFile(h.path("policy.yaml"), []byte("base:\n  spec:\n    schedulerName: slurm-scheduler\n"), 0o644)
	lines := [][]string{
		{"cle"}, {"empreinte"}, {"empreinte", "--art", h.path(".ssh/id_ed25519_romeo")},
		{"acces", "--statut", "demande"}, {"--help"}, {"version"}, {"--version"}, {"assistant"},
		{"completion", "bash"}, {"completion", "zsh"}, {"completion", "fish"},
		{"valider", "--help"}, {"config"},
	}
	for _, f := range checklist.Formats {
		lines = append(lines, []string{"verifier", "--format", f}, []string{"livrables", "--format", f},
			[]string{"sunk", "--valeurs", "values.yaml", "--politique", "policy.yaml", "--format", f})
	}
	for _, f := range checklist.FileFormats {
		lines = append(lines, []string{"valider", "--format", f, "."}, []string{"valider", "--tous", "--format", f, "."})
	}
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	tested := 0
	for _, args := range lines {
		ref := h.pret(secretPass+"\n", args...)
		if ref.stdout == "" {
			continue // prints nothing on standard output: nothing to lose
		}
		tested++
		cmd := h.command(secretPass+"\n", args...)
		var errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &errb
		r := finish(t, cmd, &bytes.Buffer{}, &errb, cmd.Run())
		if r.code == 0 || !strings.Contains(r.stderr, "pret: erreur : ") || !strings.Contains(r.stderr, "plus de place sur le disque") {
			t.Errorf("pret %s > /dev/full: exit %d, stderr %q", strings.Join(args, " "), r.code, r.stderr)
		}
		if strings.Count(r.stderr, "plus de place sur le disque") != 1 {
			t.Errorf("pret %s > /dev/full: the error told %d times", strings.Join(args, " "), strings.Count(r.stderr, "plus de place"))
		}
	}
	if tested < len(lines)/2 {
		t.Fatalf("only %d of %d command lines print on standard output", tested, len(lines))
	}
}
