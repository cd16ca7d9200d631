//go:build unix

package testenv

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// FIFOReader makes a FIFO at path and opens its reading end before any
// writer comes (a non-blocking open needs none), so that a writer opening
// it without waiting finds a reader. got returns what was read once the
// writer has come and closed, or fails the test after wait.
func FIFOReader(t testing.TB, path string, wait time.Duration) (got func() []byte) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan []byte, 1)
	go func() {
		defer syscall.Close(fd)
		var all []byte
		buf := make([]byte, 1<<16)
		for deadline := time.Now().Add(wait); time.Now().Before(deadline); {
			n, err := syscall.Read(fd, buf)
			if n > 0 {
				all = append(all, buf[:n]...)
				continue
			}
			if err == nil && len(all) > 0 {
				break // the writer came and closed
			}
			time.Sleep(time.Millisecond)
		}
		ch <- all
	}()
	return func() []byte {
		select {
		case b := <-ch:
			return b
		case <-time.After(wait + time.Second):
			t.Fatal("the FIFO's reader got nothing")
			return nil
		}
	}
}

// WritesIntoDevices guards a test that names the machine's own /dev/null
// or /dev/full as an output: it makes a character device like /dev/null
// (1, 3) in a temporary folder, lets write write to it, and stops the
// test at once if the node is no longer that device. So a writer that
// would replace a device instead of writing into it is caught on a copy,
// before it reaches the machine's. Without the right to make a node, the
// test is skipped: the real devices are left alone.
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
