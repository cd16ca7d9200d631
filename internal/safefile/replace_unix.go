//go:build unix

package safefile

import (
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// replaceAt stages data beside target and renames it over target, both
// relative to the folder opened once and checked as an open folder.
func (p Protected) replaceAt(target string, data []byte, perm os.FileMode, like fs.FileInfo) error {
	return p.inOpenDir(target, data, perm, like, func(dfd int, tmp, base string) error {
		return unix.Renameat(dfd, tmp, dfd, base)
	})
}

// WriteNew writes data to path whole or not at all, fails with ErrExists
// when path exists, and never lands in the key folder or below it (pret
// modele): the open-folder check of WriteReplace, then link(2) relative
// to that folder, which never replaces a name.
func (p Protected) WriteNew(path string, data []byte, perm os.FileMode) error {
	return p.inOpenDir(path, data, perm, nil, func(dfd int, tmp, base string) error {
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

// inOpenDir opens target's folder once, refuses it when it is the key
// folder or below it, writes data to a new temporary name there (created
// exclusively, never through a link, mode perm whatever the umask,
// synced) and lets name give it its final name, relative to the open
// folder; the temporary name never outlives it.
func (p Protected) inOpenDir(target string, data []byte, perm os.FileMode, like fs.FileInfo, name func(dfd int, tmp, base string) error) error {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	dfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return PathError(dir, err)
	}
	defer unix.Close(dfd)
	if err := p.checkOpenDir(dfd, target); err != nil {
		return err
	}
	tmp, fd := "", -1
	for err = unix.EEXIST; errors.Is(err, unix.EEXIST); {
		tmp = "." + base + ".tmp-" + rand.Text()[:12]
		fd, err = unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	}
	if err != nil {
		return PathError(dir, err)
	}
	defer unix.Unlinkat(dfd, tmp, 0) // gone once named; else the leftover goes
	f := os.NewFile(uintptr(fd), filepath.Join(dir, tmp))
	if err := f.Chmod(perm); err != nil { // fchmod: the umask does not matter
		f.Close()
		return PathError(target, err)
	}
	if err := fill(f, data, like); err != nil {
		return PathError(target, err)
	}
	if err := name(dfd, tmp, base); err != nil {
		return PathError(target, err)
	}
	// Some file systems refuse fsync on a folder; the data itself is synced.
	_ = unix.Fsync(dfd)
	return nil
}

// checkOpenDir refuses the open folder dfd when it is the key folder or
// any folder below it: it walks up through ".." from the open folder,
// comparing device and inode, so the answer is about the folder that
// will be written in, whatever its path says by now.
func (p Protected) checkOpenDir(dfd int, target string) error {
	var key unix.Stat_t
	if p.dir == "" || unix.Stat(p.dir, &key) != nil {
		return nil // no key folder: nothing to protect in it
	}
	cur, err := unix.Dup(dfd)
	if err != nil {
		return PathError(target, err)
	}
	defer func() { unix.Close(cur) }()
	var st unix.Stat_t
	if err := unix.Fstat(cur, &st); err != nil {
		return PathError(target, err)
	}
	for {
		if st.Dev == key.Dev && st.Ino == key.Ino {
			return &Error{Path: target, Reason: ErrProtected.Error(), Err: ErrProtected}
		}
		up, err := unix.Openat(cur, "..", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return PathError(target, err)
		}
		unix.Close(cur)
		cur = up
		below := st
		if err := unix.Fstat(cur, &st); err != nil {
			return PathError(target, err)
		}
		if st.Dev == below.Dev && st.Ino == below.Ino {
			return nil // the root is its own parent
		}
	}
}
