//go:build windows

package safefile

import (
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// openRead: without follow, the last element is opened as itself
// (FILE_FLAG_OPEN_REPARSE_POINT; Windows has no O_NOFOLLOW) and a link or
// junction is refused; another reparse point (a cloud placeholder) is
// opened again normally, so its data is read.
func openRead(path string, follow bool) (*os.File, error) {
	if follow {
		return os.Open(path)
	}
	h, err := createFile(path, windows.GENERIC_READ, windows.OPEN_EXISTING, windows.FILE_FLAG_OPEN_REPARSE_POINT, nil)
	if err != nil {
		return nil, err
	}
	link, reparse, err := reparseKind(h)
	if err == nil && !reparse {
		return os.NewFile(uintptr(h), path), nil
	}
	windows.CloseHandle(h)
	switch {
	case err != nil:
		return nil, err
	case link:
		return nil, syscall.ELOOP
	}
	return openRead(path, true)
}

// symlinkErrno: Windows has no O_NOFOLLOW; links are caught by openRead.
const symlinkErrno = syscall.ELOOP

// openIn opens by path: Windows has no openat, and the walk's folder
// checks (device and inode of each folder) stay what guard it.
func openIn(_ *os.File, _, path string) (*os.File, error) { return openRead(path, false) }

func createFile(path string, access, disposition, flags uint32, sa *windows.SecurityAttributes) (windows.Handle, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return windows.InvalidHandle, err
	}
	share := uint32(windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE)
	return windows.CreateFile(p, access, share, sa, disposition, flags|windows.FILE_ATTRIBUTE_NORMAL, 0)
}

// fileAttributeTagInfo is FILE_ATTRIBUTE_TAG_INFO, absent from x/sys.
type fileAttributeTagInfo struct {
	FileAttributes uint32
	ReparseTag     uint32
}

// reparseKind says whether the open file is a reparse point, and whether
// it names another file (link, junction: the "name surrogate" tag bit).
func reparseKind(h windows.Handle) (link, reparse bool, err error) {
	var info fileAttributeTagInfo
	err = windows.GetFileInformationByHandleEx(h, windows.FileAttributeTagInfo, (*byte)(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
	if err != nil {
		return false, false, err
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT == 0 {
		return false, false, nil
	}
	const nameSurrogate = 0x20000000
	return info.ReparseTag&nameSurrogate != 0, true, nil
}

// IsLink tells whether the name at path is a symbolic link or a junction
// (which Go reports as irregular: a key through it would land elsewhere).
func IsLink(path string, st fs.FileInfo) bool {
	if st.Mode()&fs.ModeSymlink != 0 {
		return true
	}
	if st.Mode()&fs.ModeIrregular == 0 {
		return false
	}
	h, err := createFile(path, 0, windows.OPEN_EXISTING, windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, nil)
	if err != nil {
		return true // cannot tell: treat it as the link it may be
	}
	defer windows.CloseHandle(h)
	link, _, err := reparseKind(h)
	return err != nil || link
}

// createStaged creates a new file in dir (CREATE_NEW). A file others must
// not read (perm without group or other bits: the private key) is born
// with a protected owner-only DACL, as Windows' OpenSSH demands, set
// again on the handle in case creation merged inherited entries.
func createStaged(dir, prefix string, perm os.FileMode) (*os.File, error) {
	var sa *windows.SecurityAttributes
	var dacl *windows.ACL
	access := uint32(windows.GENERIC_READ | windows.GENERIC_WRITE)
	if perm&0o077 == 0 {
		// Owned by the user running pret, no inheritance, full access for
		// that user alone.
		var sd *windows.SECURITY_DESCRIPTOR
		user, err := windows.GetCurrentProcessToken().GetTokenUser()
		if err == nil {
			sid := user.User.Sid.String()
			sd, err = windows.SecurityDescriptorFromString("O:" + sid + "D:P(A;;FA;;;" + sid + ")")
		}
		if err == nil {
			dacl, _, err = sd.DACL()
		}
		if err != nil {
			return nil, err
		}
		sa = &windows.SecurityAttributes{Length: uint32(unsafe.Sizeof(windows.SecurityAttributes{})), SecurityDescriptor: sd}
		access |= windows.WRITE_DAC
	}
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36))
		h, err := createFile(name, access, windows.CREATE_NEW, 0, sa)
		if errors.Is(err, windows.ERROR_FILE_EXISTS) || errors.Is(err, windows.ERROR_ALREADY_EXISTS) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		if sa != nil {
			err = windows.SetSecurityInfo(h, windows.SE_FILE_OBJECT,
				windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION,
				nil, nil, dacl, nil)
			if err != nil {
				windows.CloseHandle(h)
				os.Remove(name)
				return nil, &fs.PathError{Op: "chmod", Path: name, Err: err}
			}
		}
		return os.NewFile(uintptr(h), name), nil
	}
	return nil, &fs.PathError{Op: "open", Path: dir, Err: fs.ErrExist}
}

// createStaged's random part is a uint64 in base 36.
const stagedDigits, stagedLen = "0123456789abcdefghijklmnopqrstuvwxyz", 13

// linkNew: MoveFileEx without MOVEFILE_REPLACE_EXISTING is an atomic
// "rename if absent": it fails when the name exists, link included.
func linkNew(tmp, path string) error {
	from, err := windows.UTF16PtrFromString(tmp)
	if err != nil {
		return err
	}
	to, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return err
	}
	return windows.MoveFileEx(from, to, windows.MOVEFILE_WRITE_THROUGH)
}

// lockName: NTFS refuses LockFileEx on a folder, so the lock lives in an
// empty file, left in place (removed, two processes could lock two files).
const lockName = ".pret.lock"

// LockDir takes an exclusive lock, waiting at most wait (no limit when
// negative): two pret take turns in dir. A process that dies releases it.
func LockDir(dir string, wait time.Duration) (unlock func(), err error) {
	path := filepath.Join(dir, lockName)
	h, err := createFile(path, windows.GENERIC_READ|windows.GENERIC_WRITE, windows.OPEN_ALWAYS, windows.FILE_FLAG_OPEN_REPARSE_POINT, nil)
	if err != nil {
		return nil, PathError(path, err)
	}
	if link, _, err := reparseKind(h); err != nil || link {
		windows.CloseHandle(h)
		if err == nil {
			err = syscall.ELOOP
		}
		return nil, PathError(path, err)
	}
	ol := new(windows.Overlapped)
	err = retry(dir, wait, func() (bool, error) {
		err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
		return err == windows.ERROR_LOCK_VIOLATION, err
	})
	if err != nil {
		windows.CloseHandle(h)
		return nil, PathError(path, err)
	}
	return func() {
		windows.UnlockFileEx(h, 0, 1, 0, ol)
		windows.CloseHandle(h)
	}, nil
}

// osReasons translates the Windows errors that have no Unix name.
var osReasons = map[syscall.Errno]string{
	windows.ERROR_DISK_FULL:         diskFull,
	windows.ERROR_HANDLE_DISK_FULL:  diskFull,
	windows.ERROR_WRITE_PROTECT:     "le support est protégé en écriture",
	windows.ERROR_SHARING_VIOLATION: "le fichier est ouvert par un autre programme",
	windows.ERROR_LOCK_VIOLATION:    "le fichier est ouvert par un autre programme",
	windows.ERROR_INVALID_NAME:      "nom de fichier invalide sous Windows",
	windows.ERROR_BAD_PATHNAME:      "nom de fichier invalide sous Windows",
	syscall.ELOOP:                   "c'est un lien symbolique ou une jonction, que pret ne suit pas ici",
}

// deviceFlags: Windows opens NUL or a console for writing as it is.
const deviceFlags = 0

// keepsPerm: a replaced file takes its folder's ACL, as a new one.
const keepsPerm = false

// keepOwner: the new file is the writer's, as with any editor.
func keepOwner(*os.File, fs.FileInfo) {}

// replaceAt stages what write gives beside target and renames it over target.
func (p Protected) replaceAt(target string, write func(io.Writer) error, perm os.FileMode, like fs.FileInfo) error {
	return p.put(target, write, perm, like, func(s *Pending) error { return os.Rename(s.tmp, s.path) })
}

// WriteNew writes data to path whole or not at all, fails with ErrExists
// when path exists, and never lands in the key folder or below it.
func (p Protected) WriteNew(path string, data []byte, perm os.FileMode) error {
	return p.put(path, from(data), perm, nil, (*Pending).Link)
}

// Rename renames path to newName in its folder, refused as writes are
// (checked just before); a name taken is ErrExists: nothing is replaced.
func (p Protected) Rename(path, newName string) error {
	newPath := filepath.Join(filepath.Dir(path), newName)
	if err := p.CheckTree(path); err != nil {
		return err
	}
	if _, err := os.Lstat(newPath); err == nil {
		return &Error{Path: newPath, Reason: ErrExists.Error(), Err: ErrExists}
	}
	return PathError(path, os.Rename(path, newPath))
}

// put stages what write gives beside target and checks target just before
// naming it (no openat: a folder swapped in the instant between is not caught).
func (p Protected) put(target string, write func(io.Writer) error, perm os.FileMode, like fs.FileInfo, name func(*Pending) error) error {
	st, err := stage(target, write, perm, like)
	if err != nil {
		return err
	}
	defer st.Discard()
	if err := p.CheckTree(target); err != nil {
		return err
	}
	if err := name(st); err != nil {
		return PathError(target, err)
	}
	return KeyFiles{}.SyncDir(filepath.Dir(target))
}
