package submissions

import (
	"cmp"
	"errors"
	"fmt"
	"hash/maphash"
	"runtime"
	"slices"
	"sort"
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
	Workers int // files read at once; 0 = one per CPU
	// Large, if set, is called once when the walk has met LargeRun
	// files: the caller may then trade memory headroom for less
	// garbage collection (pret valider does), a choice only a large run
	// needs and a library must not make for its caller.
	Large func()
}

// LargeRun is the number of files after which Options.Large is called.
const LargeRun = 4096

// maxDuplicateOf bounds the paths one result lists as sharing its key:
// a key shared by thousands of files would otherwise cost memory in the
// square of their number. duplicate_count says how many there are, and
// the summary's groups list every path.
const maxDuplicateOf = 10

// record is what a run keeps of one file until the report is written:
// a small fixed record (organisateurs.md, "Scale"), about a third of a
// FileResult, plus the path and fingerprint strings. Problems are kept
// only for files that have some.
type record struct {
	path, learner, fp string
	problems          []checklist.Problem
	more              *recordMore // archive entries and shared keys only
	date              int32       // AAAAMMJJ; 0 when none was read
	fpLine            int32
	statut            uint8 // 0, statutDemande, statutVerifie
	valid             bool
	// entryLen, for an archive entry, is the length of its name at the
	// end of path (archive + "!/" + entry): the archive and the entry
	// are read back from path, with no record of their own.
	entryLen int32
}

type recordMore struct {
	archive, entry string
	duplicateOf    []string
	duplicateCount int
}

const (
	statutDemande = 1 + iota
	statutVerifie
)

// Run is the outcome of a run, read by the writers one file at a time
// (checklist.Results).
type Run struct {
	recs recList
	// dates holds each distinct date once, as At writes it: a report
	// read twice over 100,000 files would otherwise make 200,000 strings
	// of a handful of days. Built by Read, only read afterwards.
	dates map[int32]string
}

// recChunk is how many records one chunk holds. Records are kept in
// chunks while they come, so that growing the list never copies it, and
// stay there, read through the order of their paths: one array of them
// all would hold every record twice while it was filled
// (organisateurs.md, Scale: 100,000 files under 64 MiB).
const recChunk = 4096

// recList is the records of a run in the order of their paths.
type recList struct {
	chunks [][]record
	order  []int32 // arrival index of the i-th record in path order
}

func (l *recList) len() int { return len(l.order) }

func (l *recList) at(i int) *record { return l.arrived(int(l.order[i])) }

// arrived is the k-th record to arrive.
func (l *recList) arrived(k int) *record { return &l.chunks[k/recChunk][k%recChunk] }

// add appends rec in arrival order.
func (l *recList) add(rec record) {
	if len(l.chunks) == 0 || len(l.chunks[len(l.chunks)-1]) == recChunk {
		l.chunks = append(l.chunks, make([]record, 0, recChunk))
	}
	l.chunks[len(l.chunks)-1] = append(l.chunks[len(l.chunks)-1], rec)
	l.order = append(l.order, int32(len(l.order)))
}

// listOf is a recList of recs in their order.
func listOf(recs []record) recList {
	var l recList
	for _, r := range recs {
		l.add(r)
	}
	return l
}

// Len is the number of files.
func (r *Run) Len() int { return r.recs.len() }

// At rebuilds the result of file i.
func (r *Run) At(i int) checklist.FileResult {
	rec := r.recs.at(i)
	f := checklist.FileResult{Path: rec.path, Apprenant: rec.learner, Fingerprint: rec.fp, FingerprintLine: int(rec.fpLine),
		Problems: rec.problems, Valid: rec.valid}
	if rec.date != 0 {
		if f.Date = r.dates[rec.date]; f.Date == "" {
			f.Date = unpackDate(rec.date)
		}
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
		if m.archive != "" {
			f.Archive, f.Entry = m.archive, m.entry
		}
		f.DuplicateOf, f.DuplicateCount = m.duplicateOf, m.duplicateCount
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

// Invalid reports whether a file is invalid.
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

// sourceBatch is how many sources a worker takes at once: enough that
// handing them over is rare, few enough that two workers share a folder
// of a hundred files and an archive's entries are not all held at once.
const sourceBatch = 32

// Read reads every submission of the arguments (files, folders, .zip
// archives) and validates them. Results are sorted by path whatever the
// parallelism; a place that could not be read is a result of its own
// (unreadable), and the rest of the run goes on. The arguments must
// exist: a mistyped name is the caller's usage error, found before this.
func Read(args []string, opts Options) *Run {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		mu   sync.Mutex
		recs recList // in arrival order until sorted
		// groups holds a hash of each file's learner group, not the
		// string (eight bytes, not eighty): two learners are told apart
		// unless their groups collide in 64 bits under a seed drawn for
		// this run, which no file name can aim at.
		groups []uint64
		seed   = maphash.MakeSeed()
		seqs   []int32  // the order the walk met each source: ties in path
		ids    []fileID // only when several arguments could name one file twice
		wg     sync.WaitGroup
	)
	// Within one argument a file is met once (folders are listed once);
	// only several arguments can name one file twice.
	keepIDs := len(args) > 1
	// Sources go to the workers by the batch: one hand-over per file
	// costs the scheduler more than a page's validation (a wake-up, a
	// steal, a sleep), and one lock per file as much again.
	jobs := make(chan []source, 2*workers)
	spare := make(chan []source, 3*workers+1) // batches read, for the walk to fill again
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, 8192)
			var h maphash.Hash
			h.SetSeed(seed)
			var key []byte
			var done []record
			var doneGroups []uint64
			var doneIDs []fileID
			var res acces.Result
			for batch := range jobs {
				done, doneIDs, doneGroups = done[:0], doneIDs[:0], doneGroups[:0]
				for _, s := range batch {
					var rec record
					var id fileID
					rec, id, _, buf = validateSource(s, opts.Rules, buf, &res)
					if s.done != nil {
						s.done()
					}
					done = append(done, rec)
					doneIDs = append(doneIDs, id)
					var g uint64
					g, key = s.group.hash(&h, key)
					doneGroups = append(doneGroups, g)
				}
				mu.Lock()
				for k, s := range batch {
					recs.add(done[k])
					groups = append(groups, doneGroups[k])
					seqs = append(seqs, s.seq)
					if keepIDs {
						ids = append(ids, doneIDs[k])
					}
				}
				mu.Unlock()
				clear(done) // the strings go with the records, not with this buffer
				clear(batch)
				select {
				case spare <- batch[:0]:
				default:
				}
				// The walk is one goroutine more than there are
				// processors: woken by a batch taken, it waits for a
				// worker to stop, and a worker that never stops drains
				// the batches ahead and then idles while the walk
				// fills one. Yielding after each batch lets it run
				// while there is still work queued (go tool trace: the
				// workers' wait for a batch went from about 60 ms per
				// 100,000 files to none).
				runtime.Gosched()
			}
		}()
	}
	// The walk is sequential and sorted, so its order is the same on
	// every run; it breaks ties between equal paths (two entries of one
	// name in an archive), which the workers finish in any order.
	var next int32
	var batch []source
	flush := func() {
		if len(batch) > 0 {
			jobs <- batch
			select {
			case batch = <-spare:
			default:
				batch = make([]source, 0, sourceBatch)
			}
		}
	}
	w := &walker{keyName: opts.Rules.KeyName, flush: flush,
		dirSlots: make(chan struct{}, openDirsAllowed()), emit: func(s source) {
			s.seq = next
			next++
			if next == LargeRun && opts.Large != nil {
				opts.Large()
			}
			if batch == nil {
				batch = make([]source, 0, sourceBatch)
			}
			batch = append(batch, s)
			if len(batch) == sourceBatch {
				flush()
			}
		}}
	for _, a := range args {
		w.arg(a)
	}
	flush()
	close(jobs)
	wg.Wait()

	// Sorted by path, then by the order the walk met them: a total
	// order, the same whatever the workers. groups, seqs and ids are in
	// arrival order, read through it.
	sortRecords(&recs, seqs)
	seqs = nil
	// One file read twice (two spellings of one tree, a file also named on
	// the command line) is one result: the first path in order.
	if keepIDs {
		seen := map[fileID]bool{}
		n := 0
		for _, k := range recs.order {
			if id := ids[k]; id != (fileID{}) {
				if seen[id] {
					*recs.arrived(int(k)) = record{} // its strings go
					continue
				}
				seen[id] = true
			}
			recs.order[n] = k
			n++
		}
		recs.order = recs.order[:n:n]
	}
	// groups in path order, as markDuplicates reads them.
	sorted := make([]uint64, recs.len())
	for i, k := range recs.order {
		sorted[i] = groups[k]
	}
	groups = sorted
	markDuplicates(recs, groups)
	dates := map[int32]string{}
	for i := range recs.len() {
		if d := recs.at(i).date; d != 0 && dates[d] == "" {
			dates[d] = unpackDate(d)
		}
	}
	return &Run{recs: recs, dates: dates}
}

// sortRecords puts recs.order in the order of (path, seq), a total
// order. The walk meets files sorted folder by folder, which is path
// order but where a folder's name is the start of a sibling's ("a" and
// "a b": "a/x" comes after "a b/y"): put in walk order first, the list
// is most often sorted already, checked in one pass, and sorted only
// when it is not.
func sortRecords(recs *recList, seqs []int32) {
	bySeq := make([]int32, len(seqs))
	for k, q := range seqs {
		bySeq[q] = int32(k)
	}
	copy(recs.order, bySeq)
	bySeq = nil
	path := func(i int) string { return recs.arrived(int(recs.order[i])).path }
	for i := 1; i < len(recs.order); i++ {
		if path(i) < path(i-1) {
			sort.Slice(recs.order, func(a, b int) bool {
				ka, kb := recs.order[a], recs.order[b]
				pa, pb := recs.arrived(int(ka)).path, recs.arrived(int(kb)).path
				return pa < pb || pa == pb && seqs[ka] < seqs[kb]
			})
			return
		}
	}
}

// validateSource reads and validates one source.
//
// r is the worker's Result, filled again for each file: only what the
// record copies out of it is kept.
func validateSource(s source, rules acces.Rules, buf []byte, r *acces.Result) (record, fileID, bool, []byte) {
	rec := record{path: s.path, learner: s.learner}
	if s.archive != "" {
		if a := len(s.archive); s.entry != "" && len(s.path) == a+len("!/")+len(s.entry) &&
			s.path[:a] == s.archive && s.path[a:a+2] == "!/" && s.path[a+2:] == s.entry {
			rec.entryLen = int32(len(s.entry))
		} else {
			rec.more = &recordMore{archive: s.archive, entry: s.entry}
		}
	}
	fail := func(err error) {
		if tl := new(archiveTooLargeError); errors.As(err, &tl) {
			rec.problems = []checklist.Problem{{Code: "too-large", Severity: checklist.SevError, Message: tl.msg}}
			return
		}
		if errors.Is(err, errTooLarge) || errors.Is(err, safefile.ErrTooLarge) {
			rec.problems = []checklist.Problem{{Code: "too-large", Severity: checklist.SevError, Message: "fichier trop grand (plus de 1 Mio) : un acces.md tient sur une page ; il n'a pas été lu"}}
			return
		}
		what := "fichier illisible : "
		if s.read == nil {
			what = "illisible : "
		}
		rec.problems = []checklist.Problem{{Code: "unreadable", Severity: checklist.SevError, Message: what + describe(err)}}
	}
	if s.fail != nil {
		fail(s.fail)
		return rec, fileID{}, false, buf
	}
	data, id, err := s.read(buf)
	hasID := id != (fileID{})
	if err != nil {
		fail(err)
		return rec, id, hasID, buf
	}
	if s.pub != nil {
		rules.Beside = s.pub()
	}
	*r = *acces.Validate(data, rules)
	rec.problems, rec.fp, rec.valid, rec.fpLine = r.Problems, r.Fingerprint, r.Valid(), int32(r.FingerprintLine)
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
	return rec, id, hasID, data[:0]
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

// unpackDate writes AAAAMMJJ back as AAAA-MM-JJ (packDate's numbers
// have four digits of year, two of month and day).
func unpackDate(n int32) string {
	var b [10]byte
	for i := 9; i >= 0; i-- {
		if i == 4 || i == 7 {
			b[i] = '-'
			continue
		}
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[:])
}

// markDuplicates finds the fingerprints stated by two learners or more.
// Files of one learner (learnerGroup: a name and its copies in a learner's folder,
// or one Moodle name and id) count once: a learner may hand in twice, two
// learners may not share a key.
func markDuplicates(recs recList, groups []uint64) {
	// Indexes sorted by a hash of the fingerprint, then the fingerprint
	// (two that share a hash stay apart), then the index; then runs of
	// one fingerprint: sixteen bytes per file, where a map of lists would
	// cost several times that, and integers to compare rather than
	// strings. Runs are independent: their order is no matter.
	type keyed struct {
		h uint64
		i int32
	}
	seed := maphash.MakeSeed()
	// Most keys are stated once: only the files whose hash is met twice
	// or more are sorted with their strings, after a sort of bare hashes.
	hashes := make([]uint64, 0, recs.len())
	for i := range recs.len() {
		if fp := recs.at(i).fp; fp != "" {
			hashes = append(hashes, maphash.String(seed, fp))
		}
	}
	slices.Sort(hashes)
	var shared []uint64 // each hash met twice or more, once, in order
	for k := 1; k < len(hashes); k++ {
		if hashes[k] == hashes[k-1] && (len(shared) == 0 || shared[len(shared)-1] != hashes[k]) {
			shared = append(shared, hashes[k])
		}
	}
	var byHash []keyed
	if len(shared) > 0 {
		for i := range recs.len() {
			if fp := recs.at(i).fp; fp != "" {
				h := maphash.String(seed, fp)
				if _, ok := slices.BinarySearch(shared, h); ok {
					byHash = append(byHash, keyed{h, int32(i)})
				}
			}
		}
	}
	hashes, shared = nil, nil
	slices.SortFunc(byHash, func(a, b keyed) int {
		if c := cmp.Compare(a.h, b.h); c != 0 {
			return c
		}
		if c := strings.Compare(recs.at(int(a.i)).fp, recs.at(int(b.i)).fp); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	order := make([]int32, len(byHash))
	for k, e := range byHash {
		order[k] = e.i
	}
	byHash = nil
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && recs.at(int(order[end])).fp == recs.at(int(order[start])).fp {
			end++
		}
		run := order[start:end]
		start = end
		if len(run) < 2 {
			continue
		}
		// One string for the run's fingerprint: a key shared by 50,000
		// files is then held once, not 50,000 times.
		for _, i := range run[1:] {
			recs.at(int(i)).fp = recs.at(int(run[0])).fp
		}
		learners := map[uint64]bool{}
		for _, i := range run {
			learners[groups[i]] = true
		}
		if len(learners) < 2 {
			continue
		}
		// Every file past the first maxDuplicateOf of the run names the
		// same others, the run's first maxDuplicateOf, in the same
		// message: they share one list, one message and, when it is their
		// only problem, one problem list (none is written to after Read).
		// A key shared by 100,000 files costs a record each, not 500
		// bytes more each (organisateurs.md, Scale).
		var tail struct {
			others   []string
			message  string
			problems map[int32][]checklist.Problem // by line, for files with no other problem
		}
		for k, i := range run {
			rec := recs.at(int(i))
			var others []string
			var message string
			if k >= maxDuplicateOf && tail.others != nil {
				others, message = tail.others, tail.message
			} else {
				for _, j := range run {
					if j != i && len(others) < maxDuplicateOf {
						others = append(others, recs.at(int(j)).path)
					}
				}
				message = fmt.Sprintf("la même empreinte figure aussi dans %s : deux personnes ne partagent pas une clé", listPaths(others, len(run)-1))
				if k >= maxDuplicateOf {
					tail.others, tail.message = others, message
				}
			}
			if rec.more == nil {
				rec.more = &recordMore{}
			}
			rec.more.duplicateOf, rec.more.duplicateCount = others, len(run)-1
			p := checklist.Problem{Code: "duplicate-fingerprint", Severity: checklist.SevError, Line: int(rec.fpLine), Message: message}
			switch {
			case len(rec.problems) == 0 && k >= maxDuplicateOf:
				if tail.problems == nil {
					tail.problems = map[int32][]checklist.Problem{}
				}
				ps, ok := tail.problems[rec.fpLine]
				if !ok {
					ps = []checklist.Problem{p}
					tail.problems[rec.fpLine] = ps
				}
				rec.problems = ps[:1:1] // an append copies: the list stays shared
			default:
				rec.problems = append(rec.problems, p)
			}
			rec.valid = false
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
