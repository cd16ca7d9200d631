package submissions

import (
	"errors"
	"fmt"
	"iter"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/safefile"
)

// Options are what a run compares against and how wide it reads.
type Options struct {
	Rules   acces.Rules
	Workers int // files validated at once; 0 = one per CPU
}

// maxDuplicateOf bounds the paths one result lists as sharing its key:
// a key shared by thousands of files would otherwise cost memory in the
// square of their number. duplicate_count says how many there are, and
// the summary's groups list every path.
const maxDuplicateOf = 10

// record is what a run keeps of one file until the report is written:
// a small fixed record (organisateurs.md, "Scale"), with the path and
// fingerprint strings. Problems are kept only for files that have some.
type record struct {
	path, learner, fp string
	moodle            string // the learner's Moodle name and id
	problems          []checklist.Problem
	more              *recordMore // archive entries, shared keys, other files
	mod               int64
	seq               int32 // the order the walk met it: ties in path
	date              int32 // AAAAMMJJ; 0 when none was read
	fpLine            int32
	// entryLen, for an archive entry, is the length of its name at the
	// end of path (archive + "!/" + entry): the archive and the entry
	// are read back from path.
	entryLen      int32
	statut        uint8 // 0, statutDemande, statutVerifie
	valid, signed bool
	learnerFolder bool // as item's
}

type recordMore struct {
	duplicateOf    []string
	duplicateCount int
	others         []string
}

func (r *record) extra() *recordMore {
	if r.more == nil {
		r.more = &recordMore{}
	}
	return r.more
}

// learnerKey is who the file counts as for duplicate fingerprints: a
// Moodle learner, else as groupOf says from its folder (an archive's,
// cleaned) and name. Built from the path when needed, not kept: 100,000
// records would hold 100,000 more strings.
func (r *record) learnerKey() string {
	if r.moodle != "" {
		return "m:" + r.moodle
	}
	if n := int(r.entryLen); n > 0 {
		dir, base := splitEntry(r.path[len(r.path)-n:])
		return groupOf(r.path[:len(r.path)-n]+cleanEntryDir(dir), base, r.learnerFolder)
	}
	return groupOf(filepath.Dir(r.path), filepath.Base(r.path), r.learnerFolder)
}

const (
	statutDemande = 1 + iota
	statutVerifie
)

// recChunk is how many records one chunk holds: records are kept in
// chunks, so that growing the list never copies it (100,000 files under
// 64 MiB, organisateurs.md).
const recChunk = 4096

// recList is the records of a run; order is their arrival indexes in
// the order of the report.
type recList struct {
	chunks [][]record
	order  []int32
}

func (l *recList) len() int              { return len(l.order) }
func (l *recList) at(i int) *record      { return l.arrived(int(l.order[i])) }
func (l *recList) arrived(k int) *record { return &l.chunks[k/recChunk][k%recChunk] }

func (l *recList) add(rec record) {
	if len(l.chunks) == 0 || len(l.chunks[len(l.chunks)-1]) == recChunk {
		l.chunks = append(l.chunks, make([]record, 0, recChunk))
	}
	l.chunks[len(l.chunks)-1] = append(l.chunks[len(l.chunks)-1], rec)
	l.order = append(l.order, int32(len(l.order)))
}

// keep keeps the records of order for which ok is true.
func (l *recList) keep(ok func(k int32) bool) {
	n := 0
	for _, k := range l.order {
		if ok(k) {
			l.order[n] = k
			n++
		} else {
			*l.arrived(int(k)) = record{} // its strings go
		}
	}
	l.order = l.order[:n:n]
}

// Run is the outcome of a run, read by the writers one file at a time
// (checklist.Results).
type Run struct {
	recs recList
}

// Len is the number of results.
func (r *Run) Len() int { return r.recs.len() }

// At rebuilds result i.
func (r *Run) At(i int) checklist.FileResult {
	rec := r.recs.at(i)
	f := checklist.FileResult{Path: rec.path, Apprenant: rec.learner, Fingerprint: rec.fp, FingerprintLine: int(rec.fpLine),
		Problems: rec.problems, Valid: rec.valid, Signed: rec.signed}
	if rec.date != 0 {
		f.Date = unpackDate(rec.date)
	}
	if i := strings.LastIndexByte(rec.moodle, '_'); i >= 0 {
		f.Participant = rec.moodle[i+1:]
	}
	switch rec.statut {
	case statutDemande:
		f.Statut = "demande"
	case statutVerifie:
		f.Statut = "verifie"
	}
	if n := int(rec.entryLen); n > 0 {
		f.Archive, f.Entry = rec.path[:len(rec.path)-n-len("!/")], rec.path[len(rec.path)-n:]
	}
	if m := rec.more; m != nil {
		f.DuplicateOf, f.DuplicateCount = m.duplicateOf, m.duplicateCount
		f.Others = m.others
	}
	return f
}

// Strict makes a file with any problem invalid: --strict counts warnings.
func (r *Run) Strict() {
	for i := range r.recs.len() {
		if rec := r.recs.at(i); len(rec.problems) > 0 {
			rec.valid = false
		}
	}
}

// Invalid reports whether a result is invalid.
func (r *Run) Invalid() bool {
	for i := range r.recs.len() {
		if !r.recs.at(i).valid {
			return true
		}
	}
	return false
}

// Slice is every result, for callers that want them all at once.
func (r *Run) Slice() []checklist.FileResult {
	out := make([]checklist.FileResult, r.Len())
	for i := range out {
		out[i] = r.At(i)
	}
	return out
}

// Validate is Read as a slice of results.
func Validate(args []string, opts Options) []checklist.FileResult {
	return Read(args, opts).Slice()
}

// Read reads every submission of the arguments (files, folders, .zip
// archives) and validates them. The walk reads the files one after the
// other; workers validate them. Results are sorted by path whatever the
// parallelism; a place that could not be read is a result of its own
// (unreadable), and the rest of the run goes on. Each Moodle learner
// gets one result: from her latest file, the others listed, or
// no-acces-md when she handed in none. The arguments must exist: a
// mistyped name is the caller's usage error, found before this.
func Read(args []string, opts Options) *Run {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		mu   sync.Mutex
		recs recList // in arrival order until sorted
		ids  []fileID
		wg   sync.WaitGroup
	)
	// Within one argument a file is met once (folders are listed once);
	// only several arguments can name one file twice.
	keepIDs := len(args) > 1
	items := make(chan item, 2*workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range items {
				rec := validateItem(it, opts.Rules)
				mu.Lock()
				recs.add(rec)
				if keepIDs {
					ids = append(ids, it.id)
				}
				mu.Unlock()
			}
		}()
	}
	// seq is the order the walk met each item, which breaks ties between
	// equal paths (two entries of one name in an archive).
	var next int32
	w := &walker{keyName: opts.Rules.KeyName, seen: map[fileID]bool{}, emit: func(it item) {
		it.seq = next
		next++
		items <- it
	}}
	for _, a := range args {
		w.arg(a)
	}
	close(items)
	wg.Wait()
	finish(&recs, ids, w.missing)
	return &Run{recs: recs}
}

// finish puts the records in their final order and marks what needs
// all of them: a file read twice, a learner's several files, duplicate
// fingerprints, learners with no acces.md.
func finish(recs *recList, ids []fileID, missing []*receipt) {
	// Learners met with no acces.md at one place, and none elsewhere
	// either, get a result of their own; one learner's places make one.
	first := map[string]*receipt{}
	var order []*receipt
	for _, r := range missing {
		if f := first[r.moodle]; f != nil {
			f.merge(r)
			continue
		}
		first[r.moodle] = r
		order = append(order, r)
	}
	for k := range recs.len() {
		delete(first, recs.arrived(k).moodle)
	}
	for _, r := range order {
		if first[r.moodle] != r {
			continue
		}
		rec := record{path: r.path, learner: r.learner, moodle: r.moodle, seq: int32(recs.len()),
			problems: []checklist.Problem{{Code: "no-acces-md", Severity: checklist.SevError, Message: r.missingMessage()}}}
		rec.entryLen = int32(len(r.entry))
		recs.add(rec)
	}
	// Sorted by path, then by the order the walk met them: a total
	// order, the same whatever the workers.
	slices.SortFunc(recs.order, func(a, b int32) int {
		ra, rb := recs.arrived(int(a)), recs.arrived(int(b))
		if c := strings.Compare(ra.path, rb.path); c != 0 {
			return c
		}
		return int(ra.seq) - int(rb.seq)
	})
	// One file read twice (two spellings of one tree, a file also named
	// on the command line) is one result: the first path in order.
	if ids != nil {
		seen := map[fileID]bool{}
		recs.keep(func(k int32) bool {
			if int(k) >= len(ids) || ids[k] == (fileID{}) {
				return true
			}
			if seen[ids[k]] {
				return false
			}
			seen[ids[k]] = true
			return true
		})
	}
	oneRowPerLearner(recs)
	markDuplicates(*recs)
}

// oneRowPerLearner keeps, of a Moodle learner's files, the latest (by
// modification time, then path) and lists the others in it: one
// learner, one verdict. The files are sorted by learner, not put in a
// map: 100,000 learners cost an index each.
func oneRowPerLearner(recs *recList) {
	var byLearner []int32 // positions in recs.order
	for i := range recs.len() {
		if recs.at(i).moodle != "" {
			byLearner = append(byLearner, int32(i))
		}
	}
	slices.SortFunc(byLearner, func(a, b int32) int {
		if c := strings.Compare(recs.at(int(a)).moodle, recs.at(int(b)).moodle); c != 0 {
			return c
		}
		return int(a) - int(b) // path order
	})
	drop := map[int32]bool{} // positions of files listed in another
	sameLearner := func(a, b int32) bool { return recs.at(int(a)).moodle == recs.at(int(b)).moodle }
	for run := range runs(byLearner, sameLearner) {
		best := run[0]
		for _, i := range run[1:] {
			if later(recs.at(int(i)), recs.at(int(best))) {
				best = i
			}
		}
		kept := recs.at(int(best))
		for _, i := range run {
			if i != best {
				kept.extra().others = append(kept.more.others, recs.at(int(i)).path)
				drop[i] = true
			}
		}
	}
	if len(drop) > 0 {
		n := 0
		for i, k := range recs.order {
			if drop[int32(i)] {
				*recs.arrived(int(k)) = record{}
				continue
			}
			recs.order[n] = k
			n++
		}
		recs.order = recs.order[:n:n]
	}
}

// later reports whether a is a later hand-in than b: modified later,
// else the later path ("acces.md" after "acces (1).md", dl2.zip after
// dl1.zip), else met later in one archive; never the order of the
// arguments.
func later(a, b *record) bool {
	if a.mod != b.mod {
		return a.mod > b.mod
	}
	if a.path != b.path {
		return a.path > b.path
	}
	return a.seq > b.seq
}

// validateItem validates one item read by the walk.
func validateItem(it item, rules acces.Rules) record {
	rec := record{path: it.path, learner: it.learner, moodle: it.moodle, learnerFolder: it.learnerFolder, mod: it.mod, seq: it.seq,
		entryLen: int32(len(it.entry))}
	if it.err != nil {
		rec.problems = []checklist.Problem{readProblem(it.err, it.place)}
		return rec
	}
	rules.Beside = it.pub
	r := acces.Validate(it.data, rules)
	rec.problems, rec.fp, rec.valid, rec.fpLine = r.Problems, r.Fingerprint, r.Valid(), int32(r.FingerprintLine)
	rec.signed = r.SignedBy != ""
	if len(rec.problems) == 0 {
		rec.problems = nil
	}
	rec.date = packDate(r.Date)
	switch r.Status {
	case "demande":
		rec.statut = statutDemande
	case "verifie":
		rec.statut = statutVerifie
	}
	return rec
}

// readProblem is the problem of a file or place that could not be read.
func readProblem(err error, place bool) checklist.Problem {
	if tl := new(archiveTooLargeError); errors.As(err, &tl) {
		return checklist.Problem{Code: "too-large", Severity: checklist.SevError, Message: tl.msg}
	}
	if errors.Is(err, errTooLarge) || errors.Is(err, safefile.ErrTooLarge) {
		return checklist.Problem{Code: "too-large", Severity: checklist.SevError, Message: "fichier trop grand (plus de 1 Mio) : un acces.md tient sur une page ; il n'a pas été lu"}
	}
	what := "fichier illisible : "
	if place {
		what = "illisible : "
	}
	return checklist.Problem{Code: "unreadable", Severity: checklist.SevError, Message: what + describe(err)}
}

// packDate is AAAA-MM-JJ as the number AAAAMMJJ, 0 for anything else
// (acces.Result.Date is empty or a real day in that form).
func packDate(s string) int32 {
	y, m, d, ok := dates.ISOWord(s)
	if !ok || len(s) != len(dates.ISO) {
		return 0
	}
	return int32(y*10000 + m*100 + d)
}

// unpackDate writes AAAAMMJJ back as AAAA-MM-JJ.
func unpackDate(n int32) string {
	return fmt.Sprintf("%04d-%02d-%02d", n/10000, n/100%100, n%100)
}

// markDuplicates finds the fingerprints stated by two learners or more.
// Files of one learner (a name and its copies in a learner's folder, or
// one Moodle name and id) count once: a learner may hand in twice, two
// learners may not share a key.
func markDuplicates(recs recList) {
	// The files that state a fingerprint, sorted by it: each run of one
	// fingerprint is then a group.
	var byFP []int32
	for i := range recs.len() {
		if recs.at(i).fp != "" {
			byFP = append(byFP, int32(i))
		}
	}
	slices.SortStableFunc(byFP, func(a, b int32) int { return strings.Compare(recs.at(int(a)).fp, recs.at(int(b)).fp) })
	sameKey := func(a, b int32) bool { return recs.at(int(a)).fp == recs.at(int(b)).fp }
	for run := range runs(byFP, sameKey) {
		learners := map[string]bool{}
		for _, i := range run {
			learners[recs.at(int(i)).learnerKey()] = true
		}
		if len(learners) < 2 {
			continue
		}
		markRun(recs, run)
	}
}

// markRun marks every file of run, which share a fingerprint, as a
// duplicate-fingerprint. Every file past the first maxDuplicateOf names
// the same others, the run's first maxDuplicateOf, in the same message:
// they share one list and one message, so that a key shared by 100,000
// files costs a record each (organisateurs.md, Scale).
func markRun(recs recList, run []int32) {
	othersOf := func(i int32) []string {
		var others []string
		for _, j := range run {
			if j != i && len(others) < maxDuplicateOf {
				others = append(others, recs.at(int(j)).path)
			}
		}
		return others
	}
	var tailOthers []string
	var tailMessage string
	tailProblems := map[int32][]checklist.Problem{} // by line, for files with no other problem
	for k, i := range run {
		rec := recs.at(int(i))
		rec.fp = recs.at(int(run[0])).fp // one string for the run's fingerprint
		others, message := tailOthers, tailMessage
		if k < maxDuplicateOf || others == nil {
			others = othersOf(i)
			message = fmt.Sprintf("la même empreinte figure aussi dans %s : deux personnes ne partagent pas une clé", listPaths(others, len(run)-1))
			if k >= maxDuplicateOf {
				tailOthers, tailMessage = others, message
			}
		}
		rec.extra().duplicateOf, rec.more.duplicateCount = others, len(run)-1
		p := checklist.Problem{Code: "duplicate-fingerprint", Severity: checklist.SevError, Line: int(rec.fpLine), Message: message}
		if k >= maxDuplicateOf && len(rec.problems) == 0 {
			// One list for every such file of the tail: capped at its
			// length, an append to it copies, so no file changes another.
			ps, ok := tailProblems[rec.fpLine]
			if !ok {
				ps = []checklist.Problem{p}
				tailProblems[rec.fpLine] = ps
			}
			rec.problems = ps[:1:1]
		} else {
			rec.problems = append(rec.problems, p)
		}
		rec.valid = false
	}
}

// runs yields the runs of two or more consecutive elements of sorted
// that are the same.
func runs(sorted []int32, same func(a, b int32) bool) iter.Seq[[]int32] {
	return func(yield func([]int32) bool) {
		for start := 0; start < len(sorted); {
			end := start + 1
			for end < len(sorted) && same(sorted[start], sorted[end]) {
				end++
			}
			if end-start > 1 && !yield(sorted[start:end]) {
				return
			}
			start = end
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
