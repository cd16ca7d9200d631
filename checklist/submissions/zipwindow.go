package submissions

import (
	"encoding/binary"
	"io"
)

// archive/zip holds every record of an archive's central directory at
// once, about 360 bytes each: a Moodle export of 100,000 learners, each
// with an acces.md and a .pub, is 70 MiB of records before anything is
// read. So the directory is read a window at a time: zip.NewReader is
// given a view of the archive that ends with a few thousand records and
// an end record of its own that names them (windowReader). The entries'
// data lies before the directory, at the offsets their records give, so
// each window's entries open as in the whole archive.
//
// A window holds whole learners: every entry of one top-level folder
// (or one Moodle name, for a flat export) is in the same window, so that
// a submission meets the .pub beside it and a learner's files are seen
// together. When the archive does not keep each learner's entries
// together, or has data before its first entry, or lies past 4 GiB,
// it is read whole, as archive/zip reads it.

// windowRecords is how many records a window holds at least (a
// variable for the fuzz target, which reads small archives by windows).
var windowRecords = 2048

// window is a run of records of the central directory: its bytes and
// how many records it holds.
type window struct {
	start, end int64
	records    int
}

// directoryWindows are the windows of the archive's central directory,
// or nil when it must be read whole.
func directoryWindows(r io.ReaderAt, size int64) []window {
	d, ok := readDirEnd(r, size)
	if !ok || d.dirSize > 1<<62 || d.dirOff > 1<<62 {
		return nil
	}
	records, dirSize, dirOff, endOff := d.records, int64(d.dirSize), int64(d.dirOff), d.endOff
	// Small archives, prepended data, and offsets a plain end record
	// cannot hold: read whole.
	if records <= uint64(windowRecords) || dirOff+dirSize != endOff || dirOff+dirSize >= 0xffffffff {
		return nil
	}
	var windows []window
	start, at, n := dirOff, dirOff, 0
	var group string
	closed := map[string]bool{}
	apart := false
	end := scanRecords(r, size, dirOff, func(name []byte, len int64) bool {
		g := learnerGroupOf(string(name))
		if n > 0 && g != group {
			if apart = closed[g]; apart {
				return false // a learner's entries apart: read whole
			}
			closed[group] = true
			if n >= windowRecords {
				windows = append(windows, window{start, at, n})
				start, n = at, 0
			}
		}
		group = g
		at += len
		n++
		return true
	})
	if apart || end != dirOff+dirSize {
		return nil // not the directory archive/zip would read: let it say so
	}
	return append(windows, window{start, end, n})
}

// learnerGroupOf is who an entry belongs to, for windows: its Moodle
// name when the first element of its cleaned path carries one, else that
// first element, "" for a file at the root.
func learnerGroupOf(name string) string {
	dir, base := splitEntry(name)
	parts := entryParts(cleanEntryDir(dir) + base)
	first := ""
	if len(parts) > 1 {
		first = "d:" + parts[0]
	}
	if len(parts) > 0 {
		if _, key, ok := moodleLearner(parts[0]); ok {
			first = "m:" + key
		}
	}
	return first
}

// windowReader is the archive cut after the window [start, end) of its
// directory, followed by an end record that names that window alone.
type windowReader struct {
	r          io.ReaderAt
	start, end int64
	eocd       [endLen]byte
}

// reader is the view of r for w. The end record's count is the window's
// modulo 65,536: archive/zip reads records until one is not a record,
// and compares the count only modulo 65,536.
func (w window) reader(r io.ReaderAt) *io.SectionReader {
	v := &windowReader{r: r, start: w.start, end: w.end}
	e := v.eocd[:]
	binary.LittleEndian.PutUint32(e, endSig)
	binary.LittleEndian.PutUint16(e[8:], uint16(w.records))
	binary.LittleEndian.PutUint16(e[10:], uint16(w.records))
	binary.LittleEndian.PutUint32(e[12:], uint32(w.end-w.start))
	binary.LittleEndian.PutUint32(e[16:], uint32(w.start))
	return io.NewSectionReader(v, 0, v.end+endLen)
}

func (v *windowReader) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	if off < v.end {
		k := min(int64(len(p)), v.end-off)
		m, err := v.r.ReadAt(p[:k], off)
		n += m
		if err != nil && !(err == io.EOF && int64(m) == k) {
			return n, err
		}
		p, off = p[k:], off+k
	}
	if len(p) == 0 {
		return n, nil
	}
	if off-v.end >= endLen {
		return n, io.EOF
	}
	m := copy(p, v.eocd[off-v.end:])
	n += m
	if m < len(p) {
		return n, io.EOF
	}
	return n, nil
}
