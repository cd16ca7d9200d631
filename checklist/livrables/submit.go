package livrables

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/romeo-pret/pret/checklist"
)

// Runner runs a Slurm client command in a folder and returns its standard
// output. Tests give a fake one; pret gives os/exec.
type Runner func(ctx context.Context, dir, name string, args ...string) (stdout []byte, err error)

// Submitter is the --soumettre branch of the course: submit once, watch
// squeue during the sleep, read the hostname line. It never cancels and
// never submits twice.
type Submitter struct {
	Dir      string
	Output   string // the script's output pattern, "sommeil-%j.out"
	Out      io.Writer
	Run      Runner
	Hostname string        // this machine's name
	Timeout  time.Duration // for the R state and for the output line
	Poll     time.Duration
}

// ErrNoSlurm means sinfo did not answer with a partition: the course's
// laptop branch, not a failure.
var ErrNoSlurm = errors.New("pas de Slurm ici : les deux fichiers suffisent")

var jobNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+)\s*$`) })

// Submit runs the branch. It returns ErrNoSlurm when sinfo does not
// answer, before anything is submitted.
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
	m := jobNumber().FindStringSubmatch(line)
	if m == nil {
		return fmt.Errorf("numéro de job introuvable dans %q", line)
	}
	id := m[1]

	deadline := time.Now().Add(s.Timeout)
	var running, node string
	for {
		out, err := s.Run(ctx, s.Dir, "squeue", "-j", id)
		if err == nil {
			lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
			for _, l := range lines[1:] {
				f := strings.Fields(l)
				if len(f) >= 8 && f[0] == id && f[4] == "R" {
					running, node = lines[0]+"\n"+l, f[len(f)-1]
				}
			}
		}
		if running != "" {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("le job %s n'a pas atteint l'état R en %v ; pret ne l'annule pas (scancel %s si vous voulez l'arrêter)", id, s.Timeout, id)
		}
		if err := sleep(ctx, s.Poll); err != nil {
			return err
		}
	}
	fmt.Fprintln(s.Out, running)

	outFile := strings.ReplaceAll(s.Output, "%j", id)
	if !filepath.IsAbs(outFile) {
		outFile = filepath.Join(s.Dir, outFile)
	}
	var first string
	for {
		// The bounded reader: a FIFO or a device planted at the output's
		// name never stalls the run, a huge file is not read.
		if data, err := checklist.ReadBounded(outFile, 1<<20); err == nil {
			if l, _, _ := strings.Cut(string(data), "\n"); strings.Contains(string(data), "\n") {
				first = strings.TrimSpace(l)
			}
		}
		if first != "" {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s n'a pas reçu la ligne de hostname à temps ; le job %s continue, pret ne l'annule pas", outFile, id)
		}
		if err := sleep(ctx, s.Poll); err != nil {
			return err
		}
	}
	fmt.Fprintf(s.Out, "%s : %s\n", filepath.Base(outFile), first)
	if first == s.Hostname {
		fmt.Fprintf(s.Out, "Le nom du nœud est celui de cette machine (%s).\n", s.Hostname)
	} else {
		fmt.Fprintf(s.Out, "Le nom du nœud diffère de cette machine (%s) : le job a tourné ailleurs.\n", s.Hostname)
	}
	fmt.Fprintf(s.Out, "Nœud du job : %s\n", node)
	return nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
