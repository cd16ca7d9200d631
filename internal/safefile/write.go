package safefile

import (
	"errors"

	"io/fs"
	"os"
	"path/filepath"
)

// ErrExists is a name WriteNew found taken: it never replaces a file,
// even one that appeared a moment ago.
var ErrExists = errors.New("le fichier existe déjà ; il n'est jamais remplacé")

// Pending is a file fully written and synced under a temporary name in
// its target folder, waiting for its final name.
type Pending struct {
	tmp, path string
}

// Stage writes data to a temporary file beside path, created exclusively
// and readable by its owner alone while it is written (mode 0600, or an
// owner-only ACL on Windows), then given perm, and syncs it. Nothing is
// at path yet.
func Stage(path string, data []byte, perm os.FileMode) (p *Pending, err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := createStaged(dir, "."+base+".tmp-", perm)
	if err != nil {
		return nil, PathError(dir, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return nil, PathError(path, err)
	}
	if err = f.Sync(); err != nil {
		return nil, PathError(path, err)
	}
	if err = f.Close(); err != nil {
		return nil, PathError(path, err)
	}
	return &Pending{tmp: f.Name(), path: path}, nil
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

// Replace gives the staged file its final name by a rename: a reader sees
// the old file or the new one, never a mix. A link at path is replaced,
// never written through.
func (p *Pending) Replace() error {
	if err := os.Rename(p.tmp, p.path); err != nil {
		return PathError(p.path, err)
	}
	return nil
}

// Discard removes the temporary file, if it is still there.
func (p *Pending) Discard() { os.Remove(p.tmp) }

// WriteNew writes data to path whole or not at all, and fails with
// ErrExists if path exists, whoever created it and whenever. Key files
// are written by package keys alone, under its folder lock.
func WriteNew(path string, data []byte, perm os.FileMode) error {
	p, err := Stage(path, data, perm)
	if err != nil {
		return err
	}
	defer p.Discard()
	if err := p.Link(); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// WriteReplace writes data to path whole, replacing what is there: for
// files pret may replace (acces.md, its state, reports), never a key.
// Callers check the path against the key first (Protected.Check).
func WriteReplace(path string, data []byte, perm os.FileMode) error {
	p, err := Stage(path, data, perm)
	if err != nil {
		return err
	}
	defer p.Discard()
	if err := p.Replace(); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
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
