package keys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/romeo-pret/pret/internal/safefile"
)

// Key files are read and written through safefile, pret's one bounded
// reader and whole-or-nothing writer. What is the key's own here: key
// files are never read through a link, never replaced, and written only
// under the folder lock, by Store.Create and Store.RebuildPub.

var (
	// ErrExists is returned when the target name is already taken: pret
	// never replaces a key file, even one that appeared a moment ago.
	ErrExists = safefile.ErrExists
	// ErrSymlink is returned for a symbolic link where a key file belongs:
	// writing or reading through it could touch a file elsewhere.
	ErrSymlink = errors.New("un lien symbolique occupe le chemin de la clé")
)

// FileError is a file operation that failed, with the reason in French.
type FileError = safefile.Error

// ReadFile reads a key file without following a symbolic link and without
// reading more than MaxFileSize bytes; a FIFO or a device is refused
// without blocking.
func ReadFile(path string) ([]byte, error) { return readFile(path, safefile.NoFollow) }

// ReadFileFollow is ReadFile for a file the person named: a link is theirs
// to give, and reading through it changes nothing.
func ReadFileFollow(path string) ([]byte, error) { return readFile(path, safefile.FollowLink) }

func readFile(path string, follow safefile.Follow) ([]byte, error) {
	data, err := safefile.Read(path, safefile.Key, follow)
	switch {
	case errors.Is(err, safefile.ErrSymlink):
		return nil, fmt.Errorf("%s : %w", path, ErrSymlink)
	case errors.Is(err, safefile.ErrTooLarge):
		return nil, fmt.Errorf("%s : %w", path, ErrTooLarge)
	}
	return data, err
}

// EnsureDir creates the key folder with mode 0700 when it is missing.
// An existing folder is left as it is: its mode is the checklist's
// concern. A link to a folder is followed: where the key folder lives is
// the learner's choice (the key files themselves are never links).
func EnsureDir(dir string) error {
	st, err := os.Stat(dir)
	if err == nil {
		if !st.IsDir() {
			return fmt.Errorf("%s n'est pas un dossier", dir)
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return pathError(dir, err)
	}
	if lst, lerr := os.Lstat(dir); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
		// A dangling link: making its target would create a folder
		// somewhere the learner did not name.
		return fmt.Errorf("%s : %w (sa cible n'existe pas)", dir, ErrSymlink)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return pathError(dir, err)
	}
	// MkdirAll obeys the umask; the key folder must be 0700 whatever it is.
	if err := os.Chmod(dir, 0o700); err != nil {
		return pathError(dir, err)
	}
	return nil
}

// pending is a key file staged beside its final name.
type pending struct{ *safefile.Pending }

func stage(path string, data []byte, perm os.FileMode) (*pending, error) {
	p, err := safefile.Stage(path, data, perm)
	if err != nil {
		return nil, err
	}
	return &pending{p}, nil
}

// commit links the staged file to its name, never replacing anything.
func (p *pending) commit() error {
	err := p.Link()
	if errors.Is(err, safefile.ErrSymlink) {
		var fe *safefile.Error
		errors.As(err, &fe)
		return fmt.Errorf("%s : %w", fe.Path, ErrSymlink)
	}
	return err
}

func (p *pending) discard() { p.Discard() }

// WriteNew writes data to path whole or not at all, and fails with
// ErrExists if path exists, whoever created it and whenever. It is the
// only way pret writes a key file.
func WriteNew(path string, data []byte, perm os.FileMode) error {
	p, err := stage(path, data, perm)
	if err != nil {
		return err
	}
	defer p.discard()
	if err := p.commit(); err != nil {
		return err
	}
	return safefile.SyncDir(filepath.Dir(path))
}

func syncDir(dir string) error { return safefile.SyncDir(dir) }

// lockDir takes the folder lock under which "absent, create" is decided.
func lockDir(dir string) (unlock func(), err error) { return safefile.LockDir(dir) }

func isLink(path string, st fs.FileInfo) bool { return safefile.IsLink(path, st) }

func pathError(path string, err error) error { return safefile.PathError(path, err) }
