//go:build unix

package keys

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openRead opens a file for reading without blocking on a FIFO or a
// device, and without following a symbolic link in the last element
// unless follow is set.
func openRead(path string, follow bool) (*os.File, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	return os.OpenFile(path, flags, 0)
}

// isLinkErr tells whether an open without following failed on a link:
// ELOOP on Linux and macOS, EMLINK on FreeBSD.
func isLinkErr(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}

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
func lockDir(dir string) (unlock func(), err error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, pathError(dir, err)
	}
	for {
		err = syscall.Flock(int(d.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		d.Close()
		return nil, pathError(dir, err)
	}
	return func() {
		syscall.Flock(int(d.Fd()), syscall.LOCK_UN)
		d.Close()
	}, nil
}

// osReason: the Unix errors are the syscall names pathError knows.
func osReason(error) (string, bool) { return "", false }

// isLink tells whether the name at path is a symbolic link.
func isLink(_ string, st fs.FileInfo) bool { return st.Mode()&fs.ModeSymlink != 0 }
