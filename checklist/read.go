package checklist

import "github.com/romeo-pret/pret/internal/safefile"

// ErrTooLarge is returned by ReadBounded for a file over its limit.
var ErrTooLarge = safefile.ErrTooLarge

// ReadBounded reads a whole regular file of at most limit bytes with
// safefile's reader: a larger one gives ErrTooLarge, a FIFO or a device
// is refused without blocking. A link named here is followed; use
// safefile.ReadIn inside walked folders.
func ReadBounded(path string, limit int64) ([]byte, error) {
	return safefile.Read(path, safefile.Kind{Name: "fichier", Max: limit}, safefile.FollowLink)
}

// Describe says in French why a file could not be read, without the
// path (the caller shows it) and without the system's English.
func Describe(err error) string { return safefile.Reason(err) }
