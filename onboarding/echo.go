//go:build linux || darwin || freebsd || netbsd || openbsd

package onboarding

import (
	"os"

	"golang.org/x/sys/unix"
)

// withoutEcho turns the terminal's echo off while f runs. survey only
// turns it off once the prompt is drawn; a passphrase typed or pasted
// ahead of that would otherwise be echoed by the terminal itself.
func withoutEcho(in any, f func() error) error {
	file, ok := in.(*os.File)
	if !ok {
		return f()
	}
	fd := int(file.Fd())
	old, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return f()
	}
	quiet := *old
	quiet.Lflag &^= unix.ECHO
	if err := unix.IoctlSetTermios(fd, ioctlSetTermios, &quiet); err != nil {
		return f()
	}
	defer unix.IoctlSetTermios(fd, ioctlSetTermios, old)
	return f()
}
