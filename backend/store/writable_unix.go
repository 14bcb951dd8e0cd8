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

// freeBytes returns the space left to this process on the file system of
// dir.
func freeBytes(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
