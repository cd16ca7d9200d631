//go:build unix

package safefile

import (
	"os"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// symlinkErrno is what open(O_NOFOLLOW) gives for a link besides ELOOP:
// FreeBSD says EMLINK.
const symlinkErrno = syscall.EMLINK

// readFlags: O_NONBLOCK makes opening a FIFO return at once (readOpen
// then refuses it); O_NOCTTY keeps a terminal from becoming pret's.
const readFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY

func openRead(path string, follow bool) (*os.File, error) {
	if follow {
		return os.OpenFile(path, readFlags, 0)
	}
	return os.OpenFile(path, readFlags|syscall.O_NOFOLLOW, 0)
}

// openIn opens one name, no separator, relative to the open folder: the
// kernel looks up that name, not the whole path again.
func openIn(dir *os.File, name, path string) (*os.File, error) {
	if name == "" || strings.ContainsRune(name, '/') {
		return nil, syscall.ENOENT
	}
	for {
		fd, err := unix.Openat(int(dir.Fd()), name, readFlags|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
		runtime.KeepAlive(dir) // the folder stays open while openat reads its fd
		if err == nil {
			return os.NewFile(uintptr(fd), path), nil
		}
		if err != syscall.EINTR {
			return nil, err
		}
	}
}
