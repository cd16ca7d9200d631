//go:build !linux

package submissions

import "os"

// listDir lists the open folder f, sorted by name.
func listDir(f *os.File, _ *listScratch) (listing, error) {
	entries, err := f.ReadDir(-1)
	if err != nil {
		return listing{}, err
	}
	return listingOf(entries), nil
}
