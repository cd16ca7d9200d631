package submissions

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
)

// archive/zip reads a whole central directory into memory before anything
// else, one *zip.File per record: about 360 bytes each with a short name,
// for a record that can be 46 bytes on disk. It takes the records' count
// from no field: it reads records until one is not a record, and only
// compares the count modulo 65,536 with the archive's end record. So an
// archive of N bytes could cost about 8×N bytes of memory whatever its end
// record declares. checkArchiveLimits reads the end record and counts the
// records itself, as archive/zip will, before zip.NewReader is called.
const (
	// maxArchiveEntries is 100,000 submissions (the scale organisateurs.md
	// names), each with its .pub beside it: the archive/zip records of
	// such an export take about 70 MiB. An export past it can be split.
	maxArchiveEntries = 200_000
	// maxCentralDirectory bounds the names' bytes: 200,000 records with
	// Moodle's long names ("Dupont Alice_123456_assignsubmission_file_/…",
	// under 200 bytes each) take well under it.
	maxCentralDirectory = 64 << 20
)

// archiveTooLargeError is an archive refused for its number of entries or
// the size of its directory; the organiser reads it as too-large.
type archiveTooLargeError struct{ msg string }

func (e *archiveTooLargeError) Error() string { return e.msg }

// tooManyEntries says how many entries the end record declares (how,
// "en annonce N"), or that the directory holds more than the cap.
func tooManyEntries(how string, limit uint64) error {
	return &archiveTooLargeError{"archive trop grande : elle " + how + " entrées, pret en lit au plus " + frenchCount(limit) +
		" ; aucune n'a été lue. Découpez l'export en plusieurs archives (par groupe, par exemple) et nommez-les toutes."}
}

// frenchCount writes 200000 as "200 000" (a narrow no-break space, as
// French typography groups digits).
func frenchCount(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "\u202f" + s[i:]
	}
	return s
}

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

// dirEnd is what an archive's end record (or its zip64 end record) says
// of the central directory, and where that record is.
type dirEnd struct {
	records, dirSize, dirOff uint64
	endOff                   int64
}

// readDirEnd reads the end record as archive/zip does; ok is false
// when there is none it would read.
func readDirEnd(r io.ReaderAt, size int64) (dirEnd, bool) {
	end, endOff, ok := findEnd(r, size)
	if !ok {
		return dirEnd{}, false
	}
	b := end[4:]
	d := dirEnd{records: uint64(binary.LittleEndian.Uint16(b[6:])), dirSize: uint64(binary.LittleEndian.Uint32(b[8:])),
		dirOff: uint64(binary.LittleEndian.Uint32(b[12:])), endOff: endOff}
	// The zip64 end record, when these say there is one (archive/zip's
	// test, 0xffff on the size included).
	if d.records == 0xffff || d.dirSize == 0xffff || d.dirOff == 0xffffffff {
		if p, ok := findEnd64(r, endOff); ok {
			var rec [end64Len]byte
			if _, err := r.ReadAt(rec[:], p); err != nil || binary.LittleEndian.Uint32(rec[:]) != end64Sig {
				return dirEnd{}, false
			}
			d = dirEnd{records: binary.LittleEndian.Uint64(rec[32:]), dirSize: binary.LittleEndian.Uint64(rec[40:]),
				dirOff: binary.LittleEndian.Uint64(rec[48:]), endOff: p}
		}
	}
	return d, true
}

// checkArchiveLimits refuses an archive whose end record declares more
// than maxEntries entries, or whose central directory holds more records
// than that, or more than maxBytes bytes of them (maxArchiveEntries and
// maxCentralDirectory for the walk). It
// finds the directory as archive/zip does (reader.go, readDirectoryEnd)
// and counts the records as zip.NewReader's loop reads them: from the
// directory's start, each record that begins with its signature and is
// whole. Where archive/zip would find the start in one of two places, both
// are counted and the larger count holds. An archive this cannot read is
// left to zip.NewReader, which refuses it too.
//
// Memory: two blocks of at most 65 KiB and one read buffer, whatever the
// archive holds.
func checkArchiveLimits(r io.ReaderAt, size int64, maxEntries uint64, maxBytes int64) error {
	d, ok := readDirEnd(r, size)
	if !ok {
		return nil
	}
	if d.records > maxEntries {
		return tooManyEntries("en annonce "+frenchCount(d.records), maxEntries)
	}
	if d.dirSize > 1<<63-1 || d.dirOff > 1<<63-1 {
		return nil
	}
	base := d.endOff - int64(d.dirSize) - int64(d.dirOff)
	if o := base + int64(d.dirOff); o < 0 || o >= size {
		return nil
	}
	starts := []int64{base + int64(d.dirOff)}
	if base > 0 {
		// archive/zip then uses base 0 instead when a record starts
		// there; count from both.
		starts = append(starts, int64(d.dirOff))
	}
	var err error
	for _, start := range starts {
		var n uint64
		var bytes int64
		scanRecords(r, size, start, func(_ []byte, len int64) bool {
			if n, bytes = n+1, bytes+len; n > maxEntries {
				err = tooManyEntries("en contient plus de "+frenchCount(maxEntries), maxEntries)
			} else if bytes > maxBytes {
				err = &archiveTooLargeError{fmt.Sprintf("archive trop grande : son répertoire central (la liste des entrées) dépasse %s octets ; aucune entrée n'a été lue. Découpez l'export en plusieurs archives et nommez-les toutes.", frenchCount(uint64(maxBytes)))}
			}
			return err == nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// findEnd finds the end of central directory record as archive/zip does:
// the last signature in the last 1 KiB whose comment fits, else in the
// last 65 KiB.
func findEnd(r io.ReaderAt, size int64) ([]byte, int64, bool) {
	for _, n := range []int64{1024, 65 * 1024} {
		n = min(n, size)
		buf := make([]byte, n)
		if _, err := r.ReadAt(buf, size-n); err != nil && err != io.EOF {
			return nil, 0, false
		}
		// The last signature, and only it: when its comment runs past
		// the block, archive/zip looks in the larger block.
		for i := len(buf) - endLen; i >= 0; i-- {
			if binary.LittleEndian.Uint32(buf[i:]) == endSig {
				if comment := int(binary.LittleEndian.Uint16(buf[i+endLen-2:])); i+endLen+comment <= len(buf) {
					return buf[i : i+endLen], size - n + int64(i), true
				}
				break
			}
		}
		if n == size {
			break
		}
	}
	return nil, 0, false
}

// findEnd64 reads the zip64 locator just before the end record: the
// offset of the zip64 end record, when the locator is one.
func findEnd64(r io.ReaderAt, endOff int64) (int64, bool) {
	if endOff < end64LocLen {
		return 0, false
	}
	var loc [end64LocLen]byte
	if _, err := r.ReadAt(loc[:], endOff-end64LocLen); err != nil {
		return 0, false
	}
	if binary.LittleEndian.Uint32(loc[:]) != end64LocSig || binary.LittleEndian.Uint32(loc[4:]) != 0 || binary.LittleEndian.Uint32(loc[16:]) != 1 {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint64(loc[8:])), true
}

// scanRecords reads the central directory's records from start as
// zip.NewReader does: each that begins with its signature and is whole.
// It gives fn each record's name and length, stops when fn returns
// false, and returns where the last record read ends. Memory: one read
// buffer and one name.
func scanRecords(r io.ReaderAt, size, start int64, fn func(name []byte, n int64) bool) int64 {
	br := bufio.NewReaderSize(io.NewSectionReader(r, start, size-start), 64<<10)
	var rec [recordLen]byte
	var name []byte
	end := start
	for {
		if _, err := io.ReadFull(br, rec[:]); err != nil || binary.LittleEndian.Uint32(rec[:]) != recordSig {
			return end
		}
		nameLen := int(binary.LittleEndian.Uint16(rec[28:]))
		rest := int(binary.LittleEndian.Uint16(rec[30:])) + int(binary.LittleEndian.Uint16(rec[32:]))
		name = slices.Grow(name[:0], nameLen)[:nameLen]
		if _, err := io.ReadFull(br, name); err != nil {
			return end
		}
		if skipped, _ := br.Discard(rest); skipped < rest {
			return end // a record cut short is not read
		}
		n := int64(recordLen + nameLen + rest)
		end += n
		if !fn(name, n) {
			return end
		}
	}
}
