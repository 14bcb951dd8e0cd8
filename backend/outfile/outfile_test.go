//go:build unix

package outfile

import (
	"context"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// TestWrite: a report goes to a new path or replaces a regular file (also
// through a symlink, which stays a link); devices, FIFOs, sockets, folders
// and links to them are refused with a coded message and left as they were.
func TestWrite(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("special files are unix")
	}
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir string) string // returns the path to write
		wantErr string                                // "" = written
		check   func(t *testing.T, dir, path string)  // what is on disk afterwards
	}{
		{"new file", func(t *testing.T, dir string) string { return filepath.Join(dir, "r.md") }, "", func(t *testing.T, dir, path string) {
			mustMode(t, path, 0o644)
		}},
		{"existing regular file keeps its mode", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "r.md")
			os.WriteFile(p, []byte("old"), 0o600)
			return p
		}, "", func(t *testing.T, dir, path string) { mustMode(t, path, 0o600) }},
		{"symlink to a regular file: the file is replaced, the link stays", func(t *testing.T, dir string) string {
			real := filepath.Join(dir, "real.md")
			os.WriteFile(real, []byte("old"), 0o644)
			link := filepath.Join(dir, "link.md")
			os.Symlink(real, link)
			return link
		}, "", func(t *testing.T, dir, path string) {
			if st, err := os.Lstat(path); err != nil || st.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("the link was replaced: %v %v", st.Mode(), err)
			}
			mustContent(t, filepath.Join(dir, "real.md"), "report")
		}},
		{"FIFO", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip(err)
			}
			return p
		}, "is a named pipe (FIFO), not a regular file", func(t *testing.T, dir, path string) { mustType(t, path, fs.ModeNamedPipe) }},
		{"device node (like /dev/full)", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "full")
			if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
				t.Skip("cannot make a device node here:", err)
			}
			return p
		}, "is a device, not a regular file", func(t *testing.T, dir, path string) { mustType(t, path, fs.ModeCharDevice) }},
		{"symlink to /dev/null", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "null.md")
			os.Symlink("/dev/null", p)
			return p
		}, "is a link to a device", func(t *testing.T, dir, path string) { mustType(t, path, fs.ModeSymlink) }},
		{"socket", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "s")
			l, err := net.Listen("unix", p)
			if err != nil {
				t.Skip(err)
			}
			t.Cleanup(func() { l.Close() })
			return p
		}, "is a socket", func(t *testing.T, dir, path string) { mustType(t, path, fs.ModeSocket) }},
		{"folder", func(t *testing.T, dir string) string { return dir }, "is a folder", func(t *testing.T, dir, path string) { mustType(t, path, fs.ModeDir) }},
		{"symlink to a folder", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "d.md")
			os.Symlink(t.TempDir(), p)
			return p
		}, "is a link to a folder", func(t *testing.T, dir, path string) { mustType(t, path, fs.ModeSymlink) }},
		{"link to nothing", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "dangling.md")
			os.Symlink(filepath.Join(dir, "gone"), p)
			return p
		}, "link to something that does not exist", func(t *testing.T, dir, path string) {
			mustType(t, path, fs.ModeSymlink)
			if _, err := os.Lstat(filepath.Join(dir, "gone")); err == nil {
				t.Error("the link's target was created")
			}
		}},
		{"folder that does not exist", func(t *testing.T, dir string) string { return filepath.Join(dir, "no", "r.md") }, "does not exist", nil},
		{"parent is a file", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "f")
			os.WriteFile(p, nil, 0o644)
			return filepath.Join(p, "r.md")
		}, "is not a folder", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tt.setup(t, dir)
			err := Write(context.Background(), path, []byte("report"), 0o644)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Write: %v", err)
				}
				mustContent(t, path, "report")
			} else {
				if err == nil {
					t.Fatal("Write succeeded, want a refusal")
				}
				if papertree.ErrorCode(err) != papertree.EInvalid || !strings.Contains(papertree.ErrorMessage(err), tt.wantErr) {
					t.Fatalf("err = [%s] %q, want EInvalid with %q", papertree.ErrorCode(err), papertree.ErrorMessage(err), tt.wantErr)
				}
			}
			if tt.check != nil {
				tt.check(t, dir, path)
			}
			// No temporary file is left behind.
			ents, _ := os.ReadDir(filepath.Dir(path))
			for _, e := range ents {
				if strings.HasSuffix(e.Name(), ".tmp") {
					t.Errorf("left %s behind", e.Name())
				}
			}
		})
	}
}

func mustMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil || st.Mode() != want {
		t.Errorf("%s: mode %v, %v; want %v", path, st.Mode(), err, want)
	}
}

func mustType(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	st, err := os.Lstat(path)
	if err != nil || st.Mode()&want == 0 {
		t.Errorf("%s is now %v (%v), want type %v", path, st.Mode(), err, want)
	}
}

func mustContent(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != want {
		t.Errorf("%s = %q, %v; want %q", path, b, err, want)
	}
}
