//go:build unix

package testenv

import (
	"syscall"
	"testing"
	"time"
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
