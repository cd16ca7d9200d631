package submissions

import (
	"archive/zip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

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

// placeSet is the folders and archives the walk has read. Where the
// system gives a device and an inode, they are the key, pointer-free:
// the set of 100,000 folders is a block the collector never scans, and
// a third of the size of one keyed by fileID. Elsewhere, the path.
type placeSet struct {
	inodes map[[2]uint64]struct{}
	others map[fileID]struct{}
}

// add adds id and reports whether it was not in the set already.
func (s *placeSet) add(id fileID) bool {
	if id.path == "" && id.entry == 0 {
		k := [2]uint64{id.dev, id.ino}
		if _, ok := s.inodes[k]; ok {
			return false
		}
		if s.inodes == nil {
			s.inodes = map[[2]uint64]struct{}{}
		}
		s.inodes[k] = struct{}{}
		return true
	}
	if _, ok := s.others[id]; ok {
		return false
	}
	if s.others == nil {
		s.others = map[fileID]struct{}{}
	}
	s.others[id] = struct{}{}
	return true
}

func (id fileID) String() string {
	return strconv.FormatUint(id.dev, 16) + ":" + strconv.FormatUint(id.ino, 16) + ":" + id.path
}

// source is one submission found, not read yet, or a place that could not
// be read at all (fail).
type source struct {
	path    string // as shown: "rendus/kim/acces.md", "lot.zip!/kim/acces.md"
	archive string // for an archive entry: the archive's path
	entry   string // and the entry's name
	learner string
	group   groupKey // who the file counts as for duplicate fingerprints
	fail    error
	read    func(buf []byte) ([]byte, fileID, error)
	pub     func() *acces.PubFile // nil: no .pub beside it
	done    func()                // called once the source is read
	seq     int32                 // the order the walk met it (set by Read)
}

// walker expands the command line into sources. Folders and archives met
// twice (one tree under two spellings, a folder inside another argument)
// are read once.
type walker struct {
	keyName string
	emit    func(source)
	// flush hands out the sources emitted and not yet handed out.
	flush    func()
	dirSlots chan struct{} // folders open; nil: no bound
	list     listScratch   // where folders are listed
	seen     placeSet
}

func (w *walker) unreadable(path, learner string, err error) {
	w.emit(source{path: path, learner: learner, fail: err})
}

// arg reads one command-line argument: it may be a link, the organiser's
// own choice, so it is followed.
func (w *walker) arg(arg string) {
	abs, _ := filepath.Abs(arg)
	folder := filepath.Base(filepath.Dir(abs))
	// The folders above the argument: a Moodle name there names the
	// learner of everything below it, however deep the argument points
	// ("…_assignsubmission_file_/a/b/acces.md" is that learner's).
	above := strings.Split(filepath.ToSlash(filepath.Dir(abs)), "/")
	st, err := os.Stat(arg)
	switch {
	case err != nil:
		w.unreadable(arg, folder, err)
	case st.IsDir():
		root := filepath.Base(abs)
		if _, _, ok := moodleLearner(root); !ok {
			if l, _, ok := lastMoodleName(above); ok {
				root = l
			}
		}
		w.dir(arg, nil, true, root)
	case IsArchiveName(arg) && st.Mode().IsRegular():
		w.archive(arg, true, strings.TrimSuffix(filepath.Base(arg), filepath.Ext(arg)), above)
	default:
		// A file named on the command line is read whatever its name.
		learner, moodle := learnerOf([]string{filepath.Base(arg)}, folder)
		if moodle == "" {
			if l, k, ok := lastMoodle(above); ok {
				learner, moodle = l, k
			}
		}
		group := "f:" + filepath.Dir(abs)
		if id, err := statID(filepath.Dir(abs)); err == nil {
			group = "d:" + id.String()
		}
		// Known as its folder and name once links are resolved, as the
		// walk knows the files it meets: a file named here and met again
		// in a folder is read once.
		id := fileID{path: arg}
		if real, err := filepath.EvalSymlinks(arg); err == nil {
			if did, err := statID(filepath.Dir(real)); err == nil {
				did.path = filepath.Base(real)
				id = did
			}
		}
		s := w.diskFile(arg, true, learner, groupKey{group, filepath.Base(arg), moodle, false}, id)
		if !st.Mode().IsRegular() {
			// A FIFO, socket or device named here is not opened either.
			s.read = refusedFile(arg, learner, id).read
		}
		if entries, err := os.ReadDir(filepath.Dir(arg)); err == nil {
			s.pub = diskPub(filepath.Dir(arg), nil, choosePubs(listingOf(entries).pubNames(), w.keyName).pubFor(filepath.Base(arg)))
		}
		w.emit(s)
	}
}

// refusedFile is a FIFO, socket or device where a submission was
// looked for: reported as the reader reports one ("fichier illisible :
// ce n'est pas un fichier ordinaire…"), never opened — opening a FIFO
// releases a writer waiting on it (organisateurs.md: FIFOs, sockets and
// devices are never opened).
func refusedFile(path, learner string, id fileID) source {
	err := safefile.NotRegular(path, safefile.Access)
	return source{path: path, learner: learner, read: func([]byte) ([]byte, fileID, error) { return nil, id, err }}
}

// diskFile reads through safefile, pret's one bounded reader: regular
// files only, opened without blocking, at most acces.md's cap.
func (w *walker) diskFile(path string, follow bool, learner string, group groupKey, id fileID) source {
	return source{
		path: path, learner: learner, group: group,
		read: func(buf []byte) ([]byte, fileID, error) {
			data, err := safefile.ReadInto(path, safefile.Access, safefile.Follow(follow), buf)
			return data, id, err
		},
	}
}

// dir walks a folder. parts are the folder names below the argument;
// rootName names the learner of files at the top.
//
// Its files are read by name in the folder opened here (openat), not by
// path: the kernel looks up one name, not the whole path again, and a
// folder swapped in at the same path after the listing is not read. The
// folder stays open until its last file is read, so the walk first
// hands out the files of a folder, then goes down into its subfolders:
// only the folders whose files are in flight are open at once.
func (w *walker) dir(path string, parts []string, follow bool, rootName string) {
	w.dirIn(nil, path, path, parts, follow, rootName)
}

// dirIn is dir for a subfolder of the folder whose id is parent: once
// open, the folder must be a child of that very folder (its ".." is
// it), or a folder on the way was swapped for a link meanwhile and
// the walk would read outside the tree: it is refused.
//
// path is the folder as reports show it, cleaned (filepath.Join);
// openPath is the way the kernel is asked for it: the argument as typed
// then names, never cleaned, so that an argument through a link and
// ".." ("a/lien/../b") leads to the folder the kernel listed, not to
// the one its cleaned spelling names.
func (w *walker) dirIn(parent *fileID, path, openPath string, parts []string, follow bool, rootName string) {
	// The learner of a folder that cannot be read: that of a file in it.
	folderLearner := func() string {
		l, _ := learnerOf(append(parts[:len(parts):len(parts)], ""), rootName)
		return l
	}
	w.acquireDir()
	f, id, err := openDir(openPath, follow)
	if err == nil && parent != nil {
		if err = checkParent(f, *parent); err != nil {
			f.Close()
		}
	}
	if err != nil {
		w.releaseDir()
		w.unreadable(path, folderLearner(), err)
		return
	}
	l, err := listDir(f, &w.list)
	if err != nil {
		f.Close()
		w.releaseDir()
		w.unreadable(path, folderLearner(), err)
		return
	}
	if !w.seen.add(id) {
		f.Close()
		w.releaseDir()
		return
	}
	f.Fd() // once, before the workers read through it (safefile.ReadIn)
	// The walk holds one use of the folder until its files are handed
	// out; each file read holds one until it is read.
	var pending atomic.Int64
	pending.Store(1)
	release := func() {
		if pending.Add(-1) == 0 {
			f.Close()
			w.releaseDir()
		}
	}
	// Files count as one learner's when they are one name and its copies
	// in one folder below the argument (acces.md beside "acces (1).md"),
	// or carry one Moodle name and id (learnerGroup); directly in the
	// argument, each file is its own learner. Two folders are two
	// learners, however deep they sit: the first folder under the
	// argument may be a group.
	group := "d:" + id.String()
	pubs := choosePubs(l.pubNames(), w.keyName)
	prefix := joinPrefix(path)
	// One slice for every file's parts: learnerOf reads them, keeps none.
	sub := append(make([]string, 0, len(parts)+1), parts...)
	for _, e := range l.ents {
		raw := l.nameOf(e)
		t := e.typ
		if t.IsDir() {
			continue // gone down into once the files are handed out
		}
		p := prefix + raw
		name := ruleName(raw) // the rule and the learner's name read UTF-8
		sub := append(sub[:len(parts)], name)
		switch {
		case t&fs.ModeSymlink != 0:
			// Never followed. Reported when its name is a submission's or
			// an archive's, so that no hand-in is skipped unsaid; any other
			// link (a folder alias, "here -> .") is not a submission and
			// is passed over like any other file.
			if IsSubmissionName(name) || IsArchiveName(name) {
				l, _ := learnerOf(sub, rootName)
				w.unreadable(p, l, errSymlink)
			}
		case IsSubmissionName(name) && !t.IsRegular():
			// A FIFO, socket or device is never opened (organisateurs.md):
			// opening a FIFO would release a writer waiting on it. One
			// swapped in after the listing is opened without blocking,
			// and refused.
			l, _ := learnerOf(sub, rootName)
			fid := id
			fid.path = raw
			w.emit(refusedFile(p, l, fid))
		case IsSubmissionName(name):
			l, moodle := learnerOf(sub, rootName)
			fid := id
			fid.path = raw // folders are read once, so folder and name tell files apart
			pending.Add(1)
			s := source{
				path: p, learner: l, group: groupKey{group, name, moodle, len(parts) > 0},
				read: func(buf []byte) ([]byte, fileID, error) {
					data, err := safefile.ReadIn(f, raw, p, safefile.Access, buf)
					return data, fid, err
				},
				done: release,
			}
			s.pub = diskPub(path, f, pubs.pubFor(raw))
			w.emit(s)
		case IsArchiveName(name) && t.IsRegular():
			w.archiveIn(f, raw, p, false, strings.TrimSuffix(name, filepath.Ext(name)), append([]string{rootName}, parts...))
		}
	}
	release()
	for _, e := range l.ents {
		if !e.typ.IsDir() {
			continue
		}
		raw := l.nameOf(e)
		w.dirIn(&id, filepath.Join(path, raw), openPath+string(filepath.Separator)+raw, append(parts[:len(parts):len(parts)], ruleName(raw)), false, rootName)
	}
}

// joinPrefix is what filepath.Join(dir, name) puts before name, for
// any name a folder lists (no separator, neither "." nor ".."): the
// folder cleaned once, not the whole path again for each file.
func joinPrefix(dir string) string {
	return strings.TrimSuffix(filepath.Join(dir, "x"), "x")
}

// maxOpenDirs bounds the folders open at once: those whose files are
// read or waiting to be, and the one being listed.
const maxOpenDirs = 64

// acquireDir waits for room to open one more folder. The batch being
// filled goes to the workers first: the folders it holds open are
// released only once it is read.
func (w *walker) acquireDir() {
	if w.dirSlots == nil {
		return
	}
	select {
	case w.dirSlots <- struct{}{}:
		return
	default:
	}
	if w.flush != nil {
		w.flush()
	}
	w.dirSlots <- struct{}{}
}

func (w *walker) releaseDir() {
	if w.dirSlots != nil {
		<-w.dirSlots
	}
}

// diskPub reads the .pub chosen for a submission: by name in the open
// folder it was listed in (dir, when the walk has it), else by path.
func diskPub(dirPath string, dir *os.File, name string) func() *acces.PubFile {
	if name == "" {
		return nil
	}
	return func() *acces.PubFile {
		var data []byte
		var err error
		if dir != nil {
			data, err = safefile.ReadIn(dir, name, filepath.Join(dirPath, name), safefile.Key, nil)
		} else {
			data, err = safefile.Read(filepath.Join(dirPath, name), safefile.Key, safefile.NoFollow)
		}
		if err != nil {
			data = nil // unreadable or too large: reported as a bad public key
		}
		return &acces.PubFile{Name: name, Data: data}
	}
}

// archive reads a .zip in place: entries are decompressed into memory,
// each to at most MaxAccessSize+1 bytes, and nothing is written to disk,
// so an entry named "../../x" or "/etc/x" is only ever a name.
// outer is the path down to the archive (the argument's name, the
// folders below it): a Moodle name there names the entries' learner.
func (w *walker) archive(path string, follow bool, rootName string, outer []string) {
	w.archiveIn(nil, "", path, follow, rootName, outer)
}

// archiveIn is archive for the archive name in the open folder dir,
// when dir is not nil: it is opened there, never through a path a
// folder swapped for a link could lead elsewhere.
func (w *walker) archiveIn(dir *os.File, name, path string, follow bool, rootName string, outer []string) {
	var f *os.File
	var id fileID
	var size int64
	var err error
	if dir != nil {
		f, id, size, err = openArchiveIn(dir, name, path)
	} else {
		f, id, size, err = openArchive(path, follow)
	}
	if err != nil {
		w.unreadable(path, rootName, err)
		return
	}
	if !w.seen.add(id) {
		f.Close()
		return
	}
	// Counted before zip.NewReader, which would hold every record.
	if err := checkArchiveSize(f, size); err != nil {
		f.Close()
		w.unreadable(path, rootName, err)
		return
	}
	zr, err := zip.NewReader(f, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		f.Close()
		w.unreadable(path, rootName, err)
		return
	}
	for _, zf := range zr.File {
		zf.Name = entryName(zf.Name, zf.Flags)
	}
	// The .pub files of each archive folder, paired as on disk; folders
	// as path.Clean reads them ("etu2//", "etu3/./" are "etu2/", "etu3/").
	pubFiles := map[string]map[string]*zip.File{}
	for _, zf := range zr.File {
		dir, base := splitEntry(zf.Name)
		if !strings.HasSuffix(base, ".pub") || zf.Mode()&fs.ModeSymlink != 0 || zf.FileInfo().IsDir() {
			continue
		}
		dir = cleanEntryDir(dir)
		if pubFiles[dir] == nil {
			pubFiles[dir] = map[string]*zip.File{}
		}
		if _, ok := pubFiles[dir][base]; !ok {
			pubFiles[dir][base] = zf // two entries of one name: the first
		}
	}
	pubs := map[string]pubPairs{}
	for dir, files := range pubFiles {
		names := make([]string, 0, len(files))
		for n := range files {
			names = append(names, n)
		}
		pubs[dir] = choosePubs(names, w.keyName)
	}
	// Every *zip.File points to the Reader, whose list holds them all:
	// an entry stays alive while any other does. Each entry leaves the
	// list once it is no longer needed — at once when it is not a
	// submission (a .pub stays in pubs), when its source is handed out
	// for a submission — so that memory follows the entries in flight,
	// not the archive's size (organisateurs.md, Scale).
	var found []int
	for i, zf := range zr.File {
		_, base := splitEntry(zf.Name)
		switch {
		case zf.FileInfo().IsDir():
		case IsSubmissionName(base):
			found = append(found, i)
			continue
		case IsArchiveName(base):
			// Read one level only: an archive inside an archive is said,
			// never opened (it could nest without end).
			learner, _ := entryLearner(entryParts(zf.Name), outer, rootName)
			w.emit(source{path: path + "!/" + zf.Name, archive: path, entry: zf.Name, learner: learner, fail: errNestedArchive})
		}
		zr.File[i] = nil
	}
	// Every entry read costs its inflating: one budget per archive, in
	// proportion to its size, so that many entries sharing one deflate
	// stream cost no more than a few of them. It is spent here, in the
	// walk's order, on what each entry's header says it inflates to
	// (archive/zip reads no more than that: ErrFormat), so the entries
	// read are the same on every run, whatever the workers do.
	left := archiveBudget(size)
	sort.SliceStable(found, func(a, b int) bool { return zr.File[found[a]].Name < zr.File[found[b]].Name })
	// The archive stays open until its last entry is read.
	var pending atomic.Int64
	pending.Store(int64(len(found)) + 1)
	release := func() {
		if pending.Add(-1) == 0 {
			f.Close()
		}
	}
	for _, i := range found {
		zf := zr.File[i]
		zr.File[i] = nil // the source holds it until it is read
		dir, base := splitEntry(zf.Name)
		parts := entryParts(zf.Name)
		learner, moodle := entryLearner(parts, outer, rootName)
		// A learner read from the entry's name is a slice of it: its own
		// copy lets the name go once the entry is read.
		learner = strings.Clone(learner)
		s := source{
			path: path + "!/" + zf.Name, archive: path, entry: zf.Name,
			learner: learner, group: groupKey{"z:" + id.String() + "!/" + cleanEntryDir(dir), base, moodle, cleanEntryDir(dir) != ""},
			done: release,
		}
		entryID := id
		entryID.entry = i + 1
		if zf.Mode()&fs.ModeSymlink != 0 {
			s.read = func([]byte) ([]byte, fileID, error) { return nil, entryID, errSymlink }
		} else if left <= 0 {
			s.read = func([]byte) ([]byte, fileID, error) { return nil, entryID, errBudget }
		} else {
			left -= entryCost(zf)
			s.read = func(buf []byte) ([]byte, fileID, error) {
				data, err := readEntry(zf, acces.MaxAccessSize, buf)
				return data, entryID, err
			}
		}
		if pz := pubFiles[cleanEntryDir(dir)][pubs[cleanEntryDir(dir)].pubFor(base)]; pz != nil {
			s.pub = func() *acces.PubFile {
				data, err := readEntry(pz, keys.MaxFileSize, nil)
				if err != nil {
					data = nil
				}
				return &acces.PubFile{Name: entryBase(pz.Name), Data: data}
			}
		}
		w.emit(s)
	}
	release()
}

// archiveBudget is how many bytes the entries of one archive may inflate
// to in all: 16 MiB, plus twenty times the archive's size. Text a learner
// writes compresses far less than twenty to one; a bomb of entries that
// share one stream compresses thousands to one.
func archiveBudget(size int64) int64 { return 16<<20 + 20*size }

// entryCost is what reading zf may inflate: what its header says, or
// for an entry over the cap, the cap and one byte, as if inflated to it
// and dropped (readEntry refuses it from its header alone; counting it
// keeps an archive of such entries from being cheap).
func entryCost(zf *zip.File) int64 {
	if zf.UncompressedSize64 > acces.MaxAccessSize {
		return acces.MaxAccessSize + 1
	}
	return int64(zf.UncompressedSize64)
}

// readEntry decompresses one entry into buf, reading at most limit+1
// bytes whatever its header claims: a zip bomb costs one buffer.
func readEntry(zf *zip.File, limit int64, buf []byte) ([]byte, error) {
	if zf.UncompressedSize64 > uint64(limit) {
		return nil, errTooLarge
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	if want := int(zf.UncompressedSize64) + 1; cap(buf) < want {
		buf = make([]byte, 0, want)
	}
	buf = buf[:0]
	lr := io.LimitReader(rc, limit+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, errTooLarge
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// entryParts splits an entry name on both separators: archives made on
// Windows may use backslashes.
func entryParts(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '\\' })
}

// cleanEntryDir is an entry's folder as path.Clean reads it, with a
// trailing "/": "etu2//" and "etu3/./" are "etu2/" and "etu3/", the root
// ("./", "") is "". A ".." goes up within the archive and never above
// its root: the name stays only a name.
func cleanEntryDir(dir string) string {
	var kept []string
	for _, p := range entryParts(dir) {
		switch p {
		case ".":
		case "..":
			if len(kept) > 0 {
				kept = kept[:len(kept)-1]
			}
		default:
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return strings.Join(kept, "/") + "/"
}

func splitEntry(name string) (dir, base string) {
	i := strings.LastIndexAny(name, `/\`)
	return name[:i+1], name[i+1:]
}

func entryBase(name string) string { _, b := splitEntry(name); return b }
