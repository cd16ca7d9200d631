package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// replaceAt stages data beside target and renames it over target; the
// target is checked against the key just before the rename (Windows has
// no openat: a folder swapped in the instant between is not caught).
func (p Protected) replaceAt(target string, data []byte, perm os.FileMode, like fs.FileInfo) error {
	st, err := stage(target, data, perm, like)
	if err != nil {
		return err
	}
	defer st.Discard()
	if err := p.CheckTree(target); err != nil {
		return err
	}
	if err := st.Replace(); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(target))
}

// WriteNew is safefile.WriteNew for an output that must never land in
// the key folder or below it, checked just before the name is given.
func (p Protected) WriteNew(path string, data []byte, perm os.FileMode) error {
	st, err := Stage(path, data, perm)
	if err != nil {
		return err
	}
	defer st.Discard()
	if err := p.CheckTree(path); err != nil {
		return err
	}
	if err := st.Link(); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}
