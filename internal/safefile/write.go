package safefile

import (
	"bufio"
	"cmp"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

var (
	// ErrExists is a name WriteNew found taken: it never replaces a file.
	ErrExists = errors.New("le fichier existe déjà ; il n'est jamais remplacé")
	// ErrIncomplete is a write into a device or a FIFO that failed after it
	// began: unlike a replaced file, part of the data may have gone out.
	ErrIncomplete = errors.New("écriture interrompue")
	// ErrNoReader is a FIFO nobody reads: writing would wait for one.
	ErrNoReader = errors.New("aucun programme ne lit ce tube nommé ; rien n'a été écrit")
	// ErrUnwritableKind is a folder, a socket, a block device.
	ErrUnwritableKind = errors.New("ni un fichier ordinaire, ni un périphérique caractère, ni un tube nommé : pret n'y écrit pas ; rien n'a été écrit")
	// ErrBusy is a folder another pret kept locked longer than LockDir waits.
	ErrBusy = errors.New("un autre pret écrit dans ce dossier en ce moment")
)

// Dir is the folder of path as the system finds it: filepath.Dir cleans
// "link/../f" to ".", where the system follows link before "..", so a
// file would be written elsewhere than the path it is named by.
func Dir(path string) string {
	dir, _ := filepath.Split(path)
	if t := strings.TrimRight(dir, string(filepath.Separator)); t != "" {
		return t
	}
	return cmp.Or(dir, ".") // "/" stays the root
}

// Pending is a file written and synced under a temporary name beside path.
type Pending struct{ tmp, path string }

// stage writes (with write) and syncs a new temporary file beside path,
// given perm; like, when not nil, is the file it will replace.
func stage(path string, write func(io.Writer) error, perm os.FileMode, like fs.FileInfo) (*Pending, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := createStaged(dir, "."+base+".tmp-", perm)
	if err != nil {
		return nil, PathError(dir, err)
	}
	if err := fill(f, write, like); err != nil {
		os.Remove(f.Name())
		return nil, PathError(path, err)
	}
	return &Pending{tmp: f.Name(), path: path}, nil
}

// fill gives f the owner of like (if any), writes, syncs and closes it.
func fill(f *os.File, write func(io.Writer) error, like fs.FileInfo) error {
	if like != nil {
		keepOwner(f, like)
	}
	err := buffered(f, write)
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}

// buffered streams write into f in blocks: a report is written in many
// small pieces, and never held whole (organisateurs.md, « Échelle »).
func buffered(f *os.File, write func(io.Writer) error) error {
	b := bufio.NewWriterSize(f, 64<<10)
	if err := write(b); err != nil {
		return err
	}
	return b.Flush()
}

// from writes data, for the callers that hold it whole.
func from(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

// Link gives the staged file its final name, failing with ErrExists (or
// ErrSymlink for a link) when the name is taken: nothing is replaced.
func (p *Pending) Link() error {
	err := linkNew(p.tmp, p.path)
	if !errors.Is(err, fs.ErrExist) {
		return PathError(p.path, err)
	}
	if st, lerr := os.Lstat(p.path); lerr == nil && IsLink(p.path, st) {
		return &Error{Path: p.path, Reason: ErrSymlink.Error(), Err: ErrSymlink}
	}
	return &Error{Path: p.path, Reason: ErrExists.Error(), Err: ErrExists}
}

// Discard removes the temporary file, if it is still there.
func (p *Pending) Discard() { os.Remove(p.tmp) }

// WriteReplace writes data to what path names (an output, never a key),
// whole or not at all, as WriteFrom does.
func (p Protected) WriteReplace(path string, data []byte, perm os.FileMode) error {
	return p.WriteFrom(path, from(data), perm)
}

// WriteFrom writes what write gives to what path names (an output, never
// a key), streamed into the temporary file, whole or not at all:
//   - nothing or a regular file: replaced by a rename, keeping its
//     permission bits (as mv does) and, as root, its owner;
//   - a symbolic link: the file it names is replaced, the link stays;
//   - a character device or a FIFO: written into, a FIFO without waiting
//     (ErrNoReader); a failed write wraps ErrIncomplete;
//   - anything else is ErrUnwritableKind.
//
// It never lands in the key folder or below it, even when a folder on the
// path is swapped meanwhile. Callers check the path first (CheckTree).
func (p Protected) WriteFrom(path string, write func(io.Writer) error, perm os.FileMode) error {
	st, err := os.Stat(path)
	switch {
	case err == nil && !st.Mode().IsRegular():
		return writeInto(path, st, write)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return PathError(path, err)
	}
	target := path
	if lst, lerr := os.Lstat(path); lerr == nil && IsLink(path, lst) {
		target = resolve(path) // renamed where the file is: the link stays
	}
	if err != nil {
		return p.replaceAt(target, write, perm, nil)
	}
	if keepsPerm {
		perm = st.Mode().Perm()
	}
	return p.replaceAt(target, write, perm, st)
}

// WriteOwn replaces the file at path, one only pret writes (its state),
// by a rename that never follows a link: a link at path is refused, and
// one put there after that check is replaced, never written through.
func (p Protected) WriteOwn(path string, data []byte, perm os.FileMode) error {
	st, err := os.Lstat(path)
	if err == nil && IsLink(path, st) {
		return &Error{Path: path, Reason: ErrSymlink.Error(), Err: ErrSymlink}
	}
	if err == nil && keepsPerm {
		perm = st.Mode().Perm()
	}
	return p.replaceAt(path, from(data), perm, st)
}

// WritableKind tells whether WriteReplace writes at a path of os.Stat st.
func WritableKind(st fs.FileInfo) bool {
	m := st.Mode()
	return m.IsRegular() || m&fs.ModeNamedPipe != 0 || m&fs.ModeCharDevice != 0
}

// writeInto writes into the character device or FIFO at path, opened
// without O_CREAT or O_TRUNC; its kind is checked again once open.
func writeInto(path string, st fs.FileInfo, write func(io.Writer) error) error {
	if st.IsDir() {
		return &Error{Path: path, Reason: "c'est un dossier : pret y écrirait un fichier sans nom ; rien n'a été écrit", Err: ErrUnwritableKind}
	}
	if !WritableKind(st) {
		return &Error{Path: path, Reason: ErrUnwritableKind.Error(), Err: ErrUnwritableKind}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|deviceFlags, 0)
	if err != nil {
		if st.Mode()&fs.ModeNamedPipe != 0 && errors.Is(err, syscall.ENXIO) { // no reader
			return &Error{Path: path, Reason: ErrNoReader.Error(), Err: errors.Join(ErrNoReader, err)}
		}
		return PathError(path, err)
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || now.Mode().Type() != st.Mode().Type() {
		return &Error{Path: path, Reason: "le fichier a changé de nature pendant l'écriture ; rien n'a été écrit", Err: ErrUnwritableKind}
	}
	if err = buffered(f, write); err == nil {
		err = f.Close()
	}
	if err != nil {
		return &Error{Path: path, Reason: ErrIncomplete.Error() + " : " + Reason(err), Err: errors.Join(ErrIncomplete, err)}
	}
	return nil
}

// LockDir for the key folder waits as long as the other pret holds it.
func (KeyFiles) LockDir(dir string) (unlock func(), err error) { return LockDir(dir, -1) }

// retry calls try, which takes a lock without waiting, every 10 ms while
// it finds the lock taken, and gives up with ErrBusy after wait.
func retry(dir string, wait time.Duration, try func() (taken bool, err error)) error {
	for end := time.Now().Add(wait); ; time.Sleep(10 * time.Millisecond) {
		if taken, err := try(); !taken {
			return err
		}
		if wait >= 0 && time.Now().After(end) {
			return &Error{Path: dir, Reason: ErrBusy.Error(), Err: ErrBusy}
		}
	}
}

// SyncDir makes a new name in dir durable.
func (KeyFiles) SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return PathError(dir, err)
	}
	_ = d.Sync() // some file systems refuse fsync on a folder; the data is synced
	d.Close()
	return nil
}
