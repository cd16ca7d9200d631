package submissions

import (
	"cmp"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/internal/textfold"
)

// Options are what a run compares against and how wide it reads.
type Options struct {
	Rules   acces.Rules
	Workers int // files validated at once; 0 = one per CPU
}

// maxDuplicateOf bounds the paths one result lists as sharing its key
// (else memory in the square of their number); duplicate_count says all.
const maxDuplicateOf = 10

// record is what a run keeps of one file until the report is written,
// small and fixed (organisateurs.md, « Échelle »: 100,000 files under 64 MiB).
type record struct {
	text     string               // the path, who when the path does not name her, then tail
	list     *[]checklist.Problem // its problems; nil none
	mod      int64                // modification time, Unix nanoseconds; 0 unknown
	date     int32                // AAAAMMJJ; 0 when none was read
	pathLen  int32                // the path is text[:pathLen]
	whoAt    int32                // who is text[whoAt:][:whoLen]
	whoLen   int32
	dup      int32  // 1 + the index in Run.dups of its duplicate group; 0 none
	groupLen uint16 // outside Moodle, her folder (item.group): path[:groupLen]
	compact  uint8  // bit k set when problem k's message is a template
	flags    uint8  // the bits below, then 1 + the index of its Status in statuts (0 none)
}

// The bits of record.flags: a bool each would grow every record (Échelle).
const (
	isValid         uint8 = 1 << iota
	isSigned              // its signature holds
	isMoodle              // who is a Moodle learner's name and id
	inLearnerFolder       // in a folder that identifies a learner (learnerKey)
	inRepo                // its group is a Classroom repository: never split
	isTied                // chosen among its learner's files by its path alone
	statutShift     = iota
)

func (r *record) is(f uint8) bool { return r.flags&f != 0 }

// flag is f when on, else none.
func flag(on bool, f uint8) uint8 {
	if on {
		return f
	}
	return 0
}

var statuts = []string{"demande", "verifie"}

func (r *record) path() string { return r.text[:r.pathLen] }

// who is her Moodle name and id when isMoodle is set, else her name, kept
// in text: a string of its own would grow every record (Échelle).
func (r *record) who() string { return r.text[r.whoAt:][:r.whoLen] }

// pack keeps in text the path, then who unless the path names her, then
// the tail: one allocation for them all.
func (r *record) pack(path, who string, fpLine, entryLen int, fps []byte) {
	at := strings.Index(path, who)
	b := append(make([]byte, 0, 256), path...)
	if at < 0 {
		at, b = len(b), append(b, who...)
	}
	b = binary.AppendUvarint(binary.AppendUvarint(b, uint64(fpLine)), uint64(entryLen))
	r.text, r.pathLen, r.whoAt, r.whoLen = string(append(b, fps...)), int32(len(path)), int32(at), int32(len(who))
}

// problems are the file's problems. A record points to them: most share
// one list (templates.one, markRun), and a slice would grow every record.
func (r *record) problems() []checklist.Problem {
	if r.list == nil {
		return nil
	}
	return *r.list
}

// setProblems makes ps the file's problems, capped at its length, so
// that an append to them copies.
func (r *record) setProblems(ps []checklist.Problem) {
	if ps = slices.Clip(ps); len(ps) > 0 {
		r.list = &ps
	}
}

// tail is what text keeps after the path and who: the stated fingerprint's
// line and an archive entry's name length (uvarints, a byte each most
// often: fields would grow every record), then fps, the stated
// fingerprint and those quoted (templates), packed (packFPs).
func (r *record) tail() (fpLine, entryLen int, fps string) {
	s := r.text[max(r.pathLen, r.whoAt+r.whoLen):]
	line, n := binary.Uvarint([]byte(s[:min(len(s), binary.MaxVarintLen32)]))
	entry, m := binary.Uvarint([]byte(s[n:min(len(s), n+binary.MaxVarintLen32)]))
	return int(line), int(entry), s[n+m:]
}

func (r *record) fps() string { _, _, fps := r.tail(); return fps }

// fp is the stated fingerprint, packed (packFPs); "" none.
func (r *record) fp() string {
	fps := r.fps()
	if len(fps) >= 33 && fps[0] == 0 {
		return fps[:33]
	}
	fp, _, _ := strings.Cut(fps, " ")
	return fp
}

// group is the learner's folder outside Moodle, a prefix of the path
// (a field of its own would grow every record: Échelle); "" none.
func (r *record) group() string { return r.path()[:r.groupLen] }

// groupLength is the length of group as a prefix of path; 0 (no group)
// when it is not one, or longer than a record holds.
func groupLength(path, group string) uint16 {
	if len(group) > 0xffff || !strings.HasPrefix(path, group) {
		return 0
	}
	return uint16(len(group))
}

// learnerKey is who the file counts as for duplicate fingerprints: a
// Moodle learner; in a learner's folder (learnerFolder), a name and its
// copies ("acces (1).md"); elsewhere (the argument, an archive's root),
// each file, as a browser saves several learners' acces.md there.
func (r *record) learnerKey() string {
	if r.is(isMoodle) {
		return "m:" + r.who()
	}
	if r.groupLen > 0 {
		return folderKey(r.group())
	}
	p := r.path()
	place, name := filepath.Dir(p), filepath.Base(p)
	if _, n, _ := r.tail(); n > 0 {
		dir, base := splitEntry(p[len(p)-n:])
		place, name = p[:len(p)-n]+cleanEntryDir(dir), base
	}
	if !r.is(inLearnerFolder) {
		return place + "//" + name
	}
	stem, _ := copyStem(name)
	return place + "/" + stem
}

// dupGroup is what the files of one fingerprint say of the others.
type dupGroup struct {
	of      []string
	count   int
	message string
}

// recChunk is how many records a chunk holds: growing by chunks never copies.
const recChunk = 4096

// Run is the outcome of a run (checklist.Results). A record's slot is the
// order the walk met its file; order is the slots in the report's order.
type Run struct {
	chunks [][]record
	order  []int32
	others map[int32][]string // by slot: a learner's files her result lists
	dups   []dupGroup
	leaks  []leakFound // keys in files that are no submission (scan.go)
	tmpl   templates   // the messages and problem lists kept once for the run
	slots  int32       // slots made: keep frees none, so order may be shorter
}

func (r *Run) slot(k int32) *record { return &r.chunks[k/recChunk][k%recChunk] }
func (r *Run) at(i int) *record     { return r.slot(r.order[i]) }

// add makes a slot for the next record, after every slot made so far:
// a slot keep dropped is never reused (its position in order is gone).
// finish puts the walk's slots in order at once, to its size.
func (r *Run) add() int32 {
	k := r.slots
	r.slots++
	if k%recChunk == 0 {
		r.chunks = append(r.chunks, make([]record, recChunk))
	}
	return k
}

// keep keeps the results at the positions for which ok is true.
func (r *Run) keep(ok func(i int) bool) {
	n := 0
	for i, k := range r.order {
		if ok(i) {
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
	line, entry, packed := rec.tail()
	fps := unpackFPs(packed)
	f := checklist.FileResult{Path: rec.path(), Apprenant: rec.who(), Fingerprint: fps[0], FingerprintLine: line,
		Problems: rec.problems(), Valid: rec.is(isValid), Signed: rec.is(isSigned), Others: r.others[r.order[i]], OthersTied: rec.is(isTied)}
	if rec.compact != 0 {
		f.Problems = slices.Clone(f.Problems)
		for k := range f.Problems {
			if rec.compact&(1<<k) != 0 {
				f.Problems[k].Message = expand(f.Problems[k].Message, fps)
			}
		}
	}
	if rec.date != 0 {
		f.Date = unpackDate(rec.date)
	}
	if rec.is(isMoodle) {
		k := strings.LastIndexByte(f.Apprenant, '_')
		f.Apprenant, f.Participant = f.Apprenant[:k], f.Apprenant[k+1:]
	}
	if s := rec.flags >> statutShift; s > 0 {
		f.Statut = statuts[s-1]
	}
	if entry > 0 {
		p := rec.path()
		f.Archive, f.Entry = p[:len(p)-entry-len("!/")], p[len(p)-entry:]
	}
	if rec.dup > 0 {
		g := r.dups[rec.dup-1]
		f.DuplicateOf, f.DuplicateCount = g.of, g.count
	}
	return f
}

// Strict makes a file with any problem invalid: --strict counts warnings.
func (r *Run) Strict() {
	for i := range r.Len() {
		if rec := r.at(i); rec.list != nil {
			rec.flags &^= isValid
		}
	}
}

// Learners reports whether the results are an export's, one per
// learner: some came from a Moodle learner or a learner's folder.
func (r *Run) Learners() bool {
	for i := range r.Len() {
		if rec := r.at(i); rec.is(isMoodle) || rec.groupLen > 0 {
			return true
		}
	}
	return false
}

// Invalid reports whether a result is invalid.
func (r *Run) Invalid() bool {
	for i := range r.Len() {
		if !r.at(i).is(isValid) {
			return true
		}
	}
	return false
}

// Read reads and validates every submission of the arguments (files,
// folders, .zip archives), which must exist. Results are sorted by path;
// a place that could not be read is a result of its own (unreadable).
// Each Moodle learner gets one result: her latest file, or no-acces-md.
func Read(args []string, opts Options) *Run {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		mu  sync.Mutex
		run = &Run{others: map[int32][]string{}}
		ids []fileID // by slot, when several arguments may name one file
		wg  sync.WaitGroup
	)
	items := make(chan item, 2*workers)
	for range workers {
		wg.Go(func() {
			for it := range items {
				if it.scan {
					run.scanItem(it, &mu)
					continue
				}
				rec := validateItem(it, opts.Rules, &run.tmpl)
				mu.Lock()
				*run.slot(it.slot) = rec
				mu.Unlock()
			}
		})
	}
	w := &walker{keyName: opts.Rules.KeyName, seen: map[fileID]bool{}, several: len(args) > 1, filled: map[string]bool{}, emit: func(it item) {
		if it.scan { // no result of its own, unless it holds a key
			items <- it
			return
		}
		mu.Lock()
		it.slot = run.add()
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
	run.finish(ids, slices.DeleteFunc(w.missing, func(m *receipt) bool {
		// A folder is a learner's when its neighbours are: one of them
		// handed an acces.md in, or Classroom made them.
		return m.moodle == "" && !m.classroom && !w.filled[m.container]
	}))
	return run
}

// finish sorts the records and marks what needs all of them.
func (r *Run) finish(ids []fileID, missing []*receipt) {
	// Learners with no acces.md anywhere get one result for all places.
	first := map[string]*receipt{}
	var order []*receipt
	for _, m := range missing {
		if f := first[m.key]; f != nil {
			f.merge(m)
		} else {
			first[m.key] = m
			order = append(order, m)
		}
	}
	for k := range r.slots {
		if len(first) == 0 {
			break // every learner met has a result: no key to make per file
		}
		if rec := r.slot(k); rec.is(isMoodle) {
			delete(first, rec.who())
		} else if rec.groupLen > 0 {
			delete(first, folderKey(rec.group()))
		}
	}
	// Most of them received the same (acces.docx): one message for all, not one each.
	said := map[string]string{}
	for _, m := range order {
		if first[m.key] == m {
			msg := m.missingMessage()
			if s, ok := said[msg]; ok {
				msg = s
			} else {
				said[msg] = msg
			}
			rec, who := record{flags: isMoodle,
				list: &[]checklist.Problem{{Code: checklist.CodeNoAccesMD, Severity: checklist.SevError, Message: msg}}}, m.moodle
			if m.moodle == "" {
				who, rec.flags, rec.groupLen = m.learner, 0, groupLength(m.path, m.path)
			}
			rec.pack(m.path, who, 0, len(m.entry), nil)
			*r.slot(r.add()) = rec
		}
	}
	r.order = make([]int32, r.slots)
	for k := range r.order {
		r.order[k] = int32(k)
	}
	// By path, then by the walk's order: the same whatever the workers.
	slices.SortFunc(r.order, func(a, b int32) int {
		if c := strings.Compare(r.slot(a).path(), r.slot(b).path()); c != 0 {
			return c
		}
		return int(a - b)
	})
	// One file read twice (two spellings of one tree) is one result.
	seen := map[fileID]bool{}
	r.keep(func(i int) bool {
		k := r.order[i]
		if int(k) >= len(ids) || ids[k] == (fileID{}) {
			return true
		}
		dup := seen[ids[k]]
		seen[ids[k]] = true
		return !dup
	})
	r.splitGroups()
	r.oneRowPerLearner()
	r.attachLeaks(ids)
	r.markDuplicates()
}

// splitGroups makes each subfolder of a learner's folder a learner's of
// its own when that folder holds no acces.md itself and its acces.md
// files sit in two subfolders or more ("groupe/etu/acces.md"): a folder
// of learners' folders, which the walk cannot tell from a learner's
// own until all of it is read. A Classroom repository is one student's
// whatever it holds (repo): never split.
func (r *Run) splitGroups() {
	type seen struct {
		first        string
		top, several bool
	}
	groups := map[string]*seen{}
	for i := range r.Len() {
		rec := r.at(i)
		if rec.is(isMoodle) || rec.groupLen == 0 || rec.is(inRepo) {
			continue
		}
		sub := subfolder(rec)
		g := groups[rec.group()]
		if g == nil {
			g = &seen{first: sub}
			groups[rec.group()] = g
		}
		g.top, g.several = g.top || sub == "", g.several || sub != g.first
	}
	for i := range r.Len() {
		rec := r.at(i)
		if g := groups[rec.group()]; g != nil && g.several && !g.top && rec.groupLen > 0 {
			sub := subfolder(rec)
			// A prefix of its path: no string is made per file (Échelle).
			p := rec.path()
			rec.groupLen = groupLength(p, p[:int(rec.groupLen)+strings.Index(p[rec.groupLen:], sub)+len(sub)])
			line, entry, fps := rec.tail()
			rec.pack(p, sub, line, entry, []byte(fps))
		}
	}
}

// subfolder is the folder below its learner's folder a file sits in, ""
// when it is in that folder itself.
func subfolder(rec *record) string {
	rest, ok := strings.CutPrefix(rec.path(), rec.group())
	if !ok {
		return ""
	}
	rest = strings.TrimLeft(rest, `/\`)
	if i := strings.IndexAny(rest, `/\`); i >= 0 {
		return rest[:i]
	}
	return ""
}

// owner is who a file counts as for one row per learner: her Moodle
// name and id (moodle), or her folder; "" for a file of no learner's
// folder. No string is made: it is compared for every file (Échelle).
func (r *record) owner() string {
	if r.is(isMoodle) {
		return r.who()
	}
	return r.group()
}

// compareOwners orders records by owner, Moodle learners last.
func compareOwners(a, b *record) int {
	switch {
	case a.is(isMoodle) && !b.is(isMoodle):
		return 1
	case b.is(isMoodle) && !a.is(isMoodle):
		return -1
	}
	return strings.Compare(a.owner(), b.owner())
}

// oneRowPerLearner keeps one of a learner's files (preferred) and lists
// the others in it; when none is preferred to another by more than its
// path, the result says so (tied). Never the arguments' order.
func (r *Run) oneRowPerLearner() {
	var byLearner []int32 // positions in r.order
	for i := range r.Len() {
		if r.at(i).owner() != "" {
			byLearner = append(byLearner, int32(i))
		}
	}
	same := func(a, b int32) bool { return compareOwners(r.at(int(a)), r.at(int(b))) == 0 }
	slices.SortStableFunc(byLearner, func(a, b int32) int { return compareOwners(r.at(int(a)), r.at(int(b))) })
	drop := map[int]bool{} // positions of files listed in another
	for run := range runsOf(byLearner, same) {
		best := run[0]
		for _, i := range run[1:] {
			a, b := r.at(int(i)), r.at(int(best))
			if c := cmp.Or(preferred(a, b), strings.Compare(a.path(), b.path())); c > 0 || c == 0 && i > best {
				best = i
			}
		}
		keep := r.at(int(best))
		for _, i := range run {
			if i != best {
				other := r.at(int(i))
				drop[int(i)] = true
				if carry(keep, other) {
					continue // a part unread: its problem names it, no other copy
				}
				r.others[r.order[best]] = append(r.others[r.order[best]], other.path())
				if preferred(keep, other) == 0 {
					keep.flags |= isTied
				}
			}
		}
	}
	r.keep(func(i int) bool { return !drop[i] })
}

// preferred compares two files of one learner, > 0 when a is the one her
// result is from (organisateurs.md, « Un apprenant, un résultat »): outside
// Moodle an acces.md at the top of her folder over one in a subfolder;
// then the one modified last; then, at equal times, Moodle's own order of
// names, a copy after its original ("acces (1).md" after "acces.md").
func preferred(a, b *record) int {
	if !a.is(isMoodle) {
		if c := cmp.Compare(depthIn(b), depthIn(a)); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(a.mod, b.mod); c != 0 {
		return c
	}
	da, na := splitEntry(a.path())
	db, nb := splitEntry(b.path())
	sa, ca := copyStem(na)
	sb, cb := copyStem(nb)
	if da == db && sa == sb {
		return cmp.Compare(ca, cb)
	}
	return 0
}

// depthIn is how many folders a file is below its learner's folder.
func depthIn(r *record) int {
	rest := strings.TrimLeft(strings.TrimPrefix(r.path(), r.group()), `/\`)
	return strings.Count(rest, "/") + strings.Count(rest, `\`)
}

// copyStem is a file name folded, without ".md" and its copy mark, and
// the mark's number (trimCopyMark).
func copyStem(name string) (string, int) {
	stem, _ := strings.CutSuffix(textfold.Fold(name), ".md")
	return trimCopyMark(stem)
}

// carry reports on rec, a learner's result, what another record of her
// hand-in that it only lists says and rec must say too: a private key in
// it (compromised all the same), and a folder or an archive of hers that
// could not be read (organisateurs.md: a key there would go unseen),
// which it reports.
func carry(rec, other *record) (unread bool) {
	name := textfold.Fold(acces.BaseName(other.path()))
	part := !IsSubmissionName(name) && !strings.HasSuffix(name, "onlinetext.html")
	for _, p := range other.problems() {
		switch {
		case p.Code == checklist.CodePrivateKeyLeak:
			p.Message = fmt.Sprintf("clé privée dans %s, une autre copie de ce rendu (ligne %d) : supprimez ce fichier des rendus, et considérez cette clé comme compromise : créez-en une nouvelle", other.path(), p.Line)
		case part && (p.Code == checklist.CodeUnreadable || p.Code == checklist.CodeTooLarge):
			p.Message = fmt.Sprintf("%s, dans ce rendu : %s ; une clé privée qui s'y trouverait n'est pas vue", other.path(), p.Message)
			unread = true
		default:
			continue
		}
		rec.setProblems(append(rec.problems(), checklist.Problem{Code: p.Code, Severity: checklist.SevError, Message: p.Message}))
		rec.flags &^= isValid
	}
	return unread
}

// newRecord is what a run keeps of it, its fingerprints packed in fps.
func newRecord(it item, fpLine int, fps []byte) record {
	rec, who := record{groupLen: groupLength(it.path, it.group), mod: it.mod,
		flags: flag(it.learnerFolder, inLearnerFolder) | flag(it.repo, inRepo) | flag(it.moodle != "", isMoodle)}, it.learner
	if it.moodle != "" {
		who = it.moodle
	}
	rec.pack(it.path, who, fpLine, len(it.entry), fps)
	return rec
}

// validateItem validates one item read by the walk.
func validateItem(it item, rules acces.Rules, tmpl *templates) record {
	if it.err != nil {
		rec := newRecord(it, 0, nil)
		rec.setProblems([]checklist.Problem{readProblem(it.err, it.place)})
		return rec
	}
	rules.Beside, rules.OnlineText = it.pub, it.online
	r := acces.Validate(it.data, rules)
	fps, compact := []string{r.Fingerprint}, uint8(0)
	for k := range min(len(r.Problems), 8) {
		if t, ok := tmpl.compact(r.Problems[k].Message, &fps); ok {
			r.Problems[k].Message = t
			compact |= 1 << k
		}
	}
	rec := newRecord(it, r.FingerprintLine, packFPs(make([]byte, 0, 128), fps))
	rec.compact = compact
	rec.flags |= flag(r.Valid(), isValid) | flag(r.SignedBy != "", isSigned) | uint8(slices.Index(statuts, r.Status)+1)<<statutShift
	if len(r.Problems) == 1 {
		rec.list = tmpl.one(r.Problems[0])
	} else {
		rec.setProblems(r.Problems)
	}
	rec.date = packDate(r.Date)
	return rec
}

// readProblem is the problem of a file or place that could not be read.
func readProblem(err error, place bool) checklist.Problem {
	if tl := new(archiveTooLargeError); errors.As(err, &tl) {
		return checklist.Problem{Code: checklist.CodeTooLarge, Severity: checklist.SevError, Message: tl.msg}
	}
	if errors.Is(err, errTooLarge) || errors.Is(err, safefile.ErrTooLarge) {
		return checklist.Problem{Code: checklist.CodeTooLarge, Severity: checklist.SevError, Message: "fichier trop grand (plus de 1 Mio) : un acces.md tient sur une page ; il n'a pas été lu"}
	}
	what := "fichier illisible : "
	if place {
		what = "illisible : "
	}
	return checklist.Problem{Code: checklist.CodeUnreadable, Severity: checklist.SevError, Message: what + describe(err)}
}

// packDate is AAAA-MM-JJ as the number AAAAMMJJ, 0 for anything else.
func packDate(s string) int32 {
	if y, m, d, ok := dates.ISOWord(s); ok && len(s) == len(dates.ISO) {
		return int32(y*10000 + m*100 + d)
	}
	return 0
}

func unpackDate(n int32) string { return fmt.Sprintf("%04d-%02d-%02d", n/10000, n/100%100, n%100) }

// templates are the messages that quote fingerprints, kept once for the
// run with a mark for each: 100,000 fingerprint-mismatch messages are one
// sentence, and only the fingerprints are kept per file. lists holds a
// file's problem when it is its only one: one list for all who share it.
type templates struct{ m, lists sync.Map }

// one is the list of p alone, kept once for the run; capped at its
// length, so that an append to it copies.
func (t *templates) one(p checklist.Problem) *[]checklist.Problem {
	kept, _ := t.lists.LoadOrStore(p, &[]checklist.Problem{p})
	return kept.(*[]checklist.Problem)
}

// mark, then one digit n, stands for the fingerprint fps[n].
const mark = "\x00"

// fingerprint is what a message quotes of a key: "SHA256:" and its base64.
var fingerprint = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`SHA256:[A-Za-z0-9+/]*`) })

// compact is msg as a template, its new fingerprints added to fps; ok is
// false when msg is kept as it is.
func (t *templates) compact(msg string, fps *[]string) (string, bool) {
	if !strings.Contains(msg, "SHA256:") || strings.Contains(msg, mark) {
		return msg, false
	}
	ok := true
	s := fingerprint().ReplaceAllStringFunc(msg, func(fp string) string {
		n := slices.Index(*fps, fp)
		if n < 0 {
			n = len(*fps)
			*fps = append(*fps, fp)
		}
		ok = ok && n <= 9
		return mark + string(rune('0'+n%10))
	})
	if !ok {
		return msg, false
	}
	kept, _ := t.m.LoadOrStore(s, s)
	return kept.(string), true
}

// packFPs appends fps to b in the fewest bytes a record can keep: a
// fingerprint as ssh-keygen writes it, "SHA256:" then 43 base64
// characters (none past the 32 bytes: Strict), is a zero byte then its
// 32 bytes; any other is itself, then a space.
func packFPs(b []byte, fps []string) []byte {
	for _, fp := range fps {
		if sum, ok := strings.CutPrefix(fp, "SHA256:"); ok && len(sum) == 43 {
			packed, err := base64.RawStdEncoding.Strict().AppendDecode(append(b, 0), []byte(sum))
			if err == nil && len(packed) == len(b)+33 {
				b = packed
				continue
			}
		}
		b = append(append(b, fp...), ' ')
	}
	return b
}

// unpackFPs is the fingerprints packFPs packed, the stated one ("" none) first.
func unpackFPs(s string) []string {
	var fps []string
	for len(fps) == 0 || s != "" {
		fp := ""
		if len(s) >= 33 && s[0] == 0 {
			fp, s = string(base64.RawStdEncoding.AppendEncode(append(make([]byte, 0, 50), "SHA256:"...), []byte(s[1:33]))), s[33:]
		} else {
			fp, s, _ = strings.Cut(s, " ")
		}
		fps = append(fps, fp)
	}
	return fps
}

// expand puts the fingerprints back in a template.
func expand(tmpl string, fps []string) string {
	for n, fp := range fps[:min(len(fps), 10)] {
		tmpl = strings.ReplaceAll(tmpl, mark+string(rune('0'+n)), fp)
	}
	return tmpl
}

// markDuplicates finds the fingerprints stated by two learners or more
// (learnerKey): a learner may hand in twice, two may not share a key.
func (r *Run) markDuplicates() {
	byFP := make([]int32, 0, r.Len()) // positions in r.order
	for i := range r.Len() {
		if r.at(i).fp() != "" {
			byFP = append(byFP, int32(i))
		}
	}
	fp := func(i int32) string { return r.at(int(i)).fp() }
	slices.SortStableFunc(byFP, func(a, b int32) int { return strings.Compare(fp(a), fp(b)) })
	for run := range runsOf(byFP, func(a, b int32) bool { return fp(a) == fp(b) }) {
		first := r.at(int(run[0])).learnerKey()
		if slices.ContainsFunc(run[1:], func(i int32) bool { return r.at(int(i)).learnerKey() != first }) {
			r.markRun(run)
		}
	}
}

// markRun marks the files of run as duplicate-fingerprint. Those past the
// first maxDuplicateOf share one message and, with no other problem, one
// problem list: 100,000 files of one key cost a record each (Scale).
func (r *Run) markRun(run []int32) {
	head := run[:min(len(run), maxDuplicateOf+1)]
	for k, i := range run {
		rec := r.at(int(i))
		if k < len(head) {
			var others []string
			for _, j := range head {
				if j != i && len(others) < maxDuplicateOf {
					others = append(others, r.at(int(j)).path())
				}
			}
			r.dups = append(r.dups, dupGroup{others, len(run) - 1, fmt.Sprintf(
				"la même empreinte figure aussi dans %s : deux personnes ne partagent pas une clé", listPaths(others[:min(len(others), 3)], len(run)-1))})
		}
		rec.dup, rec.flags = int32(len(r.dups)), rec.flags&^isValid
		line, _, _ := rec.tail()
		p := checklist.Problem{Code: checklist.CodeDuplicateFingerprint, Severity: checklist.SevError, Line: line, Message: r.dups[rec.dup-1].message}
		after := namedAfter(rec)
		if after != "" {
			p.Message += " ; " + after
		}
		if k < maxDuplicateOf || rec.list != nil || after != "" {
			rec.setProblems(append(rec.problems(), p))
			continue
		}
		rec.list = r.tmpl.one(p)
	}
}

// namedAfter says, of a Moodle learner's file whose name (or a folder's
// below hers) is another learner's Moodle name, whose: she handed in a
// copy of that learner's file, so the organiser sees who copied whom.
func namedAfter(rec *record) string {
	if !rec.is(isMoodle) {
		return ""
	}
	for _, p := range strings.FieldsFunc(rec.path(), func(c rune) bool { return c == '/' || c == '\\' }) {
		l, k, ok := moodleLearner(p)
		if !ok {
			continue
		}
		if name, key := sameLearner(l, k); key != rec.who() {
			return fmt.Sprintf("fichier nommé d'après le dossier de %s (participant %s), dans le rendu de %s",
				name, key[len(name)+1:], rec.who()[:strings.LastIndexByte(rec.who(), '_')])
		}
	}
	return ""
}

// runsOf yields the runs of two or more consecutive elements that are the same.
func runsOf(sorted []int32, same func(a, b int32) bool) func(func([]int32) bool) {
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

// listPaths names the paths and counts the rest of total.
func listPaths(paths []string, total int) string {
	s := strings.Join(paths, ", ")
	if rest := total - len(paths); rest > 0 {
		s += fmt.Sprintf(" et %d autre%s", rest, termtext.Plural(rest))
	}
	return s
}
