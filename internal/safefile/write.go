package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ErrExists is a name WriteNew found taken: it never replaces a file,
// even one that appeared a moment ago.
var ErrExists = errors.New("le fichier existe déjà ; il n'est jamais remplacé")

// Pending is a file fully written and synced under a temporary name in
// its target folder, waiting for its final name.
type Pending struct {
	tmp, path string
}

// stage writes data to a temporary file beside path, created exclusively
// and readable by its owner alone while it is written (mode 0600, or an
// owner-only ACL on Windows), then given perm, and syncs it. Nothing is
// at path yet. like, when not nil, is the file the staged one will
// replace, whose owner it takes where the system lets pret give it.
func stage(path string, data []byte, perm os.FileMode, like fs.FileInfo) (*Pending, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := createStaged(dir, "."+base+".tmp-", perm)
	if err != nil {
		return nil, PathError(dir, err)
	}
	if err := fill(f, data, like); err != nil {
		os.Remove(f.Name())
		return nil, PathError(path, err)
	}
	return &Pending{tmp: f.Name(), path: path}, nil
}

// fill writes data to a staged file, new and owner-only, gives it the
// owner of the file it will replace (like, when pret may) and syncs and
// closes it: what every writer does before the file takes its name.
func fill(f *os.File, data []byte, like fs.FileInfo) error {
	if like != nil {
		keepOwner(f, like)
	}
	_, err := f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}

// Link gives the staged file its final name, failing with ErrExists (or
// ErrSymlink for a link) when the name is taken: nothing is ever replaced
// or written through a link (link(2) on Unix, a rename without
// replacement on Windows).
func (p *Pending) Link() error {
	if err := linkNew(p.tmp, p.path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			if st, lerr := os.Lstat(p.path); lerr == nil && IsLink(p.path, st) {
				return &Error{Path: p.path, Reason: ErrSymlink.Error(), Err: ErrSymlink}
			}
			return &Error{Path: p.path, Reason: ErrExists.Error(), Err: ErrExists}
		}
		return PathError(p.path, err)
	}
	return nil
}

// Discard removes the temporary file, if it is still there.
func (p *Pending) Discard() { os.Remove(p.tmp) }

// WriteReplace writes data to what path names, whole or not at all, the
// way a careful user expects of an output file (acces.md, its state,
// reports, man pages; never a key):
//   - nothing there, or a regular file: a staged file takes the name by a
//     rename, so a reader sees the old file or the new one, never a mix.
//     A regular file keeps its permission bits (0600 stays 0600; a
//     read-only 0444 file you may rename over is replaced, as mv does,
//     and stays 0444) and, when pret runs as root, its owner;
//   - a symbolic link is followed: the file it names is replaced (staged
//     in that file's folder), the link stays; a dangling link creates the
//     file it names, as a shell's ">" would;
//   - a character device (/dev/null, a terminal, /dev/stdout) or a FIFO
//     is written into, never replaced: opened for writing without
//     creating or truncating, the FIFO without waiting for a reader
//     (none: an error, no hang); a write error (ENOSPC on /dev/full) is
//     an error wrapping ErrIncomplete, since a part may have gone out;
//   - a folder, a socket, a block device or anything else is refused
//     (ErrUnwritableKind) and nothing changes.
//
// It never lands in the key folder or below it, even when a folder on
// the path is swapped for a link to it while pret runs: on Unix the
// folder is opened once, checked as an open folder and written in with
// openat and renameat (replace_unix.go); on Windows the path is checked
// just before the rename. Callers check the path first (CheckTree) for
// the person's message; this is the guarantee.
func (p Protected) WriteReplace(path string, data []byte, perm os.FileMode) error {
	st, err := os.Stat(path)
	switch {
	case err == nil && !st.Mode().IsRegular():
		return writeInto(path, st, data)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return PathError(path, err)
	}
	target := path
	if lst, lerr := os.Lstat(path); lerr == nil && IsLink(path, lst) {
		// The rename happens where the file is, so the link stays.
		target = resolve(path)
	}
	var like fs.FileInfo
	if err == nil {
		like = st
		if keepsPerm {
			perm = st.Mode().Perm()
		}
	}
	return p.replaceAt(target, data, perm, like)
}

// ErrIncomplete is a write into a device or a FIFO that failed after it
// began: unlike a replaced file, part of the data may have gone out.
var ErrIncomplete = errors.New("écriture interrompue")

// ErrNoReader is a FIFO nobody reads: writing would wait for one.
var ErrNoReader = errors.New("aucun programme ne lit ce tube nommé ; rien n'a été écrit")

// ErrUnwritableKind is an output path that is neither a regular file, a
// character device nor a FIFO: a folder, a socket, a block device.
var ErrUnwritableKind = errors.New("ni un fichier ordinaire, ni un périphérique caractère, ni un tube nommé : pret n'y écrit pas ; rien n'a été écrit")

// WritableKind tells whether WriteReplace would write at a path whose
// os.Stat is st: a regular file, a character device or a FIFO.
func WritableKind(st fs.FileInfo) bool {
	m := st.Mode()
	return m.IsRegular() || m&fs.ModeNamedPipe != 0 || (m&fs.ModeDevice != 0 && m&fs.ModeCharDevice != 0)
}

// writeInto writes data into the character device or FIFO at path,
// opened without O_CREAT or O_TRUNC, and refuses every other kind. The
// kind is checked again on the open file, so a name swapped in between
// is never truncated nor replaced.
func writeInto(path string, st fs.FileInfo, data []byte) error {
	if st.IsDir() {
		return &Error{Path: path, Reason: "c'est un dossier : pret y écrirait un fichier sans nom ; rien n'a été écrit", Err: ErrUnwritableKind}
	}
	if !WritableKind(st) {
		return &Error{Path: path, Reason: ErrUnwritableKind.Error(), Err: ErrUnwritableKind}
	}
	fifo := st.Mode()&fs.ModeNamedPipe != 0
	f, err := os.OpenFile(path, os.O_WRONLY|deviceFlags, 0)
	if err != nil {
		if fifo && errors.Is(err, syscall.ENXIO) { // open(O_WRONLY|O_NONBLOCK), no reader
			return &Error{Path: path, Reason: ErrNoReader.Error(), Err: errors.Join(ErrNoReader, err)}
		}
		return PathError(path, err)
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !WritableKind(now) || now.Mode().IsRegular() || now.Mode().Type() != st.Mode().Type() {
		return &Error{Path: path, Reason: "le fichier a changé de nature pendant l'écriture ; rien n'a été écrit", Err: ErrUnwritableKind}
	}
	if _, err = f.Write(data); err == nil {
		err = f.Close()
	}
	if err != nil {
		return &Error{Path: path, Reason: ErrIncomplete.Error() + " : " + Reason(err), Err: errors.Join(ErrIncomplete, err)}
	}
	return nil
}

// SyncDir makes a new name in dir durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return PathError(dir, err)
	}
	defer d.Close()
	// Some file systems refuse fsync on a folder; the data itself is synced.
	_ = d.Sync()
	return nil
}
