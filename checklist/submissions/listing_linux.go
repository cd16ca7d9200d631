package submissions

import (
	"encoding/binary"
	"io/fs"
	"math"
	"os"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// listDir lists the open folder f, sorted by name, as os.File.ReadDir
// would (the same entries and types, "." and ".." left out) but
// straight from getdents64 into one block of names: no object per
// entry. buf is the walk's buffer for the kernel's records, reused from
// folder to folder.
func listDir(f *os.File, buf *[]byte) (listing, error) {
	if len(*buf) == 0 {
		*buf = make([]byte, 32<<10)
	}
	fd := int(f.Fd())
	// The names go straight into the string the listing keeps: a
	// Builder's String copies nothing.
	var names strings.Builder
	var ents []dirEnt
	for {
		n, err := unix.Getdents(fd, *buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return listing{}, &fs.PathError{Op: "readdirent", Path: f.Name(), Err: err}
		}
		if n <= 0 {
			break
		}
		if ents, err = parseDirents(fd, f.Name(), (*buf)[:n], &names, ents); err != nil {
			return listing{}, err
		}
	}
	l := listing{names: names.String(), ents: ents}
	l.sort()
	return l, nil
}

// parseDirents appends the entries of the getdents64 records in b to
// names and ents: struct linux_dirent64 is d_ino u64, d_off s64,
// d_reclen u16, d_type u8, then the name, NUL-terminated and padded.
// fd is the folder, asked for the type of an entry the file system
// gave none.
func parseDirents(fd int, dir string, b []byte, names *strings.Builder, ents []dirEnt) ([]dirEnt, error) {
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
				return ents, &fs.PathError{Op: "fstatat", Path: dir + "/" + string(name), Err: err}
			}
			typ = statType(st.Mode)
		}
		if names.Len()+len(name) > math.MaxUint32 {
			return ents, &fs.PathError{Op: "readdirent", Path: dir, Err: syscall.ENOMEM}
		}
		off := names.Len()
		names.Write(name)
		ents = append(ents, dirEnt{off: uint32(off), end: uint32(names.Len()), typ: typ})
	}
	return ents, nil
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
