//go:build linux

package app

import (
	"os"
	"syscall"
)

// identify returns what identifies the content version of a file.
func identify(st os.FileInfo) fileID {
	id := fileID{size: st.Size(), mtime: st.ModTime().UnixNano()}
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		id.dev, id.ino = uint64(s.Dev), uint64(s.Ino)
		sec, nsec := s.Ctim.Unix()
		id.ctimeSecond, id.ctimeNano = sec, nsec
	}
	return id
}
