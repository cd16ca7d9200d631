//go:build unix

package safefile

import (
	"io/fs"
	"os"
	"syscall"
)

// createStaged creates a new file in dir with O_EXCL and gives it perm
// with fchmod, so the umask does not matter. os.CreateTemp already opens
// with mode 0600.
func createStaged(dir, prefix string, perm os.FileMode) (*os.File, error) {
	f, err := os.CreateTemp(dir, prefix+"*")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}

// linkNew gives the staged file tmp the name path. link(2) fails with
// EEXIST when the name exists, symbolic link included.
func linkNew(tmp, path string) error { return os.Link(tmp, path) }

// lockDir takes an exclusive advisory lock on the folder so that two pret
// processes decide "absent, create" one after the other, never together.
func LockDir(dir string) (unlock func(), err error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, PathError(dir, err)
	}
	for {
		err = syscall.Flock(int(d.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		d.Close()
		return nil, PathError(dir, err)
	}
	return func() {
		syscall.Flock(int(d.Fd()), syscall.LOCK_UN)
		d.Close()
	}, nil
}

// osReason: the Unix errors are the syscall names Reason knows.
func osReason(error) (string, bool) { return "", false }

// IsLink tells whether the name at path is a symbolic link.
func IsLink(_ string, st fs.FileInfo) bool { return st.Mode()&fs.ModeSymlink != 0 }
