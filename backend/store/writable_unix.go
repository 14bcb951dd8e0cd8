//go:build unix

package store

import (
	"path/filepath"
	"syscall"
)

// writable reports whether this process may write the file and create the
// -wal/-shm files beside it.
func writable(p string) bool {
	return syscall.Access(p, 2) == nil && syscall.Access(filepath.Dir(p), 2|1) == nil
}
