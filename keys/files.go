package keys

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Files is internal/safefile's bounded reader and never-replacing writer.
// Errors are in French; SymbolicLink(), TooLarge() and Exists() methods
// mark the failures keys tells apart (as net.Error marks a timeout).
type Files interface {
	// Read reads a whole regular file, at most max bytes, a final link only if follow.
	Read(path string, max int64, follow bool) ([]byte, error)
	// Stage writes data synced under a temporary name; link names it path
	// unless anything, even a dangling link, has that name.
	Stage(path string, data []byte, perm fs.FileMode) (link func() error, discard func(), err error)
	LockDir(dir string) (unlock func(), err error)
	SyncDir(dir string) error
	// IsLink: a link or, on Windows, a junction.
	IsLink(path string, st fs.FileInfo) bool
	// Staged reports a temporary name Stage(path, …) gives.
	Staged(path, name string) bool
	Explain(path string, err error) error
}

var (
	ErrExists  = errors.New("le fichier existe déjà ; il n'est jamais remplacé")
	ErrSymlink = errors.New("un lien symbolique occupe le chemin de la clé")
)

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

// ReadFile reads a key file, not through a link.
func ReadFile(f Files, path string) ([]byte, error) { return readFile(f, path, false) }

// readFile follows a link if follow: for a file the person named.
func readFile(f Files, path string, follow bool) ([]byte, error) {
	data, err := f.Read(path, MaxFileSize, follow)
	return data, marked(path, err)
}

// EnsureDir creates the key folder 0700 if missing; an existing one, or a link to one, is kept.
func EnsureDir(f Files, dir string) error {
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return fmt.Errorf("%s n'est pas un dossier", dir)
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return f.Explain(dir, err)
	}
	if lst, lerr := os.Lstat(dir); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
		// A dangling link's target is a folder the learner did not name.
		return fmt.Errorf("%s : %w (sa cible n'existe pas)", dir, ErrSymlink)
	}
	if err = os.MkdirAll(dir, 0o700); err == nil { // MkdirAll obeys the umask; the folder must be 0700
		err = os.Chmod(dir, 0o700)
	}
	if err != nil {
		return f.Explain(dir, err)
	}
	return nil
}

// WriteNew writes data whole or not at all; ErrExists if path exists.
func WriteNew(f Files, path string, data []byte, perm os.FileMode) error {
	link, discard, err := f.Stage(path, data, perm)
	if err != nil {
		return err
	}
	defer discard()
	if err := marked(path, link()); err != nil {
		return err
	}
	dir, _ := filepath.Split(path) // not filepath.Dir: "link/.." is the system's to resolve
	return f.SyncDir(cmp.Or(dir, "."))
}
