package surveyprompt

import "golang.org/x/sys/unix"

// dropTypedAhead: typeahead_linux.go. TIOCFLUSH takes FREAD, TCIFLUSH's value.
func dropTypedAhead(fd uintptr) {
	unix.IoctlSetPointerInt(int(fd), unix.TIOCFLUSH, unix.TCIFLUSH)
}
