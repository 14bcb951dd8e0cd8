//go:build unix

package app

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// TestSaveFileRefusesSpecialFiles: the app's report (and comparison)
// export writes like the CLI's: a path chosen in the save dialog that is a
// FIFO, a device, a link to a device or a folder is refused with a coded
// message and left as it was; a regular file is replaced.
func TestSaveFileRefusesSpecialFiles(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string
		typ   fs.FileMode // what the path must be afterwards (Lstat)
		msg   string      // "" = written
	}{
		{"new file", func(t *testing.T, dir string) string { return filepath.Join(dir, "r.md") }, 0, ""},
		{"existing regular file", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "r.md")
			os.WriteFile(p, []byte("old"), 0o644)
			return p
		}, 0, ""},
		{"FIFO", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "pipe.md")
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip(err)
			}
			return p
		}, fs.ModeNamedPipe, "is a named pipe (FIFO), not a regular file"},
		{"device node", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "full.md")
			if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
				t.Skip("cannot make a device node here:", err)
			}
			return p
		}, fs.ModeCharDevice, "is a device, not a regular file"},
		{"symlink to /dev/null", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "null.md")
			os.Symlink("/dev/null", p)
			return p
		}, fs.ModeSymlink, "is a link to a device"},
		{"folder", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "d.md")
			os.Mkdir(p, 0o755)
			return p
		}, fs.ModeDir, "is a folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt := &fakeRuntime{}
			a := newTestApp(nil, rt)
			rt.savePath = tt.setup(t, t.TempDir())
			path, err := a.saveFile("Export report", "report", "r", ".md", []byte("report"))
			if tt.msg == "" {
				if err != nil || path != rt.savePath {
					t.Fatalf("saveFile = %q, %v", path, err)
				}
				if b, _ := os.ReadFile(path); string(b) != "report" {
					t.Errorf("file holds %q", b)
				}
				return
			}
			if err == nil || papertree.ErrorCode(err) != papertree.EInvalid || !strings.Contains(papertree.ErrorMessage(err), tt.msg) {
				t.Fatalf("saveFile = %q, [%s] %v; want EInvalid with %q", path, papertree.ErrorCode(err), err, tt.msg)
			}
			if st, err := os.Lstat(rt.savePath); err != nil || st.Mode()&tt.typ == 0 {
				t.Errorf("%s is now %v (%v); it was replaced", rt.savePath, st.Mode(), err)
			}
		})
	}
}
