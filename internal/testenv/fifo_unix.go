//go:build unix

package testenv

import (
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// FIFOReader makes a FIFO at path with its reading end open, so a writer
// opening it without waiting finds a reader; got returns what was read
// once the writer has closed, or what came within wait.
func FIFOReader(t testing.TB, path string, wait time.Duration) (got func() []byte) {
	t.Helper()
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan []byte, 1)
	go func() {
		defer unix.Close(fd)
		var all []byte
		buf := make([]byte, 1<<16)
		// Before a writer comes, a read gives 0 (or EAGAIN): wait for data,
		// then read until the writer closes.
		for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			n, err := unix.Read(fd, buf)
			for ; n > 0; n, err = unix.Read(fd, buf) {
				all = append(all, buf[:n]...)
			}
			if err == nil && len(all) > 0 {
				break
			}
		}
		ch <- all
	}()
	return func() []byte { return <-ch } // sent by the deadline at the latest
}

// WritesIntoDevices gives write a copy of /dev/null (1, 3) in a temporary
// folder and fails if it is replaced: caught on a copy, not the machine's.
// Without the right to make a node, the test is skipped.
func WritesIntoDevices(t testing.TB, write func(path string)) {
	t.Helper()
	node := filepath.Join(t.TempDir(), "null")
	if err := unix.Mknod(node, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
		t.Skipf("mknod refusé (%v) : sans copie pour vérifier l'écriture, les périphériques du système ne sont pas touchés", err)
	}
	write(node)
	var st unix.Stat_t
	if err := unix.Lstat(node, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFCHR || uint64(st.Rdev) != unix.Mkdev(1, 3) {
		t.Fatalf("the writer replaced a character device (%v): the machine's own are not named", err)
	}
}
