//go:build unix

package safefile

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// symlinkErrno is what open(O_NOFOLLOW) gives for a link besides ELOOP:
// FreeBSD says EMLINK.
const symlinkErrno = syscall.EMLINK

// readFile reads with plain system calls - open, fstat, read, close -
// because os.Open would register each file with the poller, which costs
// more than reading a page of text when an organiser reads thousands.
// O_NONBLOCK makes opening a FIFO return at once; fstat then refuses it.
func readFile(path string, max int64, follow bool, buf []byte) ([]byte, error) {
	flags := syscall.O_RDONLY | syscall.O_CLOEXEC | syscall.O_NONBLOCK | syscall.O_NOCTTY
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, flags, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	data, _, err := readFD(fd, max, buf)
	return data, err
}

func readIn(dir *os.File, name, path string, max int64, buf []byte) ([]byte, time.Time, error) {
	// One name, no separator: openat with a path would walk it again.
	if name == "" || strings.ContainsRune(name, '/') {
		return nil, time.Time{}, syscall.ENOENT
	}
	flags := syscall.O_RDONLY | syscall.O_CLOEXEC | syscall.O_NONBLOCK | syscall.O_NOCTTY | syscall.O_NOFOLLOW
	// Fd on a folder costs nothing after its first call, which the
	// walk makes before handing the folder out.
	dfd := int(dir.Fd())
	var fd int
	var err error
	for {
		fd, err = unix.Openat(dfd, name, flags, 0)
		if err != syscall.EINTR {
			break
		}
	}
	runtime.KeepAlive(dir) // the folder stays open while openat reads its fd
	if err != nil {
		return nil, time.Time{}, err
	}
	return readFD(fd, max, buf)
}

// readFD reads the regular file open as fd, at most max bytes, and
// closes it; the modification time is the one fstat gave.
func readFD(fd int, max int64, buf []byte) ([]byte, time.Time, error) {
	defer syscall.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, time.Time{}, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, time.Time{}, ErrNotRegular
	}
	if st.Size > max {
		return nil, time.Time{}, errTooLarge
	}
	mod := time.Unix(st.Mtim.Unix())
	// One byte more than the size, so the read that returns 0 needs no
	// growth; the file may still grow while read, hence the loop and cap.
	if want := int(st.Size) + 1; cap(buf) < want {
		buf = make([]byte, 0, want)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		room := buf[len(buf):cap(buf)]
		if int64(len(buf)+len(room)) > max+1 {
			room = room[:max+1-int64(len(buf))]
		}
		n, err := syscall.Read(fd, room)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, time.Time{}, err
		}
		if n == 0 {
			return buf, mod, nil
		}
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > max {
			return nil, time.Time{}, errTooLarge
		}
		// A short read of a regular file that has given all fstat
		// announced is its end: no second read to hear 0. A file whose
		// size says nothing (st.Size 0, as in /proc) is read to 0.
		if n < len(room) && st.Size > 0 && int64(len(buf)) >= st.Size {
			return buf, mod, nil
		}
	}
}
