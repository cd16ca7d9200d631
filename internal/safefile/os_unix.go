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

// os.CreateTemp's random part is a uint32 in decimal.
const stagedDigits, stagedLen = "0123456789", 10

// linkNew gives the staged file tmp the name path. link(2) fails with
// EEXIST when the name exists, symbolic link included.
func linkNew(tmp, path string) error { return os.Link(tmp, path) }

// LockDir takes an exclusive advisory lock on the folder so that two pret
// processes decide "absent, create" one after the other, never together.
func (KeyFiles) LockDir(dir string) (unlock func(), err error) {
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

// osReasons: the Unix errors are the syscall names Reason knows.
var osReasons map[syscall.Errno]string

// IsLink tells whether the name at path is a symbolic link.
func IsLink(_ string, st fs.FileInfo) bool { return st.Mode()&fs.ModeSymlink != 0 }

// deviceFlags open a device or a FIFO for writing: O_NONBLOCK so that a
// FIFO without a reader fails at once (ENXIO) instead of waiting, and
// the poller then waits for room; O_NOCTTY so that a terminal never
// becomes pret's controlling one.
const deviceFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY

// keepsPerm: a replaced file keeps its permission bits.
const keepsPerm = true

// keepOwner gives the staged file f the owner and group of the file it
// replaces, when pret may (as root); otherwise the new file is the
// writer's, as with any editor that saves by renaming.
func keepOwner(f *os.File, like fs.FileInfo) {
	if st, ok := like.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 {
		_ = f.Chown(int(st.Uid), int(st.Gid))
	}
}
