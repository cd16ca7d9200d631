package submissions

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
)

// archive/zip holds a whole central directory in memory, one *zip.File of
// about 360 bytes per record (46 bytes on disk), and takes the records'
// count from no field: it reads records until one is not a record. So
// scanDirectory counts them itself, as archive/zip will, before
// zip.NewReader is called (securite.md, "Archives bornées").
const (
	// maxArchiveEntries is 100,000 submissions (organisateurs.md) and
	// their .pub: about 70 MiB of zip.File. An export past it can be split.
	maxArchiveEntries = 200_000
	// maxCentralDirectory bounds the names' bytes: 200,000 of Moodle's
	// long names take well under it.
	maxCentralDirectory = 64 << 20
)

// archiveTooLargeError is an archive refused for its number of entries or
// the size of its directory; the organiser reads it as too-large.
type archiveTooLargeError struct{ msg string }

func (e *archiveTooLargeError) Error() string { return e.msg }

// tooManyEntries says how many entries the archive has (how, "en annonce N").
func tooManyEntries(how string, limit uint64) error {
	return &archiveTooLargeError{"archive trop grande : elle " + how + " entrées, pret en lit au plus " + frenchCount(limit) +
		" ; aucune n'a été lue. Découpez l'export en plusieurs archives (par groupe, par exemple) et nommez-les toutes."}
}

// frenchCount writes 200000 as "200 000", with a narrow no-break space.
func frenchCount(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "\u202f" + s[i:]
	}
	return s
}

var le = binary.LittleEndian

// Sizes and signatures of the zip format (APPNOTE.TXT 4.3).
const (
	recordLen   = 46 // central directory record, before its name
	endLen      = 22 // end of central directory record
	end64LocLen = 20 // zip64 end of central directory locator
	end64Len    = 56 // zip64 end of central directory record
	recordSig   = 0x02014b50
	endSig      = 0x06054b50
	end64LocSig = 0x07064b50
	end64Sig    = 0x06064b50
)

// dirEnd is what an archive's (zip64) end record says, and where it is.
type dirEnd struct {
	records, dirSize, dirOff uint64
	endOff                   int64
}

// readDirEnd reads the end record as archive/zip's readDirectoryEnd
// does; ok is false when there is none it would read.
func readDirEnd(r io.ReaderAt, size int64) (dirEnd, bool) {
	end, endOff, ok := findEnd(r, size)
	if !ok {
		return dirEnd{}, false
	}
	b := end[4:]
	d := dirEnd{uint64(le.Uint16(b[6:])), uint64(le.Uint32(b[8:])), uint64(le.Uint32(b[12:])), endOff}
	// The zip64 end record, when these say there is one (as archive/zip
	// tests, 0xffff on the size included) and its locator is just before.
	var loc [end64LocLen]byte
	if (d.records == 0xffff || d.dirSize == 0xffff || d.dirOff == 0xffffffff) && endOff >= end64LocLen {
		_, err := r.ReadAt(loc[:], endOff-end64LocLen)
		if err != nil || le.Uint32(loc[:]) != end64LocSig || le.Uint32(loc[4:]) != 0 || le.Uint32(loc[16:]) != 1 {
			return d, true
		}
		p := int64(le.Uint64(loc[8:]))
		var rec [end64Len]byte
		if _, err := r.ReadAt(rec[:], p); err != nil || le.Uint32(rec[:]) != end64Sig {
			return dirEnd{}, false
		}
		d = dirEnd{le.Uint64(rec[32:]), le.Uint64(rec[40:]), le.Uint64(rec[48:]), p}
	}
	return d, true
}

// findEnd finds the end record as archive/zip does: the last signature
// in the last 65 KiB, if its comment fits before the end. archive/zip
// looks in the last 1 KiB first, which finds the same one sooner.
func findEnd(r io.ReaderAt, size int64) ([]byte, int64, bool) {
	n := min(65*1024, size)
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-n); err != nil && err != io.EOF {
		return nil, 0, false
	}
	for i := len(buf) - endLen; i >= 0; i-- {
		if le.Uint32(buf[i:]) == endSig {
			if comment := int(le.Uint16(buf[i+endLen-2:])); i+endLen+comment <= len(buf) {
				return buf[i : i+endLen], size - n + int64(i), true
			}
			break // the last signature, and only it
		}
	}
	return nil, 0, false
}

// windowRecords is how many records a window holds at least (a variable
// for the fuzz target).
var windowRecords = 2048

// window is a run of records of the central directory.
type window struct {
	start, end int64
	records    int
}

// scanDirectory counts the central directory's records as zip.NewReader
// will read them, from each place archive/zip may find its start, and
// refuses more than maxEntries, or more than maxBytes of them; an archive
// it cannot read is left to zip.NewReader, which refuses it too.
//
// It also cuts the directory into windows of whole learners (nil: read
// whole), so that 100,000 learners' records are not held at once, each
// read through a view ending with an end record of its own. An archive
// whose learners' entries are apart, with data before its first entry or
// past 4 GiB, or a record whose size or offset is in a zip64 extra, is
// read whole.
func scanDirectory(r io.ReaderAt, size int64, maxEntries uint64, maxBytes int64) ([]window, error) {
	d, ok := readDirEnd(r, size)
	if !ok {
		return nil, nil
	}
	if d.records > maxEntries {
		return nil, tooManyEntries("en annonce "+frenchCount(d.records), maxEntries)
	}
	if d.dirSize > 1<<63-1 || d.dirOff > 1<<63-1 {
		return nil, nil
	}
	base := d.endOff - int64(d.dirSize) - int64(d.dirOff)
	if o := base + int64(d.dirOff); o < 0 || o >= size {
		return nil, nil
	}
	starts := []int64{base + int64(d.dirOff)}
	if base > 0 {
		// archive/zip then uses base 0 instead when a record starts
		// there; count from both.
		starts = append(starts, int64(d.dirOff))
	}
	for _, start := range starts {
		var err error
		var n uint64
		var bytes int64
		scanRecords(r, size, start, func(_ []byte, len int64, _ bool) bool {
			if n, bytes = n+1, bytes+len; n > maxEntries {
				err = tooManyEntries("en contient plus de "+frenchCount(maxEntries), maxEntries)
			} else if bytes > maxBytes {
				err = &archiveTooLargeError{fmt.Sprintf("archive trop grande : son répertoire central (la liste des entrées) dépasse %s octets ; aucune entrée n'a été lue. Découpez l'export en plusieurs archives et nommez-les toutes.", frenchCount(uint64(maxBytes)))}
			}
			return err == nil
		})
		if err != nil {
			return nil, err
		}
	}
	if base != 0 || d.records <= uint64(windowRecords) || d.endOff >= 0xffffffff {
		return nil, nil
	}
	var windows []window
	at, from, records, total, group, apart, closed := int64(d.dirOff), int64(d.dirOff), 0, uint16(0), "", false, map[string]bool{}
	scanRecords(r, size, at, func(name []byte, len int64, zip64 bool) bool {
		if apart = zip64; apart {
			return false // its fields are in an extra archive/zip may refuse: read whole
		}
		g := learnerGroupOf(string(name))
		if records > 0 && g != group {
			if apart = closed[g]; apart {
				return false
			}
			closed[group] = true
			if records >= windowRecords {
				windows = append(windows, window{from, at, records})
				from, records = at, 0
			}
		}
		group, at, records, total = g, at+len, records+1, total+1
		return true
	})
	// archive/zip refuses a count (modulo 65,536) not the end record's.
	if apart || at != d.endOff || total != uint16(d.records) {
		return nil, nil // not the directory archive/zip would read: let it say so
	}
	return append(windows, window{from, at, records}), nil
}

// scanRecords gives fn the name and length of each central directory
// record from start that zip.NewReader reads (whole, with its signature),
// and whether a size or offset is 0xffffffff (its value in a zip64
// extra), until fn returns false.
func scanRecords(r io.ReaderAt, size, start int64, fn func(name []byte, n int64, zip64 bool) bool) {
	br := bufio.NewReaderSize(io.NewSectionReader(r, start, size-start), 64<<10)
	var rec [recordLen]byte
	var name []byte
	for {
		if _, err := io.ReadFull(br, rec[:]); err != nil || le.Uint32(rec[:]) != recordSig {
			return
		}
		nameLen := int(le.Uint16(rec[28:]))
		rest := int(le.Uint16(rec[30:])) + int(le.Uint16(rec[32:]))
		name = slices.Grow(name[:0], nameLen)[:nameLen]
		if _, err := io.ReadFull(br, name); err != nil {
			return
		}
		zip64 := le.Uint32(rec[20:]) == 0xffffffff || le.Uint32(rec[24:]) == 0xffffffff || le.Uint32(rec[42:]) == 0xffffffff
		if skipped, _ := br.Discard(rest); skipped < rest || !fn(name, int64(recordLen+nameLen+rest), zip64) {
			return // a record cut short is not read
		}
	}
}

// learnerGroupOf is who an entry belongs to, for windows: the first
// element of its cleaned path, or its Moodle name; "" at the root.
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

// windowReader is the archive cut after a window of its directory, then
// an end record that names that window alone.
type windowReader struct {
	r    io.ReaderAt
	end  int64
	eocd [endLen]byte
}

// reader is the view of r for w; the count is modulo 65,536, as archive/zip compares.
func (w window) reader(r io.ReaderAt) *io.SectionReader {
	v := &windowReader{r: r, end: w.end}
	e := v.eocd[:]
	le.PutUint32(e, endSig)
	le.PutUint16(e[8:], uint16(w.records))
	le.PutUint16(e[10:], uint16(w.records))
	le.PutUint32(e[12:], uint32(w.end-w.start))
	le.PutUint32(e[16:], uint32(w.start))
	return io.NewSectionReader(v, 0, v.end+endLen)
}

func (v *windowReader) ReadAt(p []byte, off int64) (int, error) {
	if off >= v.end {
		n := copy(p, v.eocd[min(off-v.end, endLen):])
		if n < len(p) {
			return n, io.EOF
		}
		return n, nil
	}
	k := min(int64(len(p)), v.end-off)
	n, err := v.r.ReadAt(p[:k], off)
	if int64(n) < k {
		return n, err
	}
	m, err := v.ReadAt(p[k:], v.end)
	return n + m, err
}
