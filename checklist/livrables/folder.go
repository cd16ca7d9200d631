package livrables

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/checklist/sbatch"
	"github.com/romeo-pret/pret/internal/safefile"
)

// Options are the values the deliverables are checked against.
type Options struct {
	Given  sbatch.Given // what the organisers handed out
	Access acces.Rules  // for acces.md
}

// Check reads the deliverables of a folder: one result per deliverable,
// a missing required file included, in a fixed order.
func Check(dir string, opts Options) []checklist.FileResult {
	var out []checklist.FileResult
	add := func(name string, ps ...checklist.Problem) {
		valid := !slices.ContainsFunc(ps, func(p checklist.Problem) bool { return p.Severity == checklist.SevError })
		out = append(out, checklist.FileResult{Path: filepath.Join(dir, name), Problems: ps, Valid: valid})
	}
	// check reports whether the file exists. It reads it through
	// checklist.Guard: its lines of private key material are emptied
	// before any check sees them, so no report, explanation or Slurm
	// reading can quote one; the leak is reported.
	check := func(name string, fn func([]byte) []checklist.Problem) bool {
		data, err := safefile.Read(filepath.Join(dir, name), safefile.Kind{Name: "fichier", Max: acces.MaxAccessSize}, safefile.FollowLink)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return false
		case errors.Is(err, safefile.ErrTooLarge):
			add(name, checklist.Problem{Code: "too-large", Severity: checklist.SevError, Message: "fichier trop grand (plus de 1 Mio) : il n'a pas été lu"})
		case err != nil:
			add(name, checklist.Problem{Code: "unreadable", Severity: checklist.SevError, Message: "fichier illisible"})
		default:
			data, leaks := checklist.Guard(data)
			add(name, append(leaks, fn(data)...)...)
		}
		return true
	}
	text := func(fn func(string) []checklist.Problem) func([]byte) []checklist.Problem {
		return func(b []byte) []checklist.Problem { return fn(string(b)) }
	}

	var rep *sbatch.Report
	if !check("sommeil.sbatch", func(b []byte) []checklist.Problem {
		rep = sbatch.Check("sommeil.sbatch", b, opts.Given)
		return rep.Problems
	}) {
		add("sommeil.sbatch", checklist.Problem{Code: "sbatch-missing", Severity: checklist.SevError, Message: "pas de sommeil.sbatch : « pret modele sommeil.sbatch » écrit les huit lignes des notes"})
	} else if rep != nil {
		out[0].Effective, out[0].Explain = &rep.Effective, rep.Explain
	}

	explained := check("explication.md", text(CheckExplanation))
	if check("lignes.md", text(func(s string) []checklist.Problem { return append(CheckExplanation(s), CheckLignesAnswers(s)...) })) {
		explained = true
	}
	if !explained {
		add("explication.md", checklist.Problem{Code: "explication-missing", Severity: checklist.SevError,
			Message: "ni explication.md ni lignes.md : une phrase par ligne du script, dans l'ordre, shebang compris"})
	}
	check("sommeil-job.yaml", CheckJob)
	check("refus.md", text(CheckRefusal))
	check("decision.md", text(CheckDecision))
	check("comparaison.md", text(CheckComparison))

	if _, err := os.Stat(filepath.Join(dir, "acces.md")); err == nil {
		out = append(out, acces.ValidateFile(acces.TargetFor(filepath.Join(dir, "acces.md"), opts.Access.KeyName), opts.Access))
	}
	return out
}
