package keys

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

var (
	// ErrExists is returned when the target name is already taken: pret
	// never replaces a key file, even one that appeared a moment ago.
	ErrExists = errors.New("le fichier existe déjà ; il n'est jamais remplacé")
	// ErrSymlink is returned for a symbolic link where a key file belongs:
	// writing or reading through it could touch a file elsewhere.
	ErrSymlink = errors.New("un lien symbolique occupe le chemin de la clé")
)

// ReadFile reads a key file without following a symbolic link and without
// reading more than MaxFileSize bytes.
func ReadFile(path string) ([]byte, error) { return readFile(path, false) }

// ReadFileFollow is ReadFile for a file the person named: a link is theirs
// to give, and reading through it changes nothing.
func ReadFileFollow(path string) ([]byte, error) { return readFile(path, true) }

func readFile(path string, follow bool) ([]byte, error) {
	f, err := openRead(path, follow)
	if err != nil {
		if !follow && isLinkErr(err) {
			return nil, fmt.Errorf("%s : %w", path, ErrSymlink)
		}
		return nil, pathError(path, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s : ce n'est pas un fichier ordinaire", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, pathError(path, err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s : %w", path, ErrTooLarge)
	}
	return data, nil
}

// EnsureDir creates the key folder with mode 0700 when it is missing.
// An existing folder is left as it is: its mode is the checklist's concern.
func EnsureDir(dir string) error {
	st, err := os.Lstat(dir)
	if err == nil {
		if !st.IsDir() {
			return fmt.Errorf("%s n'est pas un dossier", dir)
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return pathError(dir, err)
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

// pending is a file fully written and synced under a temporary name in the
// target folder, waiting to be linked to its final name.
type pending struct {
	tmp, path string
}

// stage writes data to a temporary file beside path with the given mode
// (set with fchmod, so the umask does not matter) and syncs it.
func stage(path string, data []byte, perm os.FileMode) (p *pending, err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	// The staged file is created exclusively and readable by its owner
	// alone (mode 0600, or an owner-only ACL on Windows): the secret is
	// never readable by others, even while it is being written.
	f, err := createStaged(dir, "."+base+".tmp-", perm)
	if err != nil {
		return nil, pathError(dir, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return nil, pathError(path, err)
	}
	if err = f.Sync(); err != nil {
		return nil, pathError(path, err)
	}
	if err = f.Close(); err != nil {
		return nil, pathError(path, err)
	}
	return &pending{tmp: f.Name(), path: path}, nil
}

// commit gives the staged file its final name, failing when the name
// exists, symbolic link included, so nothing is ever replaced or written
// through a link (link(2) on Unix, a rename without replacement on
// Windows: see linkNew).
func (p *pending) commit() error {
	if err := linkNew(p.tmp, p.path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			if st, lerr := os.Lstat(p.path); lerr == nil && isLink(p.path, st) {
				return fmt.Errorf("%s : %w", p.path, ErrSymlink)
			}
			return fmt.Errorf("%s : %w", p.path, ErrExists)
		}
		return pathError(p.path, err)
	}
	return nil
}

func (p *pending) discard() { os.Remove(p.tmp) }

// WriteNew writes data to path whole or not at all, and fails with
// ErrExists if path exists, whoever created it and whenever.
func WriteNew(path string, data []byte, perm os.FileMode) error {
	p, err := stage(path, data, perm)
	if err != nil {
		return err
	}
	defer p.discard()
	if err := p.commit(); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// WriteReplace writes data to path whole, replacing what is there by a
// rename: a reader sees the old file or the new one, never a mix. For
// files pret may replace (acces.md, its state), never for a key.
func WriteReplace(path string, data []byte, perm os.FileMode) error {
	p, err := stage(path, data, perm)
	if err != nil {
		return err
	}
	defer p.discard()
	if err := os.Rename(p.tmp, path); err != nil {
		return pathError(path, err)
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return pathError(dir, err)
	}
	defer d.Close()
	// Some file systems refuse fsync on a folder; the data itself is synced.
	_ = d.Sync()
	return nil
}

// pathError says in French what went wrong with a file, without the
// English strings of the system's errors.
func pathError(path string, err error) error {
	var reason string
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		reason = "plus de place sur le disque"
	case errors.Is(err, syscall.EROFS):
		reason = "le système de fichiers est en lecture seule"
	case errors.Is(err, fs.ErrPermission):
		reason = "permission refusée"
	case errors.Is(err, fs.ErrNotExist):
		reason = "fichier ou dossier introuvable"
	case errors.Is(err, syscall.ENOTDIR):
		reason = "un élément du chemin n'est pas un dossier"
	case errors.Is(err, syscall.EISDIR):
		reason = "c'est un dossier"
	case errors.Is(err, syscall.EIO):
		reason = "erreur d'entrée-sortie"
	default:
		r, ok := osReason(err)
		if !ok {
			return fmt.Errorf("%s : %w", path, err)
		}
		reason = r
	}
	return &FileError{Path: path, Reason: reason, Err: err}
}

// FileError is a file operation that failed, with the reason in French.
type FileError struct {
	Path, Reason string
	Err          error
}

func (e *FileError) Error() string { return e.Path + " : " + e.Reason }
func (e *FileError) Unwrap() error { return e.Err }
