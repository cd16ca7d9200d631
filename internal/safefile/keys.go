package safefile

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
)

// KeyFiles is the file system package keys is handed (keys.Files), which
// imports nothing of pret: key files go through the same bounded reader
// and never-replacing writer as every other file.
type KeyFiles struct{}

// Read is Read with a cap of max bytes for a key file.
func (KeyFiles) Read(path string, max int64, follow bool) ([]byte, error) {
	return Read(path, Kind{Key.Name, max}, Follow(follow))
}

// Stage is stage; link is Pending.Link, which never replaces.
func (KeyFiles) Stage(path string, data []byte, perm fs.FileMode) (link func() error, discard func(), err error) {
	p, err := stage(path, from(data), perm, nil)
	if err != nil {
		return nil, nil, err
	}
	return p.Link, p.Discard, nil
}

// Staged reports whether name is a temporary file stage(path, …) makes:
// package keys removes those a killed run left, so nothing else matches.
func (KeyFiles) Staged(path, name string) bool {
	tail, ok := strings.CutPrefix(name, "."+filepath.Base(path)+".tmp-")
	return ok && tail != "" && len(tail) <= stagedLen && strings.Trim(tail, stagedDigits) == ""
}

func (KeyFiles) IsLink(path string, st fs.FileInfo) bool { return IsLink(path, st) }
func (KeyFiles) Explain(path string, err error) error    { return PathError(path, err) }

// SymbolicLink, TooLarge and Exists let keys, which cannot import
// safefile, tell failures apart with errors.As on an interface.
func (e *Error) SymbolicLink() bool { return errors.Is(e.Err, ErrSymlink) }
func (e *Error) TooLarge() bool     { return errors.Is(e.Err, ErrTooLarge) }
func (e *Error) Exists() bool       { return errors.Is(e.Err, ErrExists) }
