//go:build unix

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestExportOutRefusesSpecialFiles: export --out (and compare --out) onto
// a device, a FIFO, a link to a device or a folder exits 1 with a coded message and leaves the file as
// it was (the audit's root run replaced /dev/full by a regular file).
func TestExportOutRefusesSpecialFiles(t *testing.T) {
	db, ids := exportLib(t)
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string
		typ   fs.FileMode // what path must still be (Lstat)
		msg   string
	}{
		{"FIFO", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "pipe.md")
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip(err)
			}
			return p
		}, fs.ModeNamedPipe, "is a named pipe (FIFO), not a regular file, so nothing was written. [invalid]"},
		{"device node like /dev/full", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "full")
			if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
				t.Skip("cannot make a device node here:", err)
			}
			return p
		}, fs.ModeCharDevice, "is a device, not a regular file"},
		{"symlink to /dev/null", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "null.md")
			if err := os.Symlink("/dev/null", p); err != nil {
				t.Fatal(err)
			}
			return p
		}, fs.ModeSymlink, "is a link to a device, not a regular file"},
		{"folder", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "reports.md")
			os.Mkdir(p, 0o755)
			return p
		}, fs.ModeDir, "is a folder, not a regular file"},
	}
	cmds := map[string][]string{
		"export":  {"export", "--db", db, "--answer", itoa(ids[0]), "--format", "md", "--out"},
		"compare": {"compare", "--db", db, "--format", "md", "--out"},
	}
	for _, tt := range tests {
		for cmd, args := range cmds {
			t.Run(cmd+" "+tt.name, func(t *testing.T) {
				path := tt.setup(t, t.TempDir())
				_, errs, code := cli(t, append(args, path)...)
				if code != 1 || !strings.Contains(errs, tt.msg) {
					t.Errorf("exit %d, stderr %q; want exit 1 with %q", code, errs, tt.msg)
				}
				if st, err := os.Lstat(path); err != nil || st.Mode()&tt.typ == 0 {
					t.Errorf("%s is now %v (%v); it was replaced", path, st.Mode(), err)
				}
			})
		}
	}
	// A regular file is replaced, by compare as by export (TestExport).
	path := filepath.Join(t.TempDir(), "table.md")
	os.WriteFile(path, []byte("old"), 0o600)
	if _, errs, code := cli(t, append(cmds["compare"], path)...); code != 0 {
		t.Fatalf("compare --out regular file: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "|") {
		t.Errorf("compare wrote %q", b)
	}
}
