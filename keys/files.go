package keys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Files is what keys needs of the file system: internal/safefile's
// bounded reader and staged, never-replacing writer, handed in by the
// callers. keys keeps the key's own rule: key files are never read
// through a link pret found itself, never replaced, and written only under
// the folder lock. A failure keys tells apart is marked on the error by a
// method (as net.Error marks a timeout): SymbolicLink(), TooLarge(),
// Exists(). Every error a Files returns is already in French.
type Files interface {
	// Read reads the whole regular file at path, at most max bytes,
	// refusing a FIFO or a device without blocking, and a final symbolic
	// link unless follow.
	Read(path string, max int64, follow bool) ([]byte, error)
	// Stage writes data whole and synced under a temporary name beside
	// path; link gives it the name path and fails if anything, even a
	// dangling link, has it; discard removes the temporary file if left.
	Stage(path string, data []byte, perm fs.FileMode) (link func() error, discard func(), err error)
	// LockDir takes the lock of folder dir, waiting for it.
	LockDir(dir string) (unlock func(), err error)
	// SyncDir makes the new names in dir durable.
	SyncDir(dir string) error
	// IsLink reports whether st, from os.Lstat(path), is a link pret must
	// not go through (on Windows, a junction too).
	IsLink(path string, st fs.FileInfo) bool
	// Staged reports whether name, in path's folder, is a temporary name
	// Stage(path, …) gives.
	Staged(path, name string) bool
	// Explain says in French what a system error about path means.
	Explain(path string, err error) error
}

var (
	ErrExists  = errors.New("le fichier existe déjà ; il n'est jamais remplacé")
	ErrSymlink = errors.New("un lien symbolique occupe le chemin de la clé")
	// ErrNoFiles is a Store given no Files: a mistake in pret, not a crash.
	ErrNoFiles = errors.New("pret n'a pas donné d'accès aux fichiers au code des clés (erreur interne)")
)

// marked turns a failure a Files marked into keys' own error about path.
func marked(path string, err error) error {
	var link interface{ SymbolicLink() bool }
	var large interface{ TooLarge() bool }
	var taken interface{ Exists() bool }
	switch {
	case errors.As(err, &link) && link.SymbolicLink():
		return fmt.Errorf("%s : %w", path, ErrSymlink)
	case errors.As(err, &large) && large.TooLarge():
		return fmt.Errorf("%s : %w", path, ErrTooLarge)
	case errors.As(err, &taken) && taken.Exists():
		return fmt.Errorf("%s : %w", path, ErrExists)
	}
	return err
}

// ReadFile reads a key file, at most MaxFileSize bytes, not through a link.
func ReadFile(f Files, path string) ([]byte, error) { return readFile(f, path, false) }

// ReadFileFollow is ReadFile for a file the person named: a link is theirs
// to give.
func ReadFileFollow(f Files, path string) ([]byte, error) { return readFile(f, path, true) }

func readFile(f Files, path string, follow bool) ([]byte, error) {
	if f == nil {
		return nil, ErrNoFiles
	}
	data, err := f.Read(path, MaxFileSize, follow)
	return data, marked(path, err)
}

// EnsureDir creates the key folder with mode 0700 when it is missing; an
// existing one is left as it is (its mode is the checklist's concern),
// and a link to a folder is followed: it is the learner's choice.
func EnsureDir(f Files, dir string) error {
	if f == nil {
		return ErrNoFiles
	}
	st, err := os.Stat(dir)
	if err == nil {
		if !st.IsDir() {
			return fmt.Errorf("%s n'est pas un dossier", dir)
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return f.Explain(dir, err)
	}
	if lst, lerr := os.Lstat(dir); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
		// A dangling link: making its target would create a folder
		// somewhere the learner did not name.
		return fmt.Errorf("%s : %w (sa cible n'existe pas)", dir, ErrSymlink)
	}
	err = os.MkdirAll(dir, 0o700)
	if err == nil { // MkdirAll obeys the umask; the folder must be 0700
		err = os.Chmod(dir, 0o700)
	}
	if err != nil {
		return f.Explain(dir, err)
	}
	return nil
}

// WriteNew writes data to path whole or not at all, and fails with
// ErrExists if path exists, whoever created it and whenever.
func WriteNew(f Files, path string, data []byte, perm os.FileMode) error {
	if f == nil {
		return ErrNoFiles
	}
	link, discard, err := f.Stage(path, data, perm)
	if err != nil {
		return err
	}
	defer discard()
	if err := marked(path, link()); err != nil {
		return err
	}
	return f.SyncDir(filepath.Dir(path))
}
