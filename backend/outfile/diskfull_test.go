//go:build linux

package outfile

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// TestWriteOnAFullDiskKeepsTheOldFile: a report that does not fit on the
// disk (a real 64 KB tmpfs, so root only) fails with the reason, and the
// file it would have replaced is still whole, with no temporary file left:
// the report is written beside it and renamed only once complete.
func TestWriteOnAFullDiskKeepsTheOldFile(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() {
		if exec.Command("umount", mnt).Run() != nil {
			exec.Command("umount", "-l", mnt).Run()
		}
	})
	path := filepath.Join(mnt, "report.md")
	if err := os.WriteFile(path, []byte("the previous report"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Write(context.Background(), path, []byte(strings.Repeat("a long report ", 1<<16)), 0o644)
	if papertree.ErrorCode(err) != papertree.EInvalid || !strings.Contains(papertree.ErrorMessage(err), "could not be written (no space left on device)") {
		t.Errorf("err = [%s] %q, want the full disk named", papertree.ErrorCode(err), papertree.ErrorMessage(err))
	}
	if b, _ := os.ReadFile(path); string(b) != "the previous report" {
		t.Errorf("the previous report is now %d bytes: %.40q", len(b), b)
	}
	ents, _ := os.ReadDir(mnt)
	if len(ents) != 1 {
		t.Errorf("files left on the disk: %v", ents)
	}
}
