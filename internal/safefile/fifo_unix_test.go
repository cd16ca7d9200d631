//go:build unix

package safefile

import (
	"path/filepath"
	"syscall"
	"testing"
)

func mkfifo(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "tube")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
