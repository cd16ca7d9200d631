package checklist

import (
	"errors"
	"io/fs"
	"syscall"
)

// ErrTooLarge is returned by ReadBounded for a file over its limit.
var ErrTooLarge = errors.New("trop grand")

// ReadBounded reads a whole file of at most limit bytes; a larger one is
// not read and gives ErrTooLarge.
func ReadBounded(path string, limit int64) ([]byte, error) { return ReadInto(path, limit, nil) }

// ReadInto is ReadBounded into buf, reused when large enough: a batch of
// thousands of files allocates one buffer per worker. It reads with plain
// system calls (open, fstat, read, close): os.Open would add a poller
// registration per file, which costs more than the read itself on a page
// of text.
func ReadInto(path string, limit int64, buf []byte) ([]byte, error) {
	fd, err := openRetry(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
		return nil, errors.New("c'est un dossier")
	}
	if st.Size > limit {
		return nil, ErrTooLarge
	}
	if want := int(st.Size) + 1; cap(buf) < want {
		buf = make([]byte, 0, want)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, ErrTooLarge
		}
	}
}

func openRetry(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// Describe says in French why a file could not be read.
func Describe(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission refusée"
	case errors.Is(err, fs.ErrNotExist):
		return "fichier introuvable"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
