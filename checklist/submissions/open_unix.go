//go:build unix

package submissions

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// openID opens path to read without blocking on a FIFO, following a link
// at its last component only if follow (a name the organiser typed).
func openID(path string, follow bool, flags int) (*os.File, fileID, fs.FileInfo, error) {
	flags |= os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		return nil, fileID{}, nil, err
	}
	return withID(f)
}

func withID(f *os.File) (*os.File, fileID, fs.FileInfo, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fileID{}, nil, err
	}
	sys := st.Sys().(*syscall.Stat_t)
	return f, fileID{dev: uint64(sys.Dev), ino: uint64(sys.Ino)}, st, nil
}

// openArchive opens a regular file for archive/zip: by path, or as name
// in the open folder dir, the one the walk listed.
func openArchive(dir *os.File, name, path string, follow bool) (*os.File, fileID, int64, error) {
	if dir == nil {
		return regularFile(openID(path, follow, 0))
	}
	var fd int
	err := retry(func() (err error) {
		fd, err = unix.Openat(int(dir.Fd()), name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK|unix.O_NOFOLLOW, 0)
		return err
	})
	if err != nil {
		return nil, fileID{}, 0, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return regularFile(withID(os.NewFile(uintptr(fd), path)))
}

// openDir opens a folder to list it: O_DIRECTORY refuses anything else,
// O_NONBLOCK keeps a FIFO from stalling meanwhile.
func openDir(path string, follow bool) (*os.File, fileID, error) {
	f, id, _, err := openID(path, follow, syscall.O_DIRECTORY)
	return f, id, err
}

// statID identifies a file named on the command line, following links.
func statID(path string) (fileID, error) {
	st, err := os.Stat(path)
	if err != nil {
		return fileID{}, err
	}
	sys := st.Sys().(*syscall.Stat_t)
	return fileID{dev: uint64(sys.Dev), ino: uint64(sys.Ino)}, nil
}

// checkParent refuses a folder whose parent is not parent: its path went
// through a link swapped in for a folder after the listing.
func checkParent(f *os.File, parent fileID) error {
	var st unix.Stat_t
	if err := retry(func() error { return unix.Fstatat(int(f.Fd()), "..", &st, unix.AT_SYMLINK_NOFOLLOW) }); err != nil {
		return &fs.PathError{Op: "stat", Path: f.Name(), Err: err}
	}
	if uint64(st.Dev) != parent.dev || uint64(st.Ino) != parent.ino {
		return errFolderMoved
	}
	return nil
}

func retry(call func() error) error {
	for {
		if err := call(); err != syscall.EINTR {
			return err
		}
	}
}
