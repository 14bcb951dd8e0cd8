//go:build !unix

package store

import "os"

// writable reports whether the file can be opened for writing.
func writable(p string) bool {
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// freeBytes is unknown on this platform.
func freeBytes(dir string) (int64, bool) { return 0, false }
