package submissions

// dirNonBlock is 0 on Linux: O_DIRECTORY refuses anything but a folder
// (ENOTDIR) before opening it, so a FIFO is never opened, and a folder
// opened blocking is no file os.NewFile offers the poller (an
// epoll_ctl that fails, then a fcntl to undo O_NONBLOCK, per folder).
const dirNonBlock = 0
