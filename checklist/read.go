package checklist

import "github.com/romeo-pret/pret/internal/safefile"

// ErrTooLarge is returned by ReadBounded for a file over its limit.
var ErrTooLarge = safefile.ErrTooLarge

// ReadBounded reads a whole regular file of at most limit bytes; a larger
// one is not read and gives ErrTooLarge. It is safefile's reader: a FIFO
// or a device is refused without blocking.
func ReadBounded(path string, limit int64) ([]byte, error) { return ReadInto(path, limit, nil) }

// ReadInto is ReadBounded; buf is no longer reused. A link named here is
// followed; walked folders use safefile.ReadIn, which never follows one.
func ReadInto(path string, limit int64, buf []byte) ([]byte, error) {
	return safefile.Read(path, safefile.Kind{Name: "fichier", Max: limit}, safefile.FollowLink)
}

// Describe says in French why a file could not be read, without the
// path (the caller shows it) and without the system's English.
func Describe(err error) string { return safefile.Reason(err) }
