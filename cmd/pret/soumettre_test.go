package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/testenv"
)

func writeDeliverables(t *testing.T, h *home) {
	t.Helper()
	h.must(0, "", "modele", "sommeil.sbatch")
	os.WriteFile(h.path("explication.md"), []byte("bash, job-name, output, time, cpus-per-task, mem, hostname, sleep\n"), 0o644)
}

// TestSoumettreWithoutSlurm: without sinfo on PATH, the course's laptop
// branch: exit 0 and its sentence, nothing submitted.
func TestSoumettreWithoutSlurm(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	writeDeliverables(t, h)
	h.env = append(h.env, "PATH=/nonexistent")
	r := h.pret("", "livrables", "--soumettre")
	if r.code != 0 || !strings.Contains(r.stdout, "pas de Slurm ici : les deux fichiers suffisent") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "Submitted") {
		t.Fatal("submitted without Slurm")
	}
}

// TestSoumettreRealSlurm submits the notes' script once to the one-node
// Slurm that .ci/test starts, and follows it to the hostname line.
func TestSoumettreRealSlurm(t *testing.T) {
	t.Parallel()
	testenv.NeedTool(t, "sbatch")
	if err := exec.Command("scontrol", "ping").Run(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Slurm must answer in CI: %v", err)
		}
		t.Skip("Slurm does not answer")
	}
	h := newHome(t)
	writeDeliverables(t, h)
	r := h.pret("", "livrables", "--soumettre")
	m := regexp.MustCompile(`(?m)^Submitted batch job (\d+)$`).FindStringSubmatch(r.stdout)
	if m != nil {
		// The test, not pret, cleans up after itself.
		defer exec.Command("scancel", m[1]).Run()
	}
	if r.code != 0 || m == nil {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	host, _ := os.Hostname()
	for _, want := range []string{
		"(?m)^ +" + m[1] + " +\\S+ +sommeil +\\S+ +R ",
		"(?m)^sommeil-" + m[1] + ".out : " + regexp.QuoteMeta(host) + "$",
		"Le nom du nœud est celui de cette machine",
		"(?m)^Nœud du job : \\S+$",
	} {
		if !regexp.MustCompile(want).MatchString(r.stdout) {
			t.Errorf("missing %s in\n%s", want, r.stdout)
		}
	}
	if n := strings.Count(r.stdout, "Submitted batch job"); n != 1 {
		t.Fatalf("%d submissions", n)
	}
	out, _ := os.ReadFile(filepath.Join(h.dir, "sommeil-"+m[1]+".out"))
	if !strings.HasPrefix(string(out), host+"\n") {
		t.Fatalf("output file %q", out)
	}
}
