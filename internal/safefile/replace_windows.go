package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// replaceAt stages data beside target and renames it over target.
func (p Protected) replaceAt(target string, data []byte, perm os.FileMode, like fs.FileInfo) error {
	return p.put(target, data, perm, like, func(st *Pending) error {
		if err := os.Rename(st.tmp, st.path); err != nil {
			return PathError(st.path, err)
		}
		return nil
	})
}

// WriteNew writes data to path whole or not at all, fails with ErrExists
// when path exists, and never lands in the key folder or below it.
func (p Protected) WriteNew(path string, data []byte, perm os.FileMode) error {
	return p.put(path, data, perm, nil, (*Pending).Link)
}

// put stages data beside target, checks target against the key just
// before it gives the name (Windows has no openat: a folder swapped in
// the instant between is not caught), and names it.
func (p Protected) put(target string, data []byte, perm os.FileMode, like fs.FileInfo, name func(*Pending) error) error {
	st, err := stage(target, data, perm, like)
	if err != nil {
		return err
	}
	defer st.Discard()
	if err := p.CheckTree(target); err != nil {
		return err
	}
	if err := name(st); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(target))
}
