package submissions

import (
	"archive/zip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
)

// fileID tells whether two names lead to one file: device and inode (the
// absolute path where there are none), and for an archive entry its index.
type fileID struct {
	dev, ino uint64
	path     string
	entry    int // 1 + the entry's index in its archive; 0 on disk
}

// item is one submission the walk found and read, on its way to be
// validated, or a place that could not be read (err).
type item struct {
	path    string // as shown: "rendus/kim/acces.md", "lot.zip!/kim/acces.md"
	entry   string // for an archive entry, its name: path ends with "!/" and it
	learner string
	moodle  string // the learner's Moodle name and id, "Dupont Alice_123456"; "" outside Moodle
	group   string // outside Moodle, her folder as shown: one result for all it holds; "" none
	repo    bool   // group is a Classroom repository: one student (isRepo)
	data    []byte
	pub     *acces.PubFile // nil: no .pub beside it
	err     error
	place   bool // err is about a folder or an archive, not a file
	id      fileID
	mod     int64 // modification time, Unix nanoseconds; 0 unknown
	slot    int32 // its record's slot in the run: the order the walk met it
	// learnerFolder: in a folder that identifies a learner (learnerKey).
	learnerFolder bool
	scan          bool // no submission: read for key material only (scan.go)
	seq           int  // for a scan, the walk's order
	online        bool // Moodle's online text (onlinetext.go)
}

// where names the learner of a file the walk meets (learnerAt): outer
// are the names above the place read, parts the folders below it.
type where struct {
	outer    []string
	parts    []string
	fallback string
	lv       level  // where the learners' folders are among parts
	lone     bool   // this folder is the only one of the folder holding the learners'
	holder   string // the folder holding the learners' folders, as shown
	mixed    bool   // this folder holds acces.md files of several names: several learners'
	nobody   bool   // the argument is an ignoredFolder ("pret valider *" names __MACOSX)
}

// ignored reports whether the folder at is nobody's (ignoredFolder), as
// all below it.
func (w where) ignored() bool { return w.nobody || slices.ContainsFunc(w.parts, ignoredFolder) }

// of names the learner of the file name here.
func (w where) of(name string) (learner, moodle string) {
	learner, moodle, _ = learnerAt(w.outer, append(w.parts[:len(w.parts):len(w.parts)], name), w.lv, w.fallback)
	return learner, moodle
}

// walker expands the command line into items, one at a time, in a
// sorted order. Folders and archives met twice are read once (seen).
type walker struct {
	keyName string
	emit    func(item)
	seen    map[fileID]bool
	// several: the arguments may name one folder twice, or one inside
	// another, so every folder read stays in seen. With one argument a
	// folder can only come back below itself (a bind mount): seen keeps
	// the folders being walked, not the 100,000 of a flat export.
	several bool
	in      *receipt   // the outermost learner's folder being walked: all below is hers
	missing []*receipt // the learners met with no acces.md, so far
	scans   int        // files handed to scanned so far
	// filled are the folders holding learners' folders of which one
	// held a submission: its folders are learners, so one with none is said.
	filled map[string]bool
}

// send emits it, and notes that its learner handed in something read.
func (w *walker) send(it item, rs *receipts) {
	if w.receivedOnline(it, rs) {
		return
	}
	switch {
	case w.in != nil && w.in.moodle == "":
		it.learner, it.group, it.repo = w.in.learner, w.in.path, w.in.repo // an archive in her folder is hers
		w.in.found = true
	case it.moodle != "" && w.in != nil:
		w.in.found = true
	case it.moodle != "" && rs != nil:
		rs.at(it.moodle, it.learner, it.path).found = true
	case it.group != "" && rs != nil:
		rs.atKey(folderKey(it.group), &receipt{}).found = true
	}
	w.emit(it)
}

func (w *walker) unreadable(path string, at where, name string, err error) {
	learner, moodle := at.of(name)
	w.send(item{path: path, learner: learner, moodle: moodle, err: err, place: name == ""}, nil)
}

// arg reads one command-line argument: it may be a link, the organiser's
// own choice, so it is followed.
func (w *walker) arg(arg string) {
	abs, _ := filepath.Abs(arg)
	// A Moodle name above the argument names the learner of all below it.
	above := strings.Split(filepath.ToSlash(filepath.Dir(abs)), "/")
	base, in := filepath.Base(abs), where{outer: above, fallback: filepath.Base(filepath.Dir(abs))}
	st, err := os.Stat(arg)
	switch {
	case err != nil:
		w.unreadable(arg, in, base, err)
	case st.IsDir():
		if parent := filepath.Base(filepath.Dir(abs)); isClassroomFolder(parent) {
			// One Classroom repository: the argument is the learner's folder.
			base = loginOf(base, assignmentPrefix(parent, nil))
		}
		w.dir(arg, arg, nil, true, where{outer: append(above, filepath.Base(abs)), fallback: base, nobody: ignoredFolder(filepath.Base(abs))})
	case IsArchiveName(arg) && st.Mode().IsRegular():
		w.archive(nil, "", arg, true, where{outer: above, fallback: strings.TrimSuffix(base, filepath.Ext(base))})
	default:
		w.file(arg, st, in)
	}
}

// file reads a file named on the command line, whatever its name.
func (w *walker) file(arg string, st fs.FileInfo, at where) {
	learner, moodle := at.of(filepath.Base(arg))
	// Known by its folder and name once links are resolved, as the walk
	// knows the files it meets: met again in a folder, it is read once.
	// Named on its own, onlinetext.html is still her online text, as in its folder.
	it := item{path: arg, learner: learner, moodle: moodle, id: fileID{path: arg},
		online: isOnlineTextFile(filepath.Base(arg), slices.ContainsFunc(at.outer, isOnlineText))}
	if real, err := filepath.EvalSymlinks(arg); err == nil {
		if did, err := statID(filepath.Dir(real)); err == nil {
			did.path = filepath.Base(real)
			it.id = did
		}
	}
	if !st.Mode().IsRegular() {
		// A FIFO, socket or device named here is not opened either.
		it.err = safefile.NotRegular(arg, safefile.Access)
		w.send(it, nil)
		return
	}
	it.data, it.err = safefile.Read(arg, safefile.Access, safefile.FollowLink)
	it.mod = st.ModTime().UnixNano()
	dir := filepath.Dir(arg)
	if d, err := os.Open(dir); err == nil {
		if entries, err := listDir(d); err == nil {
			it.pub = w.pubsIn(d, dir, entries)(filepath.Base(arg))
		}
		d.Close()
	}
	w.send(it, nil)
}

// pubsIn reads the .pub paired with a file of the folder dir, open as f
// and listing entries; nil when there is none. A .pub that is a link, a
// FIFO or a folder is never opened: its empty data is bad-public-key.
func (w *walker) pubsIn(f *os.File, dir string, entries []dirent) func(name string) *acces.PubFile {
	types := map[string]fs.FileMode{}
	for _, e := range entries {
		if strings.HasSuffix(e.name, ".pub") {
			types[e.name] = e.typ
		}
	}
	pairs := choosePubs(types, w.keyName, filepath.Base(dir))
	read := map[string]*acces.PubFile{} // one .pub beside many files is read once
	return func(name string) *acces.PubFile {
		pn := pairs.pubFor(name)
		if pn == "" || read[pn] != nil {
			return read[pn]
		}
		pub := &acces.PubFile{Name: pn}
		if types[pn].IsRegular() {
			pub.Data, _, _ = safefile.ReadIn(f, pn, filepath.Join(dir, pn), safefile.Key)
		}
		read[pn] = pub
		return pub
	}
}

// dir walks a folder: its files, then its subfolders, one folder open at
// a time. Files are read by name in the open folder (openat), so a folder
// swapped in after the listing is not read; a subfolder whose ".." is not
// parent was swapped for a link and is refused. path is the folder as
// reports show it; openPath is never cleaned, so that "a/lien/../b" leads
// where the kernel listed, not where its cleaned spelling points.
func (w *walker) dir(path, openPath string, parent *fileID, follow bool, at where) {
	f, id, entries := w.openOnce(path, openPath, parent, follow, at)
	if f == nil {
		return
	}
	below := w.levelBelow(path, at, entries)
	// The outermost learner's folder: she gets a result even with no acces.md.
	if r := w.learnerFolder(path, at, below); r != nil {
		w.in = r
		defer func() {
			if !w.in.found {
				w.missing = append(w.missing, w.in)
			} else if w.in.moodle == "" {
				w.filled[w.in.container] = true
			}
			w.in = nil
		}()
	}
	var rs receipts // a flat export's learners, named by their files
	pubOf := w.pubsIn(f, path, entries)
	for i, e := range entries {
		raw, t := e.name, e.typ
		if t.IsDir() {
			continue // gone down into once the files are read
		}
		entries[i].name = "" // read: its name goes (listDir)
		p := filepath.Join(path, raw)
		name := ruleName(raw) // the rule and the learner's name read UTF-8
		learner, moodle := at.of(name)
		it := item{path: p, learner: learner, moodle: moodle, learnerFolder: len(at.parts) > 0,
			id: fileID{dev: id.dev, ino: id.ino, path: raw}, online: isOnlineTextFile(name, w.in != nil && w.in.online)}
		switch {
		case at.nobody || ignoredPath(at.parts, name):
			w.scanIn(f, raw, it, t) // .ssh's too: where keys are kept
		case !IsSubmissionName(name) && !IsArchiveName(name) && !it.online:
			w.received(&rs, moodle, learner, p, name)
			w.scanIn(f, raw, it, t)
		case t&fs.ModeSymlink != 0:
			it.err = errSymlink // never followed, and said
			w.send(it, &rs)
		case !t.IsRegular():
			// Never opened (organisateurs.md): opening a FIFO would
			// release a writer waiting on it.
			it.err = safefile.NotRegular(p, safefile.Access)
			w.send(it, &rs)
		case IsArchiveName(name):
			w.received(&rs, moodle, learner, p, name)
			outer := append(at.outer[:len(at.outer):len(at.outer)], at.parts...)
			if moodle != "" { // "Dupont Alice_101_assignsubmission_file_cles.zip": hers, all it holds
				outer = append(outer, name)
			}
			w.archive(f, raw, p, false, where{outer: outer, fallback: strings.TrimSuffix(name, filepath.Ext(name))})
		default:
			var mod time.Time
			it.data, mod, it.err = safefile.ReadIn(f, raw, p, safefile.Access)
			it.mod, it.pub = mod.UnixNano(), pubOf(raw)
			w.send(it, &rs)
		}
	}
	f.Close()
	w.missing = append(w.missing, rs.unfound()...)
	for i, e := range entries {
		if e.typ.IsDir() {
			raw := e.name
			entries[i].name = ""
			below := below
			below.parts = append(at.parts[:len(at.parts):len(at.parts)], ruleName(raw))
			w.dir(filepath.Join(path, raw), openPath+string(filepath.Separator)+raw, &id, false, below)
		}
	}
	if !w.several {
		delete(w.seen, id)
	}
}

// openOnce opens a folder not met yet and lists its entries by name; nil
// when it was met (a link's loop) or cannot be listed, which is said.
func (w *walker) openOnce(path, openPath string, parent *fileID, follow bool, at where) (*os.File, fileID, []dirent) {
	f, id, err := openDir(openPath, follow)
	if err == nil && parent != nil {
		err = checkParent(f, *parent)
	}
	var entries []dirent
	if err == nil && !w.seen[id] {
		entries, err = listDir(f)
	}
	if err != nil || w.seen[id] {
		if f != nil {
			f.Close()
		}
		if err != nil {
			w.unreadable(path, at, "", err)
		}
		return nil, id, nil
	}
	w.seen[id] = true
	return f, id, entries
}

// dirent is a name of a folder's listing and its type.
type dirent struct {
	name string
	typ  fs.FileMode
}

// listDir lists the open folder f, sorted by name. Each name is a copy
// made in that order, which the walk drops in that order once read: a
// flat folder of 100,000 learners frees whole pages of them as it goes,
// where os's DirEntry values, made in the disk's order, would all stay
// until the last (organisateurs.md, « Échelle »).
func listDir(f *os.File) ([]dirent, error) {
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	list := make([]dirent, len(entries))
	for i, e := range entries {
		list[i] = dirent{strings.Clone(e.Name()), e.Type()}
	}
	return list, err
}

// received notes a file that is not a submission, for a Moodle
// learner's no-acces-md.
func (w *walker) received(rs *receipts, moodle, learner, path, name string) {
	switch {
	case w.in != nil:
		w.in.add(name, w.in.online)
	case moodle != "":
		rs.at(moodle, learner, path).add(name, false)
	}
}

// levelBelow is at for the folders of the folder path, listing entries:
// the argument's folders are learners', and so are a container's (a lone
// folder holding folders and no submission, as an archive's top folder,
// or Classroom's "ASSIGNMENT-submissions"), never a Classroom repository's.
func (w *walker) levelBelow(path string, at where, entries []dirent) where {
	var folders []string
	stems := map[string]bool{}
	for _, e := range entries {
		if name := ruleName(e.name); e.typ.IsDir() && !ignoredFolder(name) {
			folders = append(folders, name)
		} else if !e.typ.IsDir() && IsSubmissionName(name) {
			stem, _ := copyStem(name)
			stems[stem] = true
		}
	}
	hasSub := len(stems) > 0
	at.mixed = len(stems) > 1
	n, name := len(at.parts), filepath.Base(path)
	if n > 0 {
		name = at.parts[n-1]
	}
	container := n == 0
	if at.ignored() {
		container = false // nobody's: its folders are no learners'
	} else if n == at.lv.skip+1 && !hasSub && !(n > 1 && isClassroomFolder(at.parts[n-2])) {
		container = isClassroomFolder(name) || at.lone && len(folders) > 0
	}
	if !container {
		at.lone = false
		return at
	}
	at.lv = level{skip: n, prefix: assignmentPrefix(name, folders)}
	at.lone, at.holder = len(folders) == 1 && !hasSub, path
	return at
}

// learnerFolder is the receipt of the folder path when it is a learner's
// and no folder above is (nil otherwise): her outermost Moodle folder, or
// a folder where the learners' are (below, as levelBelow says).
func (w *walker) learnerFolder(path string, at, below where) *receipt {
	if w.in != nil {
		return nil
	}
	if learner, moodle := at.of(""); moodle != "" {
		return &receipt{path: path, learner: learner, moodle: moodle, key: moodle, online: isOnlineText(filepath.Base(path))}
	}
	n := len(at.parts)
	switch {
	case n == 0 && len(at.outer) > 1 && isClassroomFolder(at.outer[len(at.outer)-2]):
		// One Classroom repository given: hers (arg).
		// Cleaned as the paths of its files are ("./depot/" → "depot").
		return &receipt{path: filepath.Clean(path), learner: at.fallback, key: folderKey(filepath.Clean(path)), container: filepath.Dir(path), classroom: true, repo: true}
	case n == 0 || n != at.lv.skip+1 || below.lv.skip == n || below.mixed || at.ignored():
		return nil
	}
	return &receipt{path: path, learner: loginOf(at.parts[n-1], at.lv.prefix), key: folderKey(path),
		container: at.holder, classroom: isClassroomFolder(filepath.Base(at.holder)), repo: isRepo(filepath.Base(at.holder), at.lv)}
}

// archive reads a .zip in place, each entry into memory to at most its
// cap: an entry named "../../x" is only ever a name. When dir is not nil
// the archive is the file name in that open folder, opened there.
func (w *walker) archive(dir *os.File, name, path string, follow bool, at where) {
	f, id, size, err := openArchive(dir, name, path, follow)
	if err != nil {
		w.unreadable(path, at, "", err)
		return
	}
	defer f.Close()
	if w.seen[id] {
		return
	}
	w.seen[id] = true
	// Counted before zip.NewReader, which would hold every record.
	windows, err := scanDirectory(f, size, maxArchiveEntries, maxCentralDirectory)
	if err != nil {
		w.unreadable(path, at, "", err)
		return
	}
	a := &zipRead{w: w, path: path, id: id, at: at, left: archiveBudget(size)}
	if _, moodle := at.of(filepath.Base(path)); moodle != "" {
		// A learner's own archive: its entries' times are hers to set,
		// so they are the archive's.
		if st, err := f.Stat(); err == nil {
			a.mod = st.ModTime().UnixNano()
		}
	}
	for k := range max(len(windows), 1) {
		v := io.NewSectionReader(f, 0, size)
		if windows != nil {
			v = windows[k].reader(f)
		}
		zr, err := zip.NewReader(v, v.Size())
		if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
			w.unreadable(path, at, "", err)
			return
		}
		a.read(zr.File)
	}
}

// zipRead is one archive being read.
type zipRead struct {
	w    *walker
	path string
	id   fileID
	at   where
	// left is what the entries, .pub included, may still inflate to
	// (archiveBudget), spent in the walk's order on what each header says
	// (archive/zip reads no more): the same entries are read on every run.
	left int64
	base int   // the index in the archive of the window's first entry
	mod  int64 // when not 0, the time of every entry: the archive's own
	lv   level // where the learners' folders are in the window (archiveLevel)
	// mixed are the learners' folders holding acces.md files of several
	// names: several learners' files, each a result, as on disk.
	mixed map[string]bool
}

// read reads the entries of one window of the archive (scanDirectory).
func (a *zipRead) read(files []*zip.File) {
	w := a.w
	var rs receipts
	pubFiles := pubIndex{}
	var found, scans []int // the submissions' indexes in files; the other files'
	a.findLearners(files)
	for i, zf := range files {
		dir, base := splitEntry(strings.TrimRight(zf.Name, `/\`))
		if pd, pb := splitEntry(strings.TrimRight(dir, `/\`)); strings.HasSuffix(pb, ".pub") {
			// "etu/k.pub/x": a folder named as the key, even with no entry
			// of its own, is bad-public-key as on disk.
			pubFiles.add(pd, pb, &zip.File{FileHeader: zip.FileHeader{Name: strings.TrimRight(dir, `/\`) + "/"}})
		}
		isDir := zf.FileInfo().IsDir()
		if ignoredEntry(zf.Name) {
			if !isDir {
				scans = append(scans, i) // nobody's hand-in, but a key there is a leak
			}
			a.metIgnored(zf.Name, &rs)
			continue
		}
		if !isDir && !IsSubmissionName(base) && !IsArchiveName(base) && !isOnlineTextEntry(zf.Name) && strings.IndexByte(zf.Name, 0) < 0 {
			scans = append(scans, i)
		}
		if strings.HasSuffix(base, ".pub") {
			pubFiles.add(dir, base, zf) // and received, as on disk: a lone .pub is no empty folder
		} else if !isDir && (IsSubmissionName(base) || strings.IndexByte(zf.Name, 0) >= 0 || isOnlineTextEntry(zf.Name)) {
			found = append(found, i)
			continue
		}
		a.received(zf, base, isDir, &rs)
	}
	slices.SortStableFunc(found, func(i, j int) int { return strings.Compare(files[i].Name, files[j].Name) })
	var pairs pubPairs // the .pub files of pairsDir, chosen once for a run of its entries
	pairsDir := "\x00"
	// Each .pub is inflated, and charged, once for the window.
	pubRead := map[*zip.File]*acces.PubFile{}
	for _, index := range found {
		zf := files[index]
		// The name shares the path's bytes: the window's names can go.
		p := a.path + "!/" + zf.Name
		name := p[len(p)-len(zf.Name):]
		dir, base := splitEntry(name)
		dir = cleanEntryDir(dir)
		learner, moodle, group := a.learner(name)
		it := item{path: p, entry: name, learner: learner, moodle: moodle, group: group, learnerFolder: dir != "", mod: a.mod,
			repo: group != "" && isRepo(a.container(), a.lv),
			id:   fileID{dev: a.id.dev, ino: a.id.ino, path: a.id.path, entry: a.base + index + 1}, online: isOnlineTextEntry(name)}
		if it.mod == 0 && !zf.Modified.IsZero() {
			it.mod = zf.Modified.UnixNano()
		}
		it.data, it.err = a.entry(zf, acces.MaxAccessSize)
		if dir != pairsDir {
			pairs, pairsDir = choosePubs(pubFiles[dir], w.keyName, path.Base(dir)), dir
		}
		if pn := pairs.pubFor(base); pubFiles[dir][pn] != nil {
			pz := pubFiles[dir][pn]
			if pubRead[pz] == nil {
				pubRead[pz] = &acces.PubFile{Name: pn}
				pubRead[pz].Data, _ = a.entry(pz, keys.MaxFileSize) // unreadable: a bad public key
			}
			it.pub = pubRead[pz]
		}
		w.send(it, &rs)
	}
	for _, r := range rs.order {
		if r.found && r.moodle == "" {
			w.filled[a.path] = true
		}
	}
	a.scanEntries(files, scans, pubRead)
	w.missing = append(w.missing, rs.unfound()...)
	a.base += len(files)
}

// pubIndex holds the .pub files of each archive folder (cleanEntryDir),
// paired as on disk.
type pubIndex map[string]map[string]*zip.File

func (x pubIndex) add(dir, base string, zf *zip.File) {
	dir = cleanEntryDir(dir)
	if x[dir] == nil {
		x[dir] = map[string]*zip.File{}
	}
	if _, ok := x[dir][base]; !ok {
		x[dir][base] = zf // two entries of one name: the first
	}
}

// findLearners decodes the window's entry names and finds where the
// learners' folders are among them.
func (a *zipRead) findLearners(files []*zip.File) {
	for _, zf := range files {
		zf.Name = entryName(zf.Name, zf.Flags)
	}
	a.lv = archiveLevel(files, strings.TrimSuffix(path.Base(filepath.ToSlash(a.path)), path.Ext(a.path)))
	a.mixed = mixedFolders(files, a.lv.skip)
}

// received notes an entry that is not a submission (base its name) for
// its learner's no-acces-md; an archive inside is said, never opened.
func (a *zipRead) received(zf *zip.File, base string, isDir bool, rs *receipts) {
	w := a.w
	learner, moodle, group := a.learner(zf.Name)
	switch {
	case !isDir && IsArchiveName(base):
		// Said, never opened: it could nest without end.
		w.send(item{path: a.path + "!/" + zf.Name, entry: zf.Name, learner: learner, moodle: moodle, err: errNestedArchive}, rs)
	case w.in != nil && !isDir:
		w.in.add(base, w.in.online)
	case w.in == nil && moodle != "":
		// Her folder, maybe empty, or a file of hers: her no-acces-md.
		r := rs.atEntry(moodle, learner, a.path, zf.Name)
		if parts := entryParts(zf.Name); !isDir {
			r.add(base, len(parts) > 1 && slices.ContainsFunc(parts[:len(parts)-1], isOnlineText))
		}
	case slices.ContainsFunc(entryParts(zf.Name), func(p string) bool { return p == "." || p == ".." }):
		// A folder spelt "etu/./" is not the group its acces.md names
		// ("etu/"): its receipt would be a learner of its own.
	case w.in == nil && group != "":
		if r := a.groupReceipt(rs, group, learner); !isDir {
			r.add(base, false)
		}
	}
}

// groupReceipt is the receipt of the learner's folder group, outside Moodle.
func (a *zipRead) groupReceipt(rs *receipts, group, learner string) *receipt {
	r := rs.atKey(folderKey(group), &receipt{path: group, learner: learner, key: folderKey(group), container: a.path,
		classroom: isClassroomFolder(a.container())})
	r.entry = strings.TrimPrefix(group, a.path+"!/")
	return r
}

// metIgnored notes the learner's folder of an entry that is nobody's
// hand-in (ignoredEntry), receiving nothing: a repository holding only
// .git is still hers, and no-acces-md, as on disk.
func (a *zipRead) metIgnored(name string, rs *receipts) {
	learner, moodle, group := a.learner(name)
	if a.w.in == nil && moodle == "" && group != "" && !ignoredEntry(strings.TrimPrefix(group, a.path+"!/")) {
		a.groupReceipt(rs, group, learner)
	}
}

// ignoredEntry reports whether an archive entry is nobody's hand-in:
// ignoredPath, or a folder's entry inside one.
func ignoredEntry(name string) bool {
	parts := entryParts(name)
	if len(parts) == 0 {
		return false
	}
	if strings.HasSuffix(name, "/") || strings.HasSuffix(name, `\`) {
		return slices.ContainsFunc(parts, ignoredFolder)
	}
	return ignoredPath(parts[:len(parts)-1], parts[len(parts)-1])
}

// atEntry is the receipt of a Moodle learner's entry name in archive: at
// her outermost Moodle folder there, or the entry itself in a flat export.
func (rs *receipts) atEntry(moodle, learner, archive, name string) *receipt {
	r := rs.at(moodle, learner, entryPlace(archive, name))
	r.entry = strings.TrimPrefix(r.path, archive+"!/")
	return r
}

// entryPlace is where a Moodle learner's entry was handed in (atEntry).
func entryPlace(archive, name string) string {
	parts := entryParts(name)
	isDir := strings.HasSuffix(name, "/") || strings.HasSuffix(name, `\`)
	for k, p := range parts {
		if _, _, ok := moodleLearner(p); ok {
			if k == len(parts)-1 && !isDir {
				break // her file, in a flat export
			}
			return archive + "!/" + strings.Join(parts[:k+1], "/") + "/"
		}
	}
	return archive + "!/" + name
}

// learner names who handed in the entry name, and outside Moodle her
// folder as shown ("" none).
func (a *zipRead) learner(name string) (learner, moodle, group string) {
	parts := entryParts(name)
	if len(parts) == 0 {
		return a.at.fallback, "", ""
	}
	if strings.HasSuffix(name, "/") || strings.HasSuffix(name, `\`) {
		parts = append(parts, "") // a folder's entry: the folder is in the path
	}
	learner, moodle, depth := learnerAt(a.at.outer, parts, a.lv, a.at.fallback)
	if depth > 0 && !a.mixed[parts[depth-1]] {
		group = a.path + "!/" + partsPrefix(name, depth)
	}
	return learner, moodle, group
}

// partsPrefix is name up to the end of its first n parts (entryParts)
// and the separator after them, as spelt: a prefix of every entry of
// that folder, so the group of a result is a prefix of its path.
func partsPrefix(name string, n int) string {
	i := 0
	for k := 0; k < n && i < len(name); k++ {
		for i < len(name) && (name[i] == '/' || name[i] == '\\') {
			i++
		}
		for i < len(name) && name[i] != '/' && name[i] != '\\' {
			i++
		}
	}
	if i < len(name) {
		return name[:i+1]
	}
	return name + "/"
}

// container is the name of the folder holding the learners' folders.
func (a *zipRead) container() string {
	if a.lv.skip == 0 {
		return strings.TrimSuffix(path.Base(filepath.ToSlash(a.path)), path.Ext(a.path))
	}
	return a.lv.holder
}

// archiveLevel finds the learners' folders among an archive's entries as
// levelBelow does on disk: below the lone folders that hold folders and
// no submission (an archive's top folder), or a Classroom
// "ASSIGNMENT-submissions" folder. name is the archive's, without .zip.
func archiveLevel(files []*zip.File, name string) level {
	skip := 0
	for !isClassroomFolder(name) || skip == 0 {
		folders, hasSub := entriesAt(files, skip)
		if hasSub || len(folders) != 1 {
			break
		}
		inner, innerSub := entriesAt(files, skip+1)
		if innerSub || len(inner) == 0 {
			break
		}
		name, skip = folders[0], skip+1
	}
	folders, _ := entriesAt(files, skip)
	return level{skip: skip, prefix: assignmentPrefix(name, folders), holder: name}
}

// mixedFolders are the folders at depth skip that hold, directly,
// acces.md files of several names (not copies of one).
func mixedFolders(files []*zip.File, skip int) map[string]bool {
	stems := map[string]string{}
	mixed := map[string]bool{}
	for _, zf := range files {
		parts := slices.DeleteFunc(entryParts(zf.Name), func(p string) bool { return p == "." })
		if len(parts) != skip+2 || !IsSubmissionName(parts[skip+1]) || zf.FileInfo().IsDir() {
			continue
		}
		stem, _ := copyStem(parts[skip+1])
		if old, ok := stems[parts[skip]]; ok && old != stem {
			mixed[parts[skip]] = true
		}
		stems[parts[skip]] = stem
	}
	return mixed
}

// entriesAt are the folders at depth skip of the entries (each once, in
// order, those of levelBelow's ignoredFolder left out), and whether a
// submission sits at that depth.
func entriesAt(files []*zip.File, skip int) (folders []string, hasSub bool) {
	seen := map[string]bool{}
	for _, zf := range files {
		parts := slices.DeleteFunc(entryParts(zf.Name), func(p string) bool { return p == "." })
		isDir := zf.FileInfo().IsDir() || strings.HasSuffix(zf.Name, "/")
		switch {
		case len(parts) > skip+1 || len(parts) == skip+1 && isDir:
			if f := parts[skip]; !seen[f] && !ignoredFolder(f) {
				seen[f] = true
				folders = append(folders, f)
			}
		case len(parts) == skip+1 && IsSubmissionName(parts[skip]):
			hasSub = true
		}
	}
	return folders, hasSub
}

// entry inflates zf, at most limit bytes, charged to the archive's
// budget; a link, a folder, an encrypted entry or a NUL in the name is
// refused first.
func (a *zipRead) entry(zf *zip.File, limit int64) ([]byte, error) {
	switch {
	case strings.IndexByte(zf.Name, 0) >= 0:
		return nil, errNULName
	case zf.Mode()&fs.ModeSymlink != 0:
		return nil, errSymlink
	case zf.FileInfo().IsDir():
		return nil, errIsDir
	case zf.Flags&0x1 != 0:
		return nil, errEncrypted
	case a.left <= 0:
		return nil, errBudget
	case zf.UncompressedSize64 > uint64(limit):
		// Refused from its header, charged as if inflated to the cap.
		a.left -= limit + 1
		return nil, errTooLarge
	}
	a.left -= int64(zf.UncompressedSize64)
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = errTooLarge
	}
	if err != nil {
		return nil, err // never part of an entry
	}
	return data, nil
}

// archiveBudget is what one archive's entries may inflate to in all: a
// learner's text compresses far less than 20:1, a shared-stream bomb
// thousands to one.
func archiveBudget(size int64) int64 { return 16<<20 + 20*size }

// entryParts splits an entry name on both separators: archives made on
// Windows may use backslashes.
func entryParts(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '\\' })
}

// cleanEntryDir is an entry's folder as path.Clean reads it, with a
// trailing "/" ("etu2//" is "etu2/", "./" is ""); ".." never goes above
// the root.
func cleanEntryDir(dir string) string {
	if c := path.Clean("/" + strings.ReplaceAll(dir, `\`, "/")); c != "/" {
		return c[1:] + "/"
	}
	return ""
}

func splitEntry(name string) (dir, base string) {
	i := strings.LastIndexAny(name, `/\`)
	return name[:i+1], name[i+1:]
}
