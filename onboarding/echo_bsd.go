//go:build darwin || freebsd || netbsd || openbsd

package onboarding

import "golang.org/x/sys/unix"

const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)
