//go:build unix

package safefile

import (
	"crypto/rand"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// symlinkErrno is what open(O_NOFOLLOW) gives for a link besides ELOOP:
// FreeBSD says EMLINK.
const symlinkErrno = syscall.EMLINK

// readFlags: O_NONBLOCK makes opening a FIFO return at once (readOpen
// then refuses it); O_NOCTTY keeps a terminal from becoming pret's.
const readFlags = unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY

func openRead(path string, follow bool) (*os.File, error) {
	flags := readFlags
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	return os.OpenFile(path, flags, 0)
}

// openIn opens one name, no separator, relative to the open folder: the
// kernel looks up that name, not the whole path again.
func openIn(dir *os.File, name, path string) (*os.File, error) {
	if name == "" || strings.ContainsRune(name, '/') {
		return nil, syscall.ENOENT
	}
	defer runtime.KeepAlive(dir) // the folder stays open while openat reads its fd
	for {
		fd, err := unix.Openat(int(dir.Fd()), name, readFlags|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == nil {
			return os.NewFile(uintptr(fd), path), nil
		} else if err != unix.EINTR {
			return nil, err
		}
	}
}

// createStaged creates a new file in dir (O_EXCL, mode 0600) and gives it
// perm with fchmod, so the umask does not matter.
func createStaged(dir, prefix string, perm os.FileMode) (*os.File, error) {
	f, err := os.CreateTemp(dir, prefix+"*")
	if err == nil {
		if err = f.Chmod(perm); err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}
	return f, err
}

// os.CreateTemp's random part is a uint32 in decimal.
const stagedDigits, stagedLen = "0123456789", 10

// linkNew: link(2) fails with EEXIST when the name exists, link included.
func linkNew(tmp, path string) error { return os.Link(tmp, path) }

// LockDir locks the folder (flock), waiting at most wait (no limit when
// negative): two pret take turns in it. The lock dies with the process.
func LockDir(dir string, wait time.Duration) (unlock func(), err error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, PathError(dir, err)
	}
	err = retry(dir, wait, func() (bool, error) {
		err := unix.Flock(int(d.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		return err == unix.EWOULDBLOCK || err == unix.EINTR, err
	})
	if err != nil {
		d.Close()
		return nil, PathError(dir, err)
	}
	return func() { d.Close() }, nil // closing the folder releases the lock
}

// osReasons: the Unix errors are the syscall names Reason knows.
var osReasons map[syscall.Errno]string

// IsLink tells whether the name at path is a symbolic link.
func IsLink(_ string, st fs.FileInfo) bool { return st.Mode()&fs.ModeSymlink != 0 }

// deviceFlags: a FIFO without a reader fails at once (ENXIO) instead of
// waiting; a terminal never becomes pret's controlling one.
const deviceFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY

// keepsPerm: a replaced file keeps its permission bits.
const keepsPerm = true

// keepOwner gives f the owner and group of the file it replaces when pret
// runs as root; otherwise it is the writer's, as with any editor.
func keepOwner(f *os.File, like fs.FileInfo) {
	if st, ok := like.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 {
		_ = f.Chown(int(st.Uid), int(st.Gid))
	}
}

// replaceAt renames the staged file over target in the open folder.
func (p Protected) replaceAt(target string, write func(io.Writer) error, perm os.FileMode, like fs.FileInfo) error {
	return p.inOpenDir(target, write, perm, like, func(dfd int, tmp, base string) error {
		return unix.Renameat(dfd, tmp, dfd, base)
	})
}

// WriteNew writes data to path whole or not at all, fails with ErrExists
// when path exists, and never lands in the key folder or below it: the
// open-folder check of WriteReplace, then linkat, which never replaces.
func (p Protected) WriteNew(path string, data []byte, perm os.FileMode) error {
	return p.inOpenDir(path, from(data), perm, nil, func(dfd int, tmp, base string) error {
		err := unix.Linkat(dfd, tmp, dfd, base, 0)
		if !errors.Is(err, unix.EEXIST) {
			return err
		}
		var st unix.Stat_t
		if unix.Fstatat(dfd, base, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
			return &Error{Path: path, Reason: ErrSymlink.Error(), Err: ErrSymlink}
		}
		return &Error{Path: path, Reason: ErrExists.Error(), Err: ErrExists}
	})
}

// inOpenDir opens target's folder once, refuses the key folder and below,
// writes (with write) a new temporary name there (O_EXCL, O_NOFOLLOW,
// synced) and lets name give it its final name; the temporary name never
// stays.
func (p Protected) inOpenDir(target string, write func(io.Writer) error, perm os.FileMode, like fs.FileInfo, name func(dfd int, tmp, base string) error) error {
	_, base := filepath.Split(target)
	dir := Dir(target)
	dfd, err := p.openDir(target)
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	tmp, fd := "", -1
	for err = unix.EEXIST; err == unix.EEXIST; {
		tmp = "." + base + ".tmp-" + rand.Text()[:12]
		fd, err = unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	}
	if err != nil {
		return PathError(dir, err)
	}
	defer unix.Unlinkat(dfd, tmp, 0) // gone once named; else the leftover goes
	f := os.NewFile(uintptr(fd), filepath.Join(dir, tmp))
	if err = f.Chmod(perm); err != nil { // fchmod: the umask does not matter
		f.Close()
	} else if err = fill(f, write, like); err == nil {
		err = name(dfd, tmp, base)
	}
	if err != nil {
		return PathError(target, err)
	}
	_ = unix.Fsync(dfd) // some file systems refuse fsync on a folder
	return nil
}

// openDir opens target's folder, refused when it is a key folder or below.
func (p Protected) openDir(target string) (int, error) {
	dir := Dir(target)
	dfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, PathError(dir, err)
	}
	if err := p.checkOpenDir(dfd, target); err != nil {
		unix.Close(dfd)
		return -1, err
	}
	return dfd, nil
}

// Rename renames path to newName in its folder, opened once and refused as
// writes are: whatever its path says by now, no key folder has a name
// changed. A name taken is ErrExists; nothing is replaced.
func (p Protected) Rename(path, newName string) error {
	dfd, err := p.openDir(path)
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	// A hard link to a file of a key folder, as CheckTree refuses writes.
	if err := p.CheckTree(path); err != nil {
		return err
	}
	// A folder cannot be linked then removed: a look, then renameat.
	var st unix.Stat_t
	if unix.Fstatat(dfd, newName, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
		return &Error{Path: newName, Reason: ErrExists.Error(), Err: ErrExists}
	}
	return PathError(path, unix.Renameat(dfd, filepath.Base(path), dfd, newName))
}

// checkOpenDir refuses the open folder dfd when it is a key folder or
// below one, walking up through ".." by device and inode: the answer is
// about the folder written in, whatever its path says by now.
func (p Protected) checkOpenDir(dfd int, target string) error {
	var keyDirs []unix.Stat_t
	for _, dir := range p.dirs {
		var key unix.Stat_t
		if dir != "" && unix.Stat(dir, &key) == nil { // no folder: nothing to protect in it
			keyDirs = append(keyDirs, key)
		}
	}
	if len(keyDirs) == 0 {
		return nil
	}
	var st unix.Stat_t
	cur, err := unix.Dup(dfd)
	if err == nil {
		err = unix.Fstat(cur, &st)
	}
	defer func() { unix.Close(cur) }()
	for err == nil {
		for _, key := range keyDirs {
			if st.Dev == key.Dev && st.Ino == key.Ino {
				return &Error{Path: target, Reason: ErrProtected.Error(), Err: ErrProtected}
			}
		}
		below := st
		var up int
		if up, err = unix.Openat(cur, "..", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
			break
		}
		unix.Close(cur)
		cur = up
		if err = unix.Fstat(cur, &st); err == nil && st.Dev == below.Dev && st.Ino == below.Ino {
			return nil // the root is its own parent
		}
	}
	return PathError(target, err)
}
