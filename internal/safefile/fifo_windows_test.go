//go:build windows

package safefile

import (
	"syscall"
	"testing"
)

func mkfifo(t *testing.T) string { t.Fatal("pas de FIFO sous Windows"); return "" }

func errnoOf(n int) syscall.Errno { return syscall.Errno(n) }
