package submissions

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// manyEntries is a zip with one real submission, kim/acces.md, and n-1
// empty entries that share one local header: about 53 bytes an entry, so
// an archive past the cap costs 11 MB to build. Its end record declares
// declared entries: a zip64 end record when that does not fit 16 bits,
// else the plain one (declared may then be the count modulo 65,536, all
// archive/zip checks).
func manyEntries(t testing.TB, n int, declared uint64) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "kim/acces.md", Method: zip.Store})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(page(newKey(1).fp, false)))
	if _, err := zw.CreateHeader(&zip.FileHeader{Name: "pad0000", Method: zip.Store}); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	one := buf.Bytes()
	endOff := bytes.LastIndex(one, []byte("PK\x05\x06"))
	cd := int(binary.LittleEndian.Uint32(one[endOff+16:]))
	recLen := func(p int) int {
		return recordLen + int(binary.LittleEndian.Uint16(one[p+28:])) + int(binary.LittleEndian.Uint16(one[p+30:])) + int(binary.LittleEndian.Uint16(one[p+32:]))
	}
	kim := one[cd : cd+recLen(cd)]
	pad := one[cd+len(kim) : cd+len(kim)+recLen(cd+len(kim))]
	var out bytes.Buffer
	out.Grow(cd + len(kim) + n*len(pad) + 100)
	out.Write(one[:cd])
	out.Write(kim)
	for i := 1; i < n; i++ {
		r := out.Len()
		out.Write(pad)
		copy(out.Bytes()[r+recordLen:], fmt.Sprintf("%07d", i))
	}
	dirSize := uint64(out.Len() - cd)
	le := binary.LittleEndian
	if declared >= 0xffff {
		end64 := uint64(out.Len())
		rec := make([]byte, end64Len)
		le.PutUint32(rec, end64Sig)
		le.PutUint64(rec[4:], end64Len-12)
		le.PutUint16(rec[12:], 45)
		le.PutUint16(rec[14:], 45)
		le.PutUint64(rec[24:], declared)
		le.PutUint64(rec[32:], declared)
		le.PutUint64(rec[40:], dirSize)
		le.PutUint64(rec[48:], uint64(cd))
		out.Write(rec)
		loc := make([]byte, end64LocLen)
		le.PutUint32(loc, end64LocSig)
		le.PutUint64(loc[8:], end64)
		le.PutUint32(loc[16:], 1)
		out.Write(loc)
	}
	end := make([]byte, endLen)
	le.PutUint32(end, endSig)
	if declared >= 0xffff {
		le.PutUint16(end[8:], 0xffff)
		le.PutUint16(end[10:], 0xffff)
		le.PutUint32(end[12:], 0xffffffff)
		le.PutUint32(end[16:], 0xffffffff)
	} else {
		le.PutUint16(end[8:], uint16(declared))
		le.PutUint16(end[10:], uint16(declared))
		le.PutUint32(end[12:], uint32(dirSize))
		le.PutUint32(end[16:], uint32(cd))
	}
	out.Write(end)
	return out.Bytes()
}

// TestArchiveEntryCap: an archive of maxArchiveEntries entries is read;
// one entry more is too-large with a French reason, whether its end
// record says so (zip64) or hides it (a count that matches modulo
// 65,536, which archive/zip accepts after holding every record), costs
// a few buffers instead of every record, and the next argument is read.
func TestArchiveEntryCap(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "suivant")
	os.MkdirAll(filepath.Join(good, "lee"), 0o755)
	os.WriteFile(filepath.Join(good, "lee", "acces.md"), []byte(page(newKey(2).fp, false)), 0o644)

	validate := func(data []byte) ([]string, string, uint64) {
		p := filepath.Join(dir, "export.zip")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		res := Validate([]string{p, good}, Options{Rules: testRules, Workers: 2})
		runtime.ReadMemStats(&m1)
		var got []string
		msg := ""
		for _, r := range res {
			v := "valide"
			if !r.Valid {
				v = string(r.Problems[0].Code)
				msg = r.Problems[0].Message
			}
			got = append(got, strings.TrimPrefix(r.Path, dir+"/")+" "+v)
		}
		return got, msg, m1.TotalAlloc - m0.TotalAlloc
	}

	atCap := manyEntries(t, maxArchiveEntries, maxArchiveEntries)
	if zr, err := zip.NewReader(bytes.NewReader(atCap), int64(len(atCap))); err != nil || len(zr.File) != maxArchiveEntries {
		t.Fatalf("the archive at the cap is not what archive/zip reads: %v", err)
	}
	got, _, readAlloc := validate(atCap)
	if want := "export.zip!/kim/acces.md valide|suivant/lee/acces.md valide"; strings.Join(got, "|") != want {
		t.Fatalf("at the cap: %q, want %q", got, want)
	}
	t.Logf("at the cap (%d entries, %d bytes): %d MiB allocated", maxArchiveEntries, len(atCap), readAlloc>>20)

	for _, c := range []struct {
		name     string
		declared uint64
		says     string
	}{
		{"zip64 end record declaring one more", maxArchiveEntries + 1, "annonce 200\u202f001 entrées"},
		{"count hidden modulo 65,536", (maxArchiveEntries + 1) % 65536, "contient plus de 200\u202f000 entrées"},
	} {
		over := manyEntries(t, maxArchiveEntries+1, c.declared)
		if c.declared < 0xffff {
			// archive/zip itself would read it whole: the cap is ours.
			if zr, err := zip.NewReader(bytes.NewReader(over), int64(len(over))); err != nil || len(zr.File) != maxArchiveEntries+1 {
				t.Fatalf("%s: archive/zip reads %v", c.name, err)
			}
		}
		got, msg, alloc := validate(over)
		if want := "export.zip too-large|suivant/lee/acces.md valide"; strings.Join(got, "|") != want {
			t.Fatalf("%s: %q, want %q", c.name, got, want)
		}
		if !strings.Contains(msg, c.says) || !strings.Contains(msg, "Découpez l'export") {
			t.Errorf("%s: message %q", c.name, msg)
		}
		// Three 64 KiB buffers and the run's own records: far below
		// what holding 200,001 records takes (the figure logged above).
		if alloc > 2<<20 || alloc > readAlloc/20 {
			t.Errorf("%s: refusing it allocated %d KiB (reading the archive at the cap: %d KiB)", c.name, alloc>>10, readAlloc>>10)
		}
		t.Logf("%s: refused after %d KiB allocated", c.name, alloc>>10)
	}
}

// TestArchiveCountIsArchiveZips: over generated archives (names, comments,
// bytes before the archive as in a self-extracting one, entries past 16
// bits of count) and the same with bytes flipped or cut, whenever
// zip.NewReader reads k entries, scanDirectory lets k through and
// refuses k-1: the count it bounds is never below the one archive/zip
// holds.
func TestArchiveCountIsArchiveZips(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	read := 0
	for i := 0; i < 600; i++ {
		var data []byte
		if i%50 == 0 {
			n := 65530 + rng.IntN(20)
			data = manyEntries(t, n, uint64(n)%65536)
		} else {
			var buf bytes.Buffer
			buf.Write(bytes.Repeat([]byte("MZ"), rng.IntN(3)*rng.IntN(500)))
			zw := zip.NewWriter(&buf)
			zw.SetOffset(int64(buf.Len()))
			for range rng.IntN(40) {
				name := strings.Repeat("d/", rng.IntN(3)) + fmt.Sprint(rng.Int()) + "acces.md"
				w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Comment: strings.Repeat("c", rng.IntN(4)), Method: zip.Store})
				if err != nil {
					t.Fatal(err)
				}
				w.Write([]byte(strings.Repeat("x", rng.IntN(30))))
			}
			if rng.IntN(3) == 0 {
				zw.SetComment(strings.Repeat("PK\x05\x06", rng.IntN(100)))
			}
			zw.Close()
			data = buf.Bytes()
		}
		for m := range 4 {
			d := append([]byte(nil), data...)
			switch m {
			case 1: // bytes flipped in the directory and end record
				for range 1 + rng.IntN(4) {
					d[len(d)-1-rng.IntN(min(len(d), 400))] ^= byte(1 + rng.IntN(255))
				}
			case 2: // cut
				d = d[:rng.IntN(len(d)+1)]
			case 3: // bytes flipped anywhere
				if len(d) > 0 {
					d[rng.IntN(len(d))] ^= byte(1 + rng.IntN(255))
				}
			}
			zr, err := zip.NewReader(bytes.NewReader(d), int64(len(d)))
			if err != nil && err != zip.ErrInsecurePath {
				continue
			}
			k := uint64(len(zr.File))
			read++
			if _, err := scanDirectory(bytes.NewReader(d), int64(len(d)), k, 1<<40); err != nil {
				t.Fatalf("archive %d/%d: archive/zip reads %d entries, refused with a cap of %d: %v", i, m, k, k, err)
			}
			if k > 0 {
				if _, err := scanDirectory(bytes.NewReader(d), int64(len(d)), k-1, 1<<40); err == nil {
					t.Fatalf("archive %d/%d: archive/zip reads %d entries, a cap of %d lets it through", i, m, k, k-1)
				}
			}
		}
	}
	if read < 600 {
		t.Fatalf("only %d archives read by archive/zip: the property was barely exercised", read)
	}
}

// TestArchiveDirectoryBytesCap: the records' bytes are bounded too, since
// each name costs its length in memory.
func TestArchiveDirectoryBytesCap(t *testing.T) {
	data := manyEntries(t, 1000, 1000)
	dirBytes := int64(binary.LittleEndian.Uint32(data[len(data)-endLen+12:])) // as the end record says
	r := bytes.NewReader(data)
	if _, err := scanDirectory(r, int64(len(data)), 1000, dirBytes); err != nil {
		t.Fatalf("a directory of exactly the cap: %v", err)
	}
	_, err := scanDirectory(r, int64(len(data)), 1000, dirBytes-1)
	if err == nil || !strings.Contains(err.Error(), "répertoire central") {
		t.Fatalf("a directory one byte over: %v", err)
	}
}

// BenchmarkCheckArchiveSize: the count before zip.NewReader, on an
// archive of maxArchiveEntries entries (its directory walked whole),
// against zip.NewReader on the same archive.
func BenchmarkCheckArchiveSize(b *testing.B) {
	data := manyEntries(b, maxArchiveEntries, maxArchiveEntries)
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for range b.N {
			if _, err := scanDirectory(bytes.NewReader(data), int64(len(data)), maxArchiveEntries, maxCentralDirectory); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("zip.NewReader", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for range b.N {
			if _, err := zip.NewReader(bytes.NewReader(data), int64(len(data))); err != nil {
				b.Fatal(err)
			}
		}
	})
}
