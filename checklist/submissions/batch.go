package submissions

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/safefile"
)

// Options are what a run compares against and how wide it reads.
type Options struct {
	Rules   acces.Rules
	Workers int // files read at once; 0 = one per CPU
}

// maxDuplicateOf bounds the paths one result lists as sharing its key:
// a key shared by thousands of files would otherwise cost memory in the
// square of their number. The summary's groups list every path.
const maxDuplicateOf = 10

// Validate reads every submission of the arguments (files, folders, .zip
// archives) and validates them. Results are sorted by path whatever the
// parallelism; a place that could not be read is a result of its own
// (unreadable), and the rest of the run goes on. The arguments must
// exist: a mistyped name is the caller's usage error, found before this.
func Validate(args []string, opts Options) []checklist.FileResult {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Results are kept in chunks while they come, so that growing the
	// list never copies it: memory is one record per file, not two.
	const chunk = 4096
	var (
		mu     sync.Mutex
		chunks [][]checklist.FileResult
		infos  []info
		wg     sync.WaitGroup
	)
	jobs := make(chan source, 64)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, 8192)
			for s := range jobs {
				var res checklist.FileResult
				var in info
				res, in.id, in.hasID, buf = validateSource(s, opts.Rules, buf)
				in.group = s.group
				if s.done != nil {
					s.done()
				}
				mu.Lock()
				if len(chunks) == 0 || len(chunks[len(chunks)-1]) == chunk {
					chunks = append(chunks, make([]checklist.FileResult, 0, chunk))
				}
				chunks[len(chunks)-1] = append(chunks[len(chunks)-1], res)
				infos = append(infos, in)
				mu.Unlock()
			}
		}()
	}
	w := &walker{keyName: opts.Rules.KeyName, seen: map[fileID]bool{}, emit: func(s source) { jobs <- s }}
	for _, a := range args {
		w.arg(a)
	}
	close(jobs)
	wg.Wait()

	results := make([]checklist.FileResult, 0, len(infos))
	for i := range chunks {
		results = append(results, chunks[i]...)
		chunks[i] = nil // the copy is the record now
	}
	sort.Sort(byPath{results, infos})
	// One file read twice (two spellings of one tree, a file also named on
	// the command line) is one result: the first path in order.
	// Within one argument a file is met once (folders are listed once);
	// only several arguments can name one file twice.
	seen := map[fileID]bool{}
	n := 0
	for i := range results {
		if infos[i].hasID && len(args) > 1 {
			if seen[infos[i].id] {
				continue
			}
			seen[infos[i].id] = true
		}
		results[n], infos[n] = results[i], infos[i]
		n++
	}
	clear(results[n:])
	results, infos = results[:n:n], infos[:n]
	markDuplicates(results, infos)
	return results
}

// info is what the run keeps of a file besides its result: which file it
// was and whose.
type info struct {
	id    fileID
	hasID bool
	group string
}

// byPath sorts results and their infos together.
type byPath struct {
	r []checklist.FileResult
	i []info
}

func (b byPath) Len() int           { return len(b.r) }
func (b byPath) Less(i, j int) bool { return b.r[i].Path < b.r[j].Path }
func (b byPath) Swap(i, j int) {
	b.r[i], b.r[j] = b.r[j], b.r[i]
	b.i[i], b.i[j] = b.i[j], b.i[i]
}

// validateSource reads and validates one source.
func validateSource(s source, rules acces.Rules, buf []byte) (checklist.FileResult, fileID, bool, []byte) {
	res := checklist.FileResult{Path: s.path, Apprenant: s.learner, Archive: s.archive, Entry: s.entry}
	fail := func(err error) {
		if errors.Is(err, errTooLarge) || errors.Is(err, safefile.ErrTooLarge) {
			res.Problems = []checklist.Problem{{Code: "too-large", Severity: checklist.SevError, Message: "fichier trop grand (plus de 1 Mio) : un acces.md tient sur une page ; il n'a pas été lu"}}
			return
		}
		what := "fichier illisible : "
		if s.read == nil {
			what = "illisible : "
		}
		res.Problems = []checklist.Problem{{Code: "unreadable", Severity: checklist.SevError, Message: what + describe(err)}}
	}
	if s.fail != nil {
		fail(s.fail)
		return res, fileID{}, false, buf
	}
	data, id, err := s.read(buf)
	hasID := id != (fileID{})
	if err != nil {
		fail(err)
		return res, id, hasID, buf
	}
	if s.pub != nil {
		rules.Beside = s.pub()
	}
	r := acces.Validate(data, rules)
	res.Problems, res.Fingerprint, res.Valid = r.Problems, r.Fingerprint, r.Valid()
	res.FingerprintLine = r.FingerprintLine
	res.Date, res.Statut = r.Date, r.Status
	return res, id, hasID, data[:0]
}

// markDuplicates finds the fingerprints stated by two learners or more.
// Files of one learner's folder (acces.md beside a copy "acces (1).md")
// count once: a learner may hand in twice, two learners may not share a key.
func markDuplicates(results []checklist.FileResult, infos []info) {
	// Indexes sorted by fingerprint, then runs of one fingerprint: four
	// bytes per file, where a map of lists would cost ten times that.
	var order []int32
	for i, r := range results {
		if r.Fingerprint != "" {
			order = append(order, int32(i))
		}
	}
	sort.Slice(order, func(a, b int) bool {
		fa, fb := results[order[a]].Fingerprint, results[order[b]].Fingerprint
		return fa < fb || fa == fb && order[a] < order[b]
	})
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && results[order[end]].Fingerprint == results[order[start]].Fingerprint {
			end++
		}
		run := order[start:end]
		start = end
		if len(run) < 2 {
			continue
		}
		idx := make([]int, len(run))
		for k, i := range run {
			idx[k] = int(i)
		}
		learners := map[string]bool{}
		for _, i := range idx {
			learners[infos[i].group] = true
		}
		if len(learners) < 2 {
			continue
		}
		for _, i := range idx {
			var others []string
			for _, j := range idx {
				if j != i && len(others) < maxDuplicateOf {
					others = append(others, results[j].Path)
				}
			}
			results[i].DuplicateOf = others
			results[i].Problems = append(results[i].Problems, checklist.Problem{
				Code: "duplicate-fingerprint", Severity: checklist.SevError,
				Line:    results[i].FingerprintLine,
				Message: fmt.Sprintf("la même empreinte figure aussi dans %s : deux personnes ne partagent pas une clé", listPaths(others, len(idx)-1)),
			})
			results[i].Valid = false
		}
	}
}

// listPaths names the first three paths and counts the rest.
func listPaths(paths []string, total int) string {
	const shown = 3
	if len(paths) > shown {
		paths = paths[:shown]
	}
	s := strings.Join(paths, ", ")
	if rest := total - len(paths); rest > 0 {
		s += fmt.Sprintf(" et %d autre%s", rest, plural(rest))
	}
	return s
}

func plural(n int) string {
	if n > 1 {
		return "s"
	}
	return ""
}
