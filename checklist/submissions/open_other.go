//go:build !unix

package submissions

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// These platforms have no O_NOFOLLOW nor openat: a file is known by its
// absolute path, a link met in a folder is refused by Lstat first, and
// the walk's folder ids are what guard it.
func absID(path string) fileID {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return fileID{path: filepath.Clean(abs)}
}

func openID(path string, follow bool) (*os.File, fileID, fs.FileInfo, error) {
	if !follow {
		if st, err := os.Lstat(path); err != nil {
			return nil, fileID{}, nil, err
		} else if st.Mode()&os.ModeSymlink != 0 {
			return nil, fileID{}, nil, errSymlink
		}
	}
	if st, err := os.Stat(path); err != nil {
		return nil, fileID{}, nil, err
	} else if !st.Mode().IsRegular() && !st.IsDir() {
		return nil, fileID{}, nil, notRegular(st.Mode())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fileID{}, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fileID{}, nil, err
	}
	return f, absID(path), st, nil
}

func openArchive(_ *os.File, _, path string, follow bool) (*os.File, fileID, int64, error) {
	return regularFile(openID(path, follow))
}

func openDir(path string, follow bool) (*os.File, fileID, error) {
	f, id, st, err := openID(path, follow)
	if err == nil && !st.IsDir() {
		f.Close()
		return nil, fileID{}, errors.New("ce n'est pas un dossier")
	}
	return f, id, err
}

func statID(path string) (fileID, error) {
	_, err := os.Stat(path)
	return absID(path), err
}

func checkParent(f *os.File, parent fileID) error { return nil }
