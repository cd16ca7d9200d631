//go:build darwin || freebsd || netbsd || openbsd

package main

import "golang.org/x/sys/unix"

// macOS and the BSDs name the termios ioctl TIOCGETA.
const ioctlGetTermios = unix.TIOCGETA
