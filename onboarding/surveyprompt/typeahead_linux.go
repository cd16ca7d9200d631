package surveyprompt

import "golang.org/x/sys/unix"

// dropTypedAhead discards what the terminal holds typed before a
// passphrase is asked, as ssh-add's prompt does (readpassphrase sets its
// mode with TCSAFLUSH): echoed then, it would be taken unseen (outside
// tester).
func dropTypedAhead(fd uintptr) {
	unix.IoctlSetInt(int(fd), unix.TCFLSH, unix.TCIFLUSH) // not a terminal: nothing to drop
}
