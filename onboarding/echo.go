//go:build linux || darwin || freebsd || netbsd || openbsd

package onboarding

import (
	"os"

	"golang.org/x/sys/unix"
)

// quietTerminal turns the terminal's echo and signal keys off while f
// runs. survey only does so once its prompt is drawn: a passphrase typed
// or pasted ahead of that would be echoed by the terminal itself, and a
// Ctrl-C would arrive as a signal racing survey's own terminal changes
// instead of a key survey reads and cleans up after.
func quietTerminal(in any, f func() error) error {
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
	quiet.Lflag &^= unix.ECHO | unix.ISIG
	if err := unix.IoctlSetTermios(fd, ioctlSetTermios, &quiet); err != nil {
		return f()
	}
	defer unix.IoctlSetTermios(fd, ioctlSetTermios, old)
	return f()
}
