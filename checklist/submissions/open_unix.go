//go:build unix

package submissions

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// openNoBlock opens without following a link at the last component
// unless follow (a name the organiser typed may be a link; one met in a
// folder is never followed), and without blocking on a FIFO.
func openNoBlock(path string, follow bool, extra int) (int, error) {
	return openFlags(path, follow, syscall.O_NONBLOCK|extra)
}

func openFlags(path string, follow bool, extra int) (int, error) {
	flags := syscall.O_RDONLY | syscall.O_CLOEXEC | extra
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	for {
		fd, err := syscall.Open(path, flags, 0)
		if err != syscall.EINTR {
			if err != nil {
				return -1, &fs.PathError{Op: "open", Path: path, Err: err}
			}
			return fd, nil
		}
	}
}

func fstat(fd int, path string) (syscall.Stat_t, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return st, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return st, nil
}

// openArchive opens a regular file for archive/zip to read in place.
func openArchive(path string, follow bool) (*os.File, fileID, int64, error) {
	fd, err := openNoBlock(path, follow, 0)
	if err != nil {
		return nil, fileID{}, 0, err
	}
	return archiveFromFD(fd, path)
}

// archiveFromFD checks that fd is a regular file and hands it to
// archive/zip.
func archiveFromFD(fd int, path string) (*os.File, fileID, int64, error) {
	st, err := fstat(fd, path)
	if err != nil {
		syscall.Close(fd)
		return nil, fileID{}, 0, err
	}
	id := fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return nil, id, 0, notRegular(uint32(st.Mode & syscall.S_IFMT))
	}
	return os.NewFile(uintptr(fd), path), id, st.Size, nil
}

// openDir opens a folder to list it; one met during the walk is opened
// without following a link, so a link swapped in after the listing is
// refused rather than followed. O_DIRECTORY refuses anything but a
// folder, and O_NONBLOCK keeps a FIFO from stalling where O_DIRECTORY
// is not known to refuse it before opening.
func openDir(path string, follow bool) (*os.File, fileID, error) {
	fd, err := openFlags(path, follow, syscall.O_DIRECTORY|syscall.O_NONBLOCK)
	if err != nil {
		return nil, fileID{}, err
	}
	st, err := fstat(fd, path)
	if err != nil {
		syscall.Close(fd)
		return nil, fileID{}, err
	}
	return os.NewFile(uintptr(fd), path), fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, nil
}

// statID identifies a file named on the command line, following links.
func statID(path string) (fileID, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return fileID{}, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, nil
}

func notRegular(mode uint32) error {
	switch mode {
	case syscall.S_IFDIR:
		return errIsDir
	case syscall.S_IFIFO:
		return errors.New("c'est un tube nommé (FIFO), pas un fichier ordinaire : il n'est pas lu")
	case syscall.S_IFSOCK:
		return errors.New("c'est une socket, pas un fichier ordinaire : elle n'est pas lue")
	case syscall.S_IFCHR, syscall.S_IFBLK:
		return errors.New("c'est un périphérique, pas un fichier ordinaire : il n'est pas lu")
	case syscall.S_IFLNK:
		return errSymlink
	}
	return errors.New("ce n'est pas un fichier ordinaire : il n'est pas lu")
}

// openArchiveIn is openArchive for the archive name in the open folder
// dir: the kernel resolves one name in the folder the walk listed.
func openArchiveIn(dir *os.File, name, path string) (*os.File, fileID, int64, error) {
	var fd int
	var err error
	for {
		fd, err = unix.Openat(int(dir.Fd()), name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK|unix.O_NOFOLLOW, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, fileID{}, 0, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return archiveFromFD(fd, path)
}

// checkParent refuses a folder whose parent is not the folder with id
// parent: the path that opened it went through a link swapped in for
// a folder after the listing.
func checkParent(f *os.File, parent fileID) error {
	var st unix.Stat_t
	var err error
	for {
		err = unix.Fstatat(int(f.Fd()), "..", &st, unix.AT_SYMLINK_NOFOLLOW)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return &fs.PathError{Op: "stat", Path: f.Name(), Err: err}
	}
	if uint64(st.Dev) != parent.dev || uint64(st.Ino) != parent.ino {
		return errFolderMoved
	}
	return nil
}
