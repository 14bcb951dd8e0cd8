package pdf

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// TestFileError: each way opening a file fails is said in plain words
// (the audit saw "cannot be read" for a symlink loop and no reason at all
// for a file without read permission).
func TestFileError(t *testing.T) {
	pe := func(err error) error { return &fs.PathError{Op: "open", Path: "/papers/x.pdf", Err: err} }
	tests := []struct {
		name string
		err  error
		code papertree.Code
		msg  string
	}{
		{"permission denied", pe(syscall.EACCES), papertree.EInvalid, "Permission denied: PaperTree cannot read this file"},
		{"operation not permitted", pe(syscall.EPERM), papertree.EInvalid, "Permission denied: PaperTree cannot read this file"},
		{"symlink loop", pe(syscall.ELOOP), papertree.EInvalid, "a link that loops back on itself"},
		{"path too long", pe(syscall.ENAMETOOLONG), papertree.EInvalid, "path is too long"},
		{"a file where a folder should be", pe(syscall.ENOTDIR), papertree.ENotFound, "is not a folder"},
		{"I/O error", pe(syscall.EIO), papertree.EInvalid, "The disk reported an error"},
		{"does not exist", pe(syscall.ENOENT), papertree.ENotFound, "does not exist"},
		{"anything else", pe(syscall.EBUSY), papertree.EInvalid, "cannot be opened"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := FileError(tt.err)
			if e.Code != tt.code || !strings.Contains(e.Message, tt.msg) {
				t.Errorf("FileError = [%s] %q, want [%s] with %q", e.Code, e.Message, tt.code, tt.msg)
			}
			if strings.Contains(e.Message, "/papers/") || strings.Contains(e.Message, "syscall") {
				t.Errorf("message shows Go internals: %q", e.Message)
			}
		})
	}
}

// TestOpenRegularSaysWhy opens real files that cannot be read.
func TestOpenRegularSaysWhy(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks and permissions are unix here")
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string
		msg   string
	}{
		{"symlink loop of two links", func(t *testing.T, dir string) string {
			a, b := filepath.Join(dir, "a.pdf"), filepath.Join(dir, "b.pdf")
			os.Symlink(b, a)
			os.Symlink(a, b)
			return a
		}, "a link that loops back on itself"},
		{"link to itself", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "self.pdf")
			os.Symlink(p, p)
			return p
		}, "a link that loops back on itself"},
		{"no read permission", func(t *testing.T, dir string) string {
			if os.Geteuid() == 0 {
				t.Skip("root reads any file; FileError's table covers the message")
			}
			p := filepath.Join(dir, "np.pdf")
			os.WriteFile(p, []byte("%PDF-1.4\n"), 0)
			return p
		}, "Permission denied: PaperTree cannot read this file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _, err := OpenRegular(tt.setup(t, t.TempDir()), 0)
			if err == nil {
				f.Close()
				t.Fatal("opened")
			}
			if msg := papertree.ErrorMessage(err); !strings.Contains(msg, tt.msg) {
				t.Errorf("message %q, want %q", msg, tt.msg)
			}
		})
	}
}
