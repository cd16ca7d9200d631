package checklist

import "github.com/romeo-pret/pret/internal/safefile"

// ErrTooLarge is returned by ReadBounded for a file over its limit.
var ErrTooLarge = safefile.ErrTooLarge

// ReadBounded reads a whole regular file of at most limit bytes; a larger
// one is not read and gives ErrTooLarge. It is safefile's reader: a FIFO
// or a device is refused without blocking.
func ReadBounded(path string, limit int64) ([]byte, error) { return ReadInto(path, limit, nil) }

// ReadInto is ReadBounded into buf, reused when large enough: a batch of
// thousands of files allocates one buffer per worker. A link named here
// is followed; use safefile.ReadInto with safefile.NoFollow inside
// walked folders.
func ReadInto(path string, limit int64, buf []byte) ([]byte, error) {
	return safefile.ReadInto(path, safefile.Kind{Name: "fichier", Max: limit}, safefile.FollowLink, buf)
}

// Describe says in French why a file could not be read, without the
// path (the caller shows it) and without the system's English.
func Describe(err error) string { return safefile.Reason(err) }
