package submissions

import (
	"archive/zip"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys/leak"
)

// Every file of a submission that is no acces.md (a private key sent for
// the .pub, cle.txt, onlinetext.html, a README) is read for key material
// only (issue 30): a key in it is a private-key-leak on its learner's
// row, listed first. It is read through the bounded reader (on disk) or
// charged to the archive's budget after the submissions (in an archive),
// at most scanKind.Max bytes; a file that cannot be read is no
// submission, and nothing is said of it.
var scanKind = safefile.Kind{Name: "fichier rendu", Max: acces.MaxAccessSize}

// leakFound is a file read for key material that holds some.
type leakFound struct {
	rec record // path, who, its flags, the entry's length; its one problem
	id  fileID
	seq int // the walk's order
}

// leakMessage names the file, never quotes it.
func leakMessage(path string) string {
	return "clé privée dans le fichier " + path + " : supprimez ce fichier des rendus, et considérez cette clé comme compromise : créez-en une nouvelle"
}

// scanIn reads the file raw of the open folder dir for key material.
func (w *walker) scanIn(dir *os.File, raw string, it item, t fs.FileMode) {
	if !t.IsRegular() {
		return
	}
	data, _, err := safefile.ReadIn(dir, raw, it.path, scanKind)
	if err == nil {
		w.scanned(it, data)
	}
}

// scanEntries reads the archive entries at indexes for key material,
// after the submissions, so that they never starve one of the budget;
// a .pub read as a submission's pair was checked there.
func (a *zipRead) scanEntries(files []*zip.File, indexes []int, paired map[*zip.File]*acces.PubFile) {
	for _, index := range indexes {
		zf := files[index]
		if paired[zf] != nil {
			continue
		}
		data, err := a.entry(zf, scanKind.Max)
		if err != nil {
			continue
		}
		p := a.path + "!/" + zf.Name
		name := p[len(p)-len(zf.Name):]
		dir, _ := splitEntry(name)
		learner, moodle, group := a.learner(name)
		a.w.scanned(item{path: p, entry: name, learner: learner, moodle: moodle, group: group, learnerFolder: cleanEntryDir(dir) != "",
			id: fileID{dev: a.id.dev, ino: a.id.ino, path: a.id.path, entry: a.base + index + 1}}, data)
	}
}

// scanned hands a file read for key material to the workers; it never
// counts as a submission of its learner (her no-acces-md stays).
func (w *walker) scanned(it item, data []byte) {
	it.data, it.scan, it.seq = data, true, w.scans
	if w.in != nil && w.in.moodle == "" { // in her folder, as send says, but never found
		it.learner, it.group = w.in.learner, w.in.path
	}
	w.scans++
	w.emit(it)
}

// scanItem keeps the file, run by a worker, if it holds key material.
func (r *Run) scanItem(it item, mu *sync.Mutex) {
	if len(leak.File(it.data)) == 0 {
		return
	}
	rec := newRecord(it, 0, nil)
	rec.list = &[]checklist.Problem{{Code: checklist.CodePrivateKeyLeak, Severity: checklist.SevError, Message: leakMessage(it.path)}}
	mu.Lock()
	r.leaks = append(r.leaks, leakFound{rec, it.id, it.seq})
	mu.Unlock()
}

// place is where a record's file sits: its folder, or its archive and
// the entry's folder.
func (rec *record) place() string {
	p := rec.path()
	if _, n, _ := rec.tail(); n > 0 {
		dir, _ := splitEntry(p[len(p)-n:])
		return p[:len(p)-n] + cleanEntryDir(dir)
	}
	return p[:len(p)-len(acces.BaseName(p))]
}

// attachLeaks puts each key found in a file that is no submission first
// on its learner's row: a Moodle learner's one row; outside Moodle, the
// rows of the same folder of her folder, else those of her folder's
// other folders. A key no row claims (a folder holding only the key, the
// argument's own folder) is a row of its own. ids are the
// submissions' files (Read), none of which is reported twice.
func (r *Run) attachLeaks(ids []fileID) {
	if len(r.leaks) == 0 {
		return // no index of every row for nothing: 100,000 rows cost megabytes
	}
	slices.SortFunc(r.leaks, func(a, b leakFound) int {
		if c := strings.Compare(a.rec.path(), b.rec.path()); c != 0 {
			return c
		}
		return a.seq - b.seq
	})
	seen := map[fileID]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	rows := map[string][]int{} // by rowKeys: positions
	for i := range r.Len() {
		for _, k := range r.at(i).rowKeys() {
			rows[k] = append(rows[k], i)
		}
	}
	added := false
	for _, l := range r.leaks {
		if seen[l.id] && l.id != (fileID{}) {
			continue // read twice (two spellings of one tree), or a submission too
		}
		seen[l.id] = true
		if at := l.rec.rowsOf(rows); len(at) > 0 {
			for _, i := range at {
				r.at(i).leadWith(&l.rec)
			}
			continue
		}
		k := r.add()
		*r.slot(k), r.order = l.rec, append(r.order, k)
		added = true
	}
	r.leaks = nil
	if added {
		slices.SortStableFunc(r.order, func(a, b int32) int { return strings.Compare(r.slot(a).path(), r.slot(b).path()) })
	}
}

// rowKeys name the learner of a record, most precise first: her Moodle
// name; outside Moodle, her folder's name with the folder the file is in
// ("d:"), then with the learner's folder above it ("r:").
func (rec *record) rowKeys() []string {
	var group []string // her folder, where the platform's export has one (names.go)
	if rec.groupLen > 0 {
		group = []string{"g:" + rec.group()}
	}
	switch {
	case rec.is(isMoodle):
		return []string{"m:" + rec.who()}
	case !rec.is(inLearnerFolder):
		return group
	}
	who := rec.who()
	keys := append([]string{"d:" + rec.place() + "\x00" + who}, group...)
	for _, sep := range []string{"/", `\`} {
		if i := strings.Index(rec.path(), sep+who+sep); i >= 0 {
			return append(keys, "r:"+rec.path()[:i+len(who)+2]+"\x00"+who)
		}
	}
	return keys
}

// rowsOf are the rows of rec's learner by her most precise key that has any.
func (rec *record) rowsOf(rows map[string][]int) []int {
	for _, k := range rec.rowKeys() {
		if at := rows[k]; len(at) > 0 {
			return at
		}
	}
	return nil
}

// leadWith puts the key found in l's file first in rec's problems, unless
// rec is that file's own result, or a problem already names it (a .pub
// beside acces.md that is a private key): a file of the same name
// elsewhere (the same export as a folder and a zip) is named too.
func (rec *record) leadWith(l *record) {
	p, path := l.problems()[0], l.path()
	if rec.path() == path && slices.ContainsFunc(rec.problems(), func(q checklist.Problem) bool { return q.Code == p.Code }) {
		return // its own result, which says it (a flat export's no-acces-md row does not)
	}
	for _, q := range rec.problems() {
		if q.Code == p.Code && rec.place() == l.place() && q.Message == acces.BesideLeak(acces.BaseName(path)) {
			return
		}
	}
	ps := append([]checklist.Problem{p}, rec.problems()...)
	if rec.compact&0x80 != 0 { // the eighth template becomes the ninth problem: written out
		ps[8].Message = expand(ps[8].Message, unpackFPs(rec.fps()))
	}
	rec.setProblems(ps)
	rec.flags, rec.compact = rec.flags&^isValid, rec.compact<<1
}
