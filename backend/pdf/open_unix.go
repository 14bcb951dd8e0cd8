//go:build unix

package pdf

import (
	"os"
	"syscall"
)

// openNonblock makes opening a FIFO return at once instead of waiting for
// a writer (it has no effect on regular files).
const openNonblock = syscall.O_NONBLOCK

// clearNonblock puts a regular file back in blocking mode (reads of regular
// files never block, but the flag is not ours to leave behind).
func clearNonblock(f *os.File) {
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) { _ = syscall.SetNonblock(int(fd), false) })
	}
}
