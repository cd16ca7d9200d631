//go:build unix && !linux

package submissions

import "syscall"

// dirNonBlock keeps O_NONBLOCK where O_DIRECTORY is not known to refuse
// a FIFO before opening it.
const dirNonBlock = syscall.O_NONBLOCK
