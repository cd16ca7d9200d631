// Package safefile is the one way pret reads a file it did not write and
// writes a file it must not leave half done.
//
// Reading: regular files only, opened without blocking (a FIFO or a
// device never stalls a run), never more than a cap per kind of file, and
// every error said in French. Writing: whole or nothing, through a
// temporary file in the same folder, replacing by rename or never.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// Kind is a sort of file pret reads, with the most bytes it may hold:
// far above any real file of the kind, far below what hurts a laptop.
type Kind struct {
	Name string // what it is, in French, for messages
	Max  int64
}

var (
	Key      = Kind{"clé SSH", 64 << 10}
	Access   = Kind{"acces.md", 1 << 20}
	Config   = Kind{"fichier de configuration", 1 << 20}
	State    = Kind{"fichier d'état", 1 << 20}
	Template = Kind{"modèle", 1 << 20}
	// A passphrase line of 4 Kio and its CRLF.
	Passphrase = Kind{"fichier de passphrase", 4<<10 + 2}
)

// Follow says whether a symbolic link in the last element of the path is
// followed: one the person named (--config, a template), never one where
// pret looks by itself (key files).
type Follow bool

const (
	NoFollow   Follow = false
	FollowLink Follow = true
)

var (
	// ErrTooLarge wraps every "over the cap" error; the message says the cap.
	ErrTooLarge = errors.New("fichier trop grand")
	// ErrSymlink is a symbolic link where pret does not follow one.
	ErrSymlink = errors.New("c'est un lien symbolique, que pret ne suit pas ici")
	// ErrNotRegular is a folder, FIFO, device or socket where a file belongs.
	ErrNotRegular = errors.New("ce n'est pas un fichier ordinaire")
)

// Read reads the whole file at path, at most k.Max bytes.
func Read(path string, k Kind, follow Follow) ([]byte, error) {
	f, err := openRead(path, bool(follow))
	data, _, err := readOpen(f, err, path, k, follow)
	return data, err
}

// ReadIn reads the file name in the open folder dir, never following a
// link, with its modification time: a walk reads the files of the folder
// it listed, even if another is swapped in at its path. path is for
// messages.
func ReadIn(dir *os.File, name, path string, k Kind) ([]byte, time.Time, error) {
	f, err := openIn(dir, name, path)
	return readOpen(f, err, path, k, NoFollow)
}

// readOpen reads and closes f (unless opening it failed with err), at
// most k.Max bytes; a FIFO or a device is refused before any read.
func readOpen(f *os.File, err error, path string, k Kind, follow Follow) ([]byte, time.Time, error) {
	var st os.FileInfo
	if err == nil {
		defer f.Close()
		st, err = f.Stat()
	}
	switch {
	case err != nil:
	case !st.Mode().IsRegular():
		err = ErrNotRegular
	case st.Size() > k.Max:
		err = errTooLarge
	default:
		// The file may grow while read: more than the cap is an error,
		// never a silent cut.
		var data []byte
		if data, err = io.ReadAll(io.LimitReader(f, k.Max+1)); err == nil && int64(len(data)) > k.Max {
			err = errTooLarge
		}
		if err == nil {
			return data, st.ModTime(), nil
		}
	}
	return nil, time.Time{}, wrap(path, k, follow, err)
}

// NotRegular is the error Read gives for a FIFO, socket or device at
// path, for a caller that must not open it (that releases a FIFO's writer).
func NotRegular(path string, k Kind) error { return wrap(path, k, NoFollow, ErrNotRegular) }

var errTooLarge = errors.New("too large")

func wrap(path string, k Kind, follow Follow, err error) error {
	var errno syscall.Errno
	switch {
	case errors.Is(err, errTooLarge):
		return &Error{Path: path, Reason: fmt.Sprintf("fichier trop grand (plus de %s) pour un %s : il n'a pas été lu", size(k.Max), k.Name), Err: ErrTooLarge}
	case errors.Is(err, ErrNotRegular):
		return &Error{Path: path, Reason: ErrNotRegular.Error() + " (dossier, tube, périphérique ou socket) : il n'a pas été lu", Err: ErrNotRegular}
	case follow == NoFollow && errors.As(err, &errno) && (errno == syscall.ELOOP || errno == symlinkErrno):
		return &Error{Path: path, Reason: ErrSymlink.Error(), Err: ErrSymlink}
	}
	return PathError(path, err)
}

// size writes a cap the French way: "64 Kio", "1 Mio".
func size(n int64) string {
	switch {
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d Mio", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%d Kio", n>>10)
	}
	return fmt.Sprintf("%d octets", n)
}
