package keys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Files is what keys needs of the file system. keys imports no other
// package of pret: the bounded reader and the staged, never-replacing
// writer are written once, in pret's internal/safefile, and the callers
// hand them in (Store.Files). What stays here is the key's own rule: key
// files are never read through a link where pret found them itself,
// never replaced, and written only under the folder lock, by Store.Create
// and Store.RebuildPub.
//
// Failures keys tells apart are marked on the error by a method, found
// with errors.As as net.Error marks a timeout: SymbolicLink() for a link
// refused, TooLarge() for a file over the cap, Exists() for a name
// already taken. Every error a Files returns is already said in French.
type Files interface {
	// Read reads the whole regular file at path, at most max bytes,
	// opening it without blocking (a FIFO or a device is refused, never
	// waited on). When follow is false, a symbolic link as the last
	// element of path is refused.
	Read(path string, max int64, follow bool) ([]byte, error)
	// Stage writes data whole and synced under a temporary name beside
	// path, with mode perm. link gives it the name path and fails if the
	// name is taken, by anything, even a dangling link: it never
	// replaces. discard removes the temporary file if it is still there.
	Stage(path string, data []byte, perm fs.FileMode) (link func() error, discard func(), err error)
	// LockDir takes the lock of folder dir, waiting for it.
	LockDir(dir string) (unlock func(), err error)
	// SyncDir makes the new names in dir durable.
	SyncDir(dir string) error
	// IsLink reports whether st, from os.Lstat(path), is a link pret must
	// not go through (a symbolic link; on Windows also a junction).
	IsLink(path string, st fs.FileInfo) bool
	// Staged reports whether name, in path's folder, is a temporary name
	// Stage(path, …) gives: what a run killed before link leaves.
	Staged(path, name string) bool
	// Explain says in French what a system error about path means.
	Explain(path string, err error) error
}

var (
	// ErrExists is returned when the target name is already taken: pret
	// never replaces a key file, even one that appeared a moment ago.
	ErrExists = errors.New("le fichier existe déjà ; il n'est jamais remplacé")
	// ErrSymlink is returned for a symbolic link where a key file belongs:
	// writing or reading through it could touch a file elsewhere.
	ErrSymlink = errors.New("un lien symbolique occupe le chemin de la clé")
	// ErrNoFiles is returned by a Store (or a function) given no Files:
	// a mistake in pret itself, said rather than a crash.
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

// ReadFile reads a key file without following a symbolic link and without
// reading more than MaxFileSize bytes; a FIFO or a device is refused
// without blocking.
func ReadFile(f Files, path string) ([]byte, error) { return readFile(f, path, false) }

// ReadFileFollow is ReadFile for a file the person named: a link is theirs
// to give, and reading through it changes nothing.
func ReadFileFollow(f Files, path string) ([]byte, error) { return readFile(f, path, true) }

func readFile(f Files, path string, follow bool) ([]byte, error) {
	if f == nil {
		return nil, ErrNoFiles
	}
	data, err := f.Read(path, MaxFileSize, follow)
	return data, marked(path, err)
}

// EnsureDir creates the key folder with mode 0700 when it is missing.
// An existing folder is left as it is: its mode is the checklist's
// concern. A link to a folder is followed: where the key folder lives is
// the learner's choice (the key files themselves are never links).
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
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return f.Explain(dir, err)
	}
	// MkdirAll obeys the umask; the key folder must be 0700 whatever it is.
	if err := os.Chmod(dir, 0o700); err != nil {
		return f.Explain(dir, err)
	}
	return nil
}

// WriteNew writes data to path whole or not at all, and fails with
// ErrExists if path exists, whoever created it and whenever. It is the
// only way pret writes a key file.
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
