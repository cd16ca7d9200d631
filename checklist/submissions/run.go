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
// a small fixed record (organisateurs.md, "Scale": 100,000 files under
// 64 MiB), with the path, fingerprint and problems. What few files have
// (others, duplicates) is kept beside, in Run.more.
type record struct {
	path string
	// fps are the stated fingerprint then the others its problems'
	// messages quote, separated by spaces (compact).
	fps string
	// who is the learner's Moodle name and id ("Dupont Alice_123456")
	// when moodle is set, else her name.
	who      string
	problems []checklist.Problem
	date     int32 // AAAAMMJJ; 0 when none was read
	fpLine   int32
	// entryLen, for an archive entry, is the length of its name at the
	// end of path (archive + "!/" + entry).
	entryLen int32
	// compact has bit k set when problem k's message is a template.
	compact uint8
	// dup is 1 + the index in Run.dups of the files it shares its
	// fingerprint with, 0 when none: a key shared by 100,000 files keeps
	// one list for all past the first maxDuplicateOf, not one each.
	dup                                  int32
	statut                               uint8 // 1 + the index of Status in statuts, 0 none
	valid, signed, moodle, learnerFolder bool
}

func (r *record) fp() string { fp, _, _ := strings.Cut(r.fps, " "); return fp }

// learner is the learner's name as reports show it.
func (r *record) learner() string {
	if !r.moodle {
		return r.who
	}
	return r.who[:strings.LastIndexByte(r.who, '_')]
}

// learnerKey is who the file counts as for duplicate fingerprints: a
// Moodle learner, else as groupOf says from its folder (an archive's,
// cleaned) and name. Built when needed, not kept: 100,000 records would
// hold 100,000 more strings.
func (r *record) learnerKey() string {
	if r.moodle {
		return "m:" + r.who
	}
	if n := int(r.entryLen); n > 0 {
		dir, base := splitEntry(r.path[len(r.path)-n:])
		return groupOf(r.path[:len(r.path)-n]+cleanEntryDir(dir), base, r.learnerFolder)
	}
	return groupOf(filepath.Dir(r.path), filepath.Base(r.path), r.learnerFolder)
}

var statuts = []string{"demande", "verifie"}

type recordMore struct {
	others []string
}

// dupGroup is what the files of one fingerprint say of the others.
type dupGroup struct {
	of    []string
	count int
}

// recChunk is how many records one chunk holds: records are kept in
// chunks, so that growing the list never copies it.
const recChunk = 4096

// Run is the outcome of a run, read by the writers one file at a time
// (checklist.Results). A record's slot is the order the walk met its
// file; order is the slots in the order of the report.
type Run struct {
	chunks [][]record
	order  []int32
	more   map[int32]*recordMore
	dups   []dupGroup
}

func (r *Run) slot(k int32) *record { return &r.chunks[k/recChunk][k%recChunk] }
func (r *Run) at(i int) *record     { return r.slot(r.order[i]) }

// add makes a slot for the next record.
func (r *Run) add() int32 {
	if len(r.chunks) == 0 || len(r.chunks[len(r.chunks)-1]) == recChunk {
		r.chunks = append(r.chunks, make([]record, 0, recChunk))
	}
	last := &r.chunks[len(r.chunks)-1]
	*last = append(*last, record{})
	r.order = append(r.order, int32(len(r.order)))
	return int32(len(r.order) - 1)
}

func (r *Run) extra(k int32) *recordMore {
	if r.more[k] == nil {
		r.more[k] = &recordMore{}
	}
	return r.more[k]
}

// keep keeps the results for which ok is true.
func (r *Run) keep(ok func(i int, k int32) bool) {
	n := 0
	for i, k := range r.order {
		if ok(i, k) {
			r.order[n] = k
			n++
		} else {
			*r.slot(k) = record{} // its strings go
		}
	}
	r.order = r.order[:n:n]
}

// Len is the number of results.
func (r *Run) Len() int { return len(r.order) }

// At rebuilds result i.
func (r *Run) At(i int) checklist.FileResult {
	rec := r.at(i)
	f := checklist.FileResult{Path: rec.path, Apprenant: rec.learner(), Fingerprint: rec.fp(), FingerprintLine: int(rec.fpLine),
		Problems: rec.problems, Valid: rec.valid, Signed: rec.signed}
	if rec.compact != 0 {
		f.Problems = slices.Clone(rec.problems)
		fps := strings.Split(rec.fps, " ")
		for k := range f.Problems {
			if rec.compact&(1<<k) != 0 {
				f.Problems[k].Message = expand(f.Problems[k].Message, fps)
			}
		}
	}
	if rec.date != 0 {
		f.Date = unpackDate(rec.date)
	}
	if rec.moodle {
		f.Participant = rec.who[strings.LastIndexByte(rec.who, '_')+1:]
	}
	if rec.statut > 0 {
		f.Statut = statuts[rec.statut-1]
	}
	if n := int(rec.entryLen); n > 0 {
		f.Archive, f.Entry = rec.path[:len(rec.path)-n-len("!/")], rec.path[len(rec.path)-n:]
	}
	if rec.dup > 0 {
		g := r.dups[rec.dup-1]
		f.DuplicateOf, f.DuplicateCount = g.of, g.count
	}
	if m := r.more[r.order[i]]; m != nil {
		f.Others = m.others
	}
	return f
}

// Strict makes a file with any problem invalid: --strict counts warnings.
func (r *Run) Strict() {
	for i := range r.Len() {
		if rec := r.at(i); len(rec.problems) > 0 {
			rec.valid = false
		}
	}
}

// Invalid reports whether a result is invalid.
func (r *Run) Invalid() bool {
	for i := range r.Len() {
		if !r.at(i).valid {
			return true
		}
	}
	return false
}

// Validate is Read as a slice of results.
func Validate(args []string, opts Options) []checklist.FileResult {
	run := Read(args, opts)
	out := make([]checklist.FileResult, run.Len())
	for i := range out {
		out[i] = run.At(i)
	}
	return out
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
		tmpl templates
		run  = &Run{more: map[int32]*recordMore{}}
		mods []int64  // by slot: the files' modification times
		ids  []fileID // by slot, when several arguments may name one file
		wg   sync.WaitGroup
	)
	items := make(chan item, 2*workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range items {
				rec := validateItem(it, opts.Rules, &tmpl)
				mu.Lock()
				*run.slot(it.slot) = rec
				mu.Unlock()
			}
		}()
	}
	w := &walker{keyName: opts.Rules.KeyName, seen: map[fileID]bool{}, emit: func(it item) {
		mu.Lock()
		it.slot = run.add()
		mods = append(mods, it.mod)
		if len(args) > 1 {
			ids = append(ids, it.id)
		}
		mu.Unlock()
		items <- it
	}}
	for _, a := range args {
		w.arg(a)
	}
	close(items)
	wg.Wait()
	run.finish(mods, ids, w.missing)
	return run
}

// finish puts the records in their final order and marks what needs
// all of them: a file read twice, a learner's several files, duplicate
// fingerprints, learners with no acces.md.
func (r *Run) finish(mods []int64, ids []fileID, missing []*receipt) {
	// Learners met with no acces.md at one place, and none elsewhere
	// either, get a result of their own; one learner's places make one.
	first := map[string]*receipt{}
	var order []*receipt
	for _, m := range missing {
		if f := first[m.moodle]; f != nil {
			f.merge(m)
			continue
		}
		first[m.moodle] = m
		order = append(order, m)
	}
	for i := range r.Len() {
		if rec := r.at(i); rec.moodle {
			delete(first, rec.who)
		}
	}
	for _, m := range order {
		if first[m.moodle] == m {
			*r.slot(r.add()) = record{path: m.path, who: m.moodle, moodle: true, entryLen: int32(len(m.entry)),
				problems: []checklist.Problem{{Code: "no-acces-md", Severity: checklist.SevError, Message: m.missingMessage()}}}
		}
	}
	// Sorted by path, then by the order the walk met them (two entries
	// of one name in an archive): the same whatever the workers.
	slices.SortFunc(r.order, func(a, b int32) int {
		if c := strings.Compare(r.slot(a).path, r.slot(b).path); c != 0 {
			return c
		}
		return int(a - b)
	})
	// One file read twice (two spellings of one tree, a file also named
	// on the command line) is one result: the first path in order.
	seen := map[fileID]bool{}
	r.keep(func(_ int, k int32) bool {
		if int(k) >= len(ids) || ids[k] == (fileID{}) {
			return true
		}
		dup := seen[ids[k]]
		seen[ids[k]] = true
		return !dup
	})
	r.oneRowPerLearner(mods)
	r.markDuplicates()
}

// oneRowPerLearner keeps, of a Moodle learner's files, the latest and
// lists the others in it: one learner, one verdict. The files are
// sorted by learner, not put in a map: 100,000 learners cost an index
// each.
func (r *Run) oneRowPerLearner(mods []int64) {
	var byLearner []int32 // positions in r.order
	for i := range r.Len() {
		if r.at(i).moodle {
			byLearner = append(byLearner, int32(i))
		}
	}
	slices.SortStableFunc(byLearner, func(a, b int32) int { return strings.Compare(r.at(int(a)).who, r.at(int(b)).who) })
	mod := func(i int32) int64 {
		if k := r.order[i]; int(k) < len(mods) {
			return mods[k]
		}
		return 0
	}
	// later: modified later, else the later path ("acces.md" after
	// "acces (1).md", dl2.zip after dl1.zip), else met later in one
	// archive; never the order of the arguments.
	later := func(a, b int32) bool {
		if mod(a) != mod(b) {
			return mod(a) > mod(b)
		}
		return a > b // the order of the report: path, then the walk's
	}
	drop := map[int32]bool{} // positions of files listed in another
	sameLearner := func(a, b int32) bool { return r.at(int(a)).who == r.at(int(b)).who }
	for run := range runs(byLearner, sameLearner) {
		best := run[0]
		for _, i := range run[1:] {
			if later(i, best) {
				best = i
			}
		}
		kept := r.extra(r.order[best])
		for _, i := range run {
			if i != best {
				kept.others = append(kept.others, r.at(int(i)).path)
				drop[i] = true
			}
		}
	}
	r.keep(func(i int, _ int32) bool { return !drop[int32(i)] })
}

// validateItem validates one item read by the walk.
func validateItem(it item, rules acces.Rules, tmpl *templates) record {
	rec := record{path: it.path, who: it.learner, learnerFolder: it.learnerFolder, entryLen: int32(len(it.entry))}
	if it.moodle != "" {
		rec.who, rec.moodle = it.moodle, true
	}
	if it.err != nil {
		rec.problems = []checklist.Problem{readProblem(it.err, it.place)}
		return rec
	}
	rules.Beside = it.pub
	r := acces.Validate(it.data, rules)
	rec.problems, rec.valid, rec.fpLine = r.Problems, r.Valid(), int32(r.FingerprintLine)
	if len(rec.problems) == 0 {
		rec.problems = nil
	}
	fps := []string{r.Fingerprint}
	for k := range min(len(rec.problems), 8) {
		if t, ok := tmpl.compact(rec.problems[k].Message, &fps); ok {
			rec.problems[k].Message = t
			rec.compact |= 1 << k
		}
	}
	rec.fps = strings.Join(fps, " ")
	rec.signed = r.SignedBy != ""
	rec.date = packDate(r.Date)
	rec.statut = uint8(slices.Index(statuts, r.Status) + 1)
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

// templates are the messages that quote fingerprints, kept once for the
// run with a mark where each fingerprint was: 100,000 fingerprint-mismatch
// messages, when a course's keys do not match, are one sentence around
// two fingerprints each, and only the fingerprints are kept per file.
type templates struct {
	mu sync.Mutex
	m  map[string]string
}

// mark stands for the fingerprint fps[n] in a template, n one digit.
const mark = '\x00'

// compact is msg as a template, its fingerprints added to fps (fps[0],
// the stated fingerprint, is not added twice); ok is false when msg is
// kept as it is.
func (t *templates) compact(msg string, fps *[]string) (string, bool) {
	if !strings.Contains(msg, "SHA256:") || strings.IndexByte(msg, mark) >= 0 {
		return msg, false
	}
	var b strings.Builder
	for rest := msg; ; {
		i := strings.Index(rest, "SHA256:")
		if i < 0 {
			b.WriteString(rest)
			break
		}
		j := i + len("SHA256:")
		for j < len(rest) && (isAlnum(rest[j]) || rest[j] == '+' || rest[j] == '/') {
			j++
		}
		n := slices.Index(*fps, rest[i:j])
		if n < 0 {
			n = len(*fps)
			*fps = append(*fps, rest[i:j])
		}
		if n > 9 {
			return msg, false
		}
		b.WriteString(rest[:i])
		b.WriteByte(mark)
		b.WriteByte('0' + byte(n))
		rest = rest[j:]
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]string{}
	}
	s := b.String()
	if old, ok := t.m[s]; ok {
		return old, true
	}
	t.m[s] = s
	return s, true
}

// expand puts the fingerprints back in a template.
func expand(tmpl string, fps []string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, mark)
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		b.WriteString(fps[tmpl[i+1]-'0'])
		tmpl = tmpl[i+2:]
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
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

func unpackDate(n int32) string {
	return fmt.Sprintf("%04d-%02d-%02d", n/10000, n/100%100, n%100)
}

// markDuplicates finds the fingerprints stated by two learners or more.
// Files of one learner (a name and its copies in a learner's folder, or
// one Moodle name and id) count once: a learner may hand in twice, two
// learners may not share a key.
func (r *Run) markDuplicates() {
	// The files that state a fingerprint, sorted by it: each run of one
	// fingerprint is then a group.
	var byFP []int32 // positions in r.order
	for i := range r.Len() {
		if r.at(i).fp() != "" {
			byFP = append(byFP, int32(i))
		}
	}
	fp := func(i int32) string { return r.at(int(i)).fp() }
	slices.SortStableFunc(byFP, func(a, b int32) int { return strings.Compare(fp(a), fp(b)) })
	for run := range runs(byFP, func(a, b int32) bool { return fp(a) == fp(b) }) {
		first := r.at(int(run[0])).learnerKey()
		for _, i := range run[1:] {
			if r.at(int(i)).learnerKey() != first {
				r.markRun(run)
				break
			}
		}
	}
}

// markRun marks every file of run, which share a fingerprint, as a
// duplicate-fingerprint. Every file past the first maxDuplicateOf names
// the same others, the run's first maxDuplicateOf, in one message and,
// when it has no other problem, one problem list: a key shared by
// 100,000 files costs a record each (organisateurs.md, Scale).
func (r *Run) markRun(run []int32) {
	var tail []string
	var tailMessage string
	tailProblems := map[int32][]checklist.Problem{} // by line
	for k, i := range run {
		rec := r.at(int(i))
		others, message, group := tail, tailMessage, int32(len(r.dups))
		if others == nil {
			for _, j := range run {
				if j != i && len(others) < maxDuplicateOf {
					others = append(others, r.at(int(j)).path)
				}
			}
			message = fmt.Sprintf("la même empreinte figure aussi dans %s : deux personnes ne partagent pas une clé", listPaths(others, len(run)-1))
			if k >= maxDuplicateOf {
				tail, tailMessage = others, message
			}
			r.dups = append(r.dups, dupGroup{of: others, count: len(run) - 1})
			group = int32(len(r.dups))
		}
		rec.dup = group
		p := checklist.Problem{Code: "duplicate-fingerprint", Severity: checklist.SevError, Line: int(rec.fpLine), Message: message}
		if k >= maxDuplicateOf && len(rec.problems) == 0 {
			// Capped at its length, an append to the shared list
			// copies: no file changes another.
			if tailProblems[rec.fpLine] == nil {
				tailProblems[rec.fpLine] = []checklist.Problem{p}
			}
			rec.problems = tailProblems[rec.fpLine][:1:1]
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
