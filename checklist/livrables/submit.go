package livrables

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/romeo-pret/pret/internal/safefile"
)

// Submitter is the --soumettre branch of the course: submit once, watch
// squeue during the sleep, read the hostname line. It never cancels and
// never submits twice.
type Submitter struct {
	Dir    string
	Output string // the script's output pattern, "sommeil-%j.out"
	Out    io.Writer
	// Run runs a Slurm command in dir: os/exec, or a fake in tests.
	Run      func(ctx context.Context, dir, name string, args ...string) (stdout []byte, err error)
	Hostname string        // this machine's name
	Timeout  time.Duration // for the R state and for the output line
	Poll     time.Duration
}

// ErrNoSlurm: sinfo gave no partition; the laptop branch, not a failure.
var ErrNoSlurm = errors.New("pas de Slurm ici : les deux fichiers suffisent")

func (s Submitter) Submit(ctx context.Context) error {
	out, err := s.Run(ctx, s.Dir, "sinfo", "-h", "-o", "%P")
	if err != nil || strings.TrimSpace(string(out)) == "" {
		return ErrNoSlurm
	}
	out, err = s.Run(ctx, s.Dir, "sbatch", "sommeil.sbatch")
	line := strings.TrimSpace(string(out))
	if err != nil {
		return fmt.Errorf("sbatch a refusé le script : %v %s", err, line)
	}
	fmt.Fprintln(s.Out, line)
	id := line[strings.LastIndexFunc(line, func(r rune) bool { return r < '0' || r > '9' })+1:]
	if id == "" {
		return fmt.Errorf("numéro de job introuvable dans %q", line)
	}
	deadline := time.Now().Add(s.Timeout)
	var running, node string
	if err := s.wait(ctx, deadline, func() bool {
		out, err := s.Run(ctx, s.Dir, "squeue", "-j", id)
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		for _, l := range lines[1:] {
			if f := strings.Fields(l); err == nil && len(f) >= 8 && f[0] == id && f[4] == "R" {
				running, node = lines[0]+"\n"+l, f[len(f)-1]
			}
		}
		return running != ""
	}, fmt.Errorf("le job %s n'a pas atteint l'état R en %v ; pret ne l'annule pas (scancel %s si vous voulez l'arrêter)", id, s.Timeout, id)); err != nil {
		return err
	}
	fmt.Fprintln(s.Out, running)
	outFile := strings.ReplaceAll(s.Output, "%j", id)
	if !filepath.IsAbs(outFile) {
		outFile = filepath.Join(s.Dir, outFile)
	}
	var first string
	if err := s.wait(ctx, deadline, func() bool {
		// Bounded: a FIFO or device planted there never stalls the run.
		data, err := safefile.Read(outFile, safefile.Kind{Name: "fichier", Max: 1 << 20}, safefile.FollowLink)
		if l, _, complete := strings.Cut(string(data), "\n"); err == nil && complete {
			first = strings.TrimSpace(l)
		}
		return first != ""
	}, fmt.Errorf("%s n'a pas reçu la ligne de hostname à temps ; le job %s continue, pret ne l'annule pas", outFile, id)); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "%s : %s\n", filepath.Base(outFile), first)
	same := map[bool]string{true: "Le nom du nœud est celui de cette machine (%s).\n", false: "Le nom du nœud diffère de cette machine (%s) : le job a tourné ailleurs.\n"}
	fmt.Fprintf(s.Out, same[first == s.Hostname], s.Hostname)
	fmt.Fprintf(s.Out, "Nœud du job : %s\n", node)
	return nil
}

// wait polls done until it holds, or returns late past the deadline.
func (s Submitter) wait(ctx context.Context, deadline time.Time, done func() bool, late error) error {
	for !done() {
		if time.Now().After(deadline) {
			return late
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(s.Poll):
		}
	}
	return nil
}
