//go:build unix

package submissions

import "syscall"

const haveFIFO = true

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }
