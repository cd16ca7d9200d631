package livrables

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/checklist/sbatch"
)

// Options are the values the deliverables are checked against.
type Options struct {
	Given  sbatch.Given // what the organisers handed out
	Access acces.Rules  // for acces.md
}

const maxSize = acces.MaxAccessSize

// Check reads the deliverables of a folder: one result per deliverable,
// a missing required file included, in a fixed order.
func Check(dir string, opts Options) []checklist.FileResult {
	var out []checklist.FileResult
	// Every file is read through checklist.Guard: its lines of private
	// key material are emptied before any check sees them, so no report,
	// explanation or Slurm reading can quote one; the leak is reported.
	leaks := map[string][]checklist.Problem{}
	read := func(name string) ([]byte, *checklist.FileResult, bool) {
		path := filepath.Join(dir, name)
		data, err := checklist.ReadBounded(path, maxSize)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, nil, false
		case errors.Is(err, checklist.ErrTooLarge):
			return nil, &checklist.FileResult{Path: path, Problems: []checklist.Problem{{Code: "too-large", Severity: checklist.SevError, Message: "fichier trop grand (plus de 1 Mio) : il n'a pas été lu"}}}, true
		case err != nil:
			return nil, &checklist.FileResult{Path: path, Problems: []checklist.Problem{{Code: "unreadable", Severity: checklist.SevError, Message: "fichier illisible"}}}, true
		}
		data, leaks[path] = checklist.Guard(data)
		return data, nil, true
	}
	finish := func(path string, ps []checklist.Problem) checklist.FileResult {
		ps = append(leaks[path], ps...)
		r := checklist.FileResult{Path: path, Problems: ps, Valid: true}
		for _, p := range ps {
			if p.Severity == checklist.SevError {
				r.Valid = false
			}
		}
		return r
	}

	path := filepath.Join(dir, "sommeil.sbatch")
	switch data, bad, ok := read("sommeil.sbatch"); {
	case !ok:
		out = append(out, finish(path, []checklist.Problem{{Code: "sbatch-missing", Severity: checklist.SevError, Message: "pas de sommeil.sbatch : « pret modele sommeil.sbatch » écrit les huit lignes des notes"}}))
	case bad != nil:
		out = append(out, *bad)
	default:
		rep := sbatch.Check("sommeil.sbatch", data, opts.Given)
		r := finish(path, rep.Problems)
		r.Effective, r.Explain = &rep.Effective, rep.Explain
		out = append(out, r)
	}

	explained := false
	for _, name := range []string{"explication.md", "lignes.md"} {
		data, bad, ok := read(name)
		if !ok {
			continue
		}
		if bad != nil {
			out = append(out, *bad)
			explained = true
			continue
		}
		ps := CheckExplanation(string(data))
		if name == "lignes.md" {
			ps = append(ps, CheckLignesAnswers(string(data))...)
		}
		out = append(out, finish(filepath.Join(dir, name), ps))
		explained = true
	}
	if !explained {
		out = append(out, finish(filepath.Join(dir, "explication.md"), []checklist.Problem{{Code: "explication-missing", Severity: checklist.SevError,
			Message: "ni explication.md ni lignes.md : une phrase par ligne du script, dans l'ordre, shebang compris"}}))
	}

	for _, d := range []struct {
		name  string
		check func([]byte) []checklist.Problem
	}{
		{"sommeil-job.yaml", CheckJob},
		{"refus.md", func(b []byte) []checklist.Problem { return CheckRefusal(string(b)) }},
		{"decision.md", func(b []byte) []checklist.Problem { return CheckDecision(string(b)) }},
		{"comparaison.md", func(b []byte) []checklist.Problem { return CheckComparison(string(b)) }},
	} {
		data, bad, ok := read(d.name)
		switch {
		case !ok:
		case bad != nil:
			out = append(out, *bad)
		default:
			out = append(out, finish(filepath.Join(dir, d.name), d.check(data)))
		}
	}

	if _, err := os.Stat(filepath.Join(dir, "acces.md")); err == nil {
		r := acces.ValidateFile(acces.TargetFor(filepath.Join(dir, "acces.md"), opts.Access.KeyName), opts.Access)
		out = append(out, r)
	}
	return out
}
