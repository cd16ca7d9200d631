//go:build windows

package safefile

import (
	"io"
	"os"
	"syscall"
	"time"
)

// symlinkErrno: Windows has no O_NOFOLLOW; links are caught by Lstat.
const symlinkErrno = syscall.ELOOP

// readFile on Windows: no FIFOs to block on; without follow, openRead
// refuses a symbolic link or a junction in the last element; the open
// file must be regular.
// readIn reads by path: Windows has no openat, and the walk's folder
// checks (device and inode of each folder) stay what guard it.
func readIn(dir *os.File, name, path string, max int64, buf []byte) ([]byte, time.Time, error) {
	return readStat(path, max, false, buf)
}

func readFile(path string, max int64, follow bool, buf []byte) ([]byte, error) {
	data, _, err := readStat(path, max, follow, buf)
	return data, err
}

// readStat is readFile that also gives the modification time.
func readStat(path string, max int64, follow bool, buf []byte) ([]byte, time.Time, error) {
	f, err := openRead(path, follow)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	if !st.Mode().IsRegular() {
		return nil, time.Time{}, ErrNotRegular
	}
	if st.Size() > max {
		return nil, time.Time{}, errTooLarge
	}
	w := &limitedBuffer{buf: buf, max: max}
	if _, err := io.Copy(w, f); err != nil {
		return nil, time.Time{}, err
	}
	return w.buf, st.ModTime(), nil
}

type limitedBuffer struct {
	buf []byte
	max int64
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if int64(len(l.buf)+len(p)) > l.max {
		return 0, errTooLarge
	}
	l.buf = append(l.buf, p...)
	return len(p), nil
}
