package submissions

import (
	"encoding/binary"
	"io/fs"
	"math"
	"os"
	"slices"
	"syscall"

	"golang.org/x/sys/unix"
)

// listDir lists the open folder f, sorted by name, as os.File.ReadDir
// would (the same entries and types, "." and ".." left out) but
// straight from getdents64 into one block of names: no object per
// entry. sc is the walk's scratch, reused from folder to folder: the
// listing grows there, then is copied out at its size, so that a
// folder costs two allocations of what it holds, whatever its size.
func listDir(f *os.File, sc *listScratch) (listing, error) {
	if len(sc.dirents) == 0 {
		sc.dirents = make([]byte, 32<<10)
	}
	fd := int(f.Fd())
	names, ents := sc.names[:0], sc.ents[:0]
	defer func() { sc.names, sc.ents = names[:0], ents[:0] }()
	for {
		n, err := unix.Getdents(fd, sc.dirents)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return listing{}, &fs.PathError{Op: "readdirent", Path: f.Name(), Err: err}
		}
		if n <= 0 {
			break
		}
		if names, ents, err = parseDirents(fd, f.Name(), sc.dirents[:n], names, ents); err != nil {
			return listing{}, err
		}
	}
	l := listing{names: string(names), ents: slices.Clone(ents)}
	l.sort()
	return l, nil
}

// parseDirents appends the entries of the getdents64 records in b to
// names and ents: struct linux_dirent64 is d_ino u64, d_off s64,
// d_reclen u16, d_type u8, then the name, NUL-terminated and padded.
// fd is the folder, asked for the type of an entry the file system
// gave none.
func parseDirents(fd int, dir string, b []byte, names []byte, ents []dirEnt) ([]byte, []dirEnt, error) {
	for len(b) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			break // as ReadDir: a record cut short ends the buffer
		}
		rec := b[:reclen]
		b = b[reclen:]
		name := rec[19:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if string(name) == "." || string(name) == ".." {
			continue
		}
		typ, known := direntType(rec[18])
		if !known {
			// The file system gave no type: asked of the file itself,
			// never following a link, as ReadDir does.
			var st unix.Stat_t
			if err := unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				if err == unix.ENOENT {
					continue // gone since the listing: ReadDir skips it too
				}
				return names, ents, &fs.PathError{Op: "fstatat", Path: dir + "/" + string(name), Err: err}
			}
			typ = statType(st.Mode)
		}
		if len(names)+len(name) > math.MaxUint32 {
			return names, ents, &fs.PathError{Op: "readdirent", Path: dir, Err: syscall.ENOMEM}
		}
		off := len(names)
		names = append(names, name...)
		ents = append(ents, dirEnt{off: uint32(off), end: uint32(len(names)), typ: typ})
	}
	return names, ents, nil
}

func direntType(t byte) (fs.FileMode, bool) {
	switch t {
	case unix.DT_BLK:
		return fs.ModeDevice, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_REG:
		return 0, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	}
	return 0, false
}

func statType(mode uint32) fs.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFBLK:
		return fs.ModeDevice
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFSOCK:
		return fs.ModeSocket
	}
	return 0 // a regular file, or a kind os.Lstat has no bit for either
}
