package submissions

import (
	"io/fs"
	"slices"
	"strings"
)

// listing is a folder's entries sorted by name. Every name lives in one
// string and each entry holds offsets into it, not pointers: a folder of
// 100,000 files is a few blocks the collector never scans, where one
// fs.DirEntry per file would be 100,000 objects it scans at every cycle
// of the run.
type listing struct {
	names string
	ents  []dirEnt
}

// dirEnt is one entry: its name is names[off:end], typ its type bits
// as fs.DirEntry.Type gives them.
type dirEnt struct {
	off, end uint32
	typ      fs.FileMode
}

func (l listing) len() int               { return len(l.ents) }
func (l listing) name(i int) string      { e := l.ents[i]; return l.names[e.off:e.end] }
func (l listing) typ(i int) fs.FileMode  { return l.ents[i].typ }
func (l listing) nameOf(e dirEnt) string { return l.names[e.off:e.end] }

// listScratch is where the walk lists folders, one after the other:
// the kernel's records, and the names and entries as they grow.
type listScratch struct {
	dirents []byte
	names   []byte
	ents    []dirEnt
}

// sort orders the entries by name, bytewise, as the walk hands them out.
func (l *listing) sort() {
	names := l.names
	slices.SortFunc(l.ents, func(a, b dirEnt) int {
		return strings.Compare(names[a.off:a.end], names[b.off:b.end])
	})
}

// pubNames are the regular files of the folder whose name ends in .pub.
func (l listing) pubNames() []string {
	var names []string
	for i := range l.ents {
		if n := l.name(i); strings.HasSuffix(n, ".pub") && l.ents[i].typ.IsRegular() {
			names = append(names, n)
		}
	}
	return names
}

// listingOf is the listing of entries as os.ReadDir gives them (where
// the folder is not read by listDir's own means, and in tests).
func listingOf(entries []fs.DirEntry) listing {
	var b strings.Builder
	ents := make([]dirEnt, 0, len(entries))
	for _, e := range entries {
		off := b.Len()
		b.WriteString(e.Name())
		ents = append(ents, dirEnt{off: uint32(off), end: uint32(b.Len()), typ: e.Type()})
	}
	l := listing{names: b.String(), ents: ents}
	l.sort()
	return l
}
