// Package outfile writes a file the user named (an exported report, a
// BibTeX file) safely: only onto a regular file or a new path, never onto
// a device, a FIFO, a socket or a folder, and atomically (a temporary file
// in the same folder, synced, then renamed over the target), so a failed
// write never leaves half a file and a special file is never replaced.
//
// The CLI (`papertree export --out`) and the app's save dialog share it.
package outfile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/papertree/papertree/backend/papertree"
)

// Write writes data to path. A symlink is followed and the file it leads
// to is replaced (the link stays); a link to anything but a regular file,
// a link to nothing, a folder and every special file are refused with a
// coded EInvalid error whose message says what path is. An existing file
// keeps its permission bits; a new one gets perm.
func Write(ctx context.Context, path string, data []byte, perm fs.FileMode) error {
	if err := ctx.Err(); err != nil {
		return papertree.Wrap(err, papertree.ECanceled, "The file was not written: the job was cancelled.")
	}
	if path == "" {
		return papertree.Errorf(papertree.EInvalid, "No file name was given to write to.")
	}
	target, mode, err := Check(path)
	if err != nil {
		return err
	}
	if mode != 0 {
		perm = mode.Perm()
	}
	return writeAtomic(target, data, perm)
}

// Check reports whether path can be written by Write and returns the file
// that would be replaced (path itself, or where its symlinks lead) and the
// mode of the existing file (0 for a new path).
func Check(path string) (target string, mode fs.FileMode, err error) {
	name := path
	lst, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return path, 0, checkDir(path, name)
	}
	if err != nil {
		return "", 0, papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("%s cannot be checked (%s), so nothing was written.", name, plain(err)))
	}
	target = path
	st := lst
	if lst.Mode()&fs.ModeSymlink != 0 {
		target, err = filepath.EvalSymlinks(path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", 0, papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("%s is a link to something that does not exist, so nothing was written.", name))
			}
			return "", 0, papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("%s is a link that cannot be followed (%s), so nothing was written.", name, plain(err)))
		}
		if st, err = os.Stat(target); err != nil {
			return "", 0, papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("%s is a link to %s, which cannot be checked (%s), so nothing was written.", name, target, plain(err)))
		}
	}
	if what := kind(st.Mode()); what != "" {
		if target != path {
			what = "a link to " + what
		}
		return "", 0, papertree.Errorf(papertree.EInvalid, "%s is %s, not a regular file, so nothing was written.", name, what)
	}
	return target, st.Mode(), nil
}

// checkDir checks that a new file can be created next to path.
func checkDir(path, name string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The folder %s does not exist, so %s was not written.", dir, filepath.Base(name)))
	case err != nil:
		return papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The folder %s cannot be used (%s), so %s was not written.", dir, plain(err), filepath.Base(name)))
	case !st.IsDir():
		return papertree.Errorf(papertree.EInvalid, "%s is not a folder, so %s was not written.", dir, filepath.Base(name))
	}
	return nil
}

// kind names a file type that is not a regular file, "" for a regular file.
func kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// writeAtomic writes data to a temporary file in path's folder, syncs it,
// renames it over path and syncs the folder.
func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	dir, base := filepath.Dir(path), filepath.Base(path)
	fail := func(err error) error {
		return papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("%s could not be written (%s).", path, plain(err)))
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return fail(err)
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Chmod(perm)
	}
	if werr == nil {
		werr = tmp.Sync()
	}
	if err := errors.Join(werr, tmp.Close()); err != nil {
		os.Remove(name)
		return fail(err)
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fail(err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // the rename survives a crash; not every system can sync a folder
		d.Close()
	}
	return nil
}

// plain names a file-system error without Go's "op path:" prefix.
func plain(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, fs.ErrNotExist):
		return "it does not exist"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}
