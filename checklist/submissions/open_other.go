//go:build !unix

package submissions

import (
	"errors"
	"os"
	"path/filepath"
)

func absID(path string) fileID {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return fileID{path: filepath.Clean(abs)}
}

// open refuses a link met in a folder (Lstat first: these platforms have
// no O_NOFOLLOW), and anything but a regular file or a folder.
func open(path string, follow bool) (*os.File, os.FileInfo, error) {
	if !follow {
		if st, err := os.Lstat(path); err != nil {
			return nil, nil, err
		} else if st.Mode()&os.ModeSymlink != 0 {
			return nil, nil, errSymlink
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		return nil, nil, errors.New("ce n'est pas un fichier ordinaire : il n'est pas lu")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

func openArchive(path string, follow bool) (*os.File, fileID, int64, error) {
	f, st, err := open(path, follow)
	if err != nil {
		return nil, fileID{}, 0, err
	}
	if st.IsDir() {
		f.Close()
		return nil, fileID{}, 0, errIsDir
	}
	return f, absID(path), st.Size(), nil
}

func openDir(path string, follow bool) (*os.File, fileID, error) {
	f, st, err := open(path, follow)
	if err != nil {
		return nil, fileID{}, err
	}
	if !st.IsDir() {
		f.Close()
		return nil, fileID{}, errors.New("ce n'est pas un dossier")
	}
	return f, absID(path), nil
}

func statID(path string) (fileID, error) {
	if _, err := os.Stat(path); err != nil {
		return fileID{}, err
	}
	return absID(path), nil
}

// openArchiveIn opens by path: these platforms have no openat.
func openArchiveIn(dir *os.File, name, path string) (*os.File, fileID, int64, error) {
	return openArchive(path, false)
}

// checkParent: no ".." to open here; the walk's folder ids stay what
// guard it.
func checkParent(f *os.File, parent fileID) error { return nil }
