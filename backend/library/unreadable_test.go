//go:build unix

package library

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/hostile"
)

// TestIndexSaysWhyAFileCannotBeRead: the indexer's report for each file
// says what is wrong with it in plain words, whether the path was named on
// the command line or found in a folder (audit issue 23, item 3).
func TestIndexSaysWhyAFileCannotBeRead(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, dir string) string // returns the path to index
		code   string
		reason string
	}{
		{"symlink loop named on the command line", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "loop.pdf")
			os.Symlink(p, p)
			return p
		}, "invalid", "a link that loops back on itself"},
		{"symlink loop in a folder", func(t *testing.T, dir string) string {
			sub := filepath.Join(dir, "papers")
			os.Mkdir(sub, 0o755)
			a, b := filepath.Join(sub, "a.pdf"), filepath.Join(sub, "b.pdf")
			os.Symlink(b, a)
			os.Symlink(a, b)
			return sub
		}, "invalid", "a link that loops back on itself"},
		{"8 MB single line of text", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "line.pdf")
			os.WriteFile(p, hostile.LongTextLine(8<<20), 0o644)
			return p
		}, "too_complex", "one piece of text of 8.0 MB"},
		{"page tree 20,000 levels deep", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "deep.pdf")
			os.WriteFile(p, hostile.DeepPageTree(20_000), 0o644)
			return p
		}, "too_complex", "nested more than 64 levels deep"},
		{"no read permission", func(t *testing.T, dir string) string {
			if os.Geteuid() == 0 {
				t.Skip("root reads any file (backend/pdf TestFileError covers the message)")
			}
			p := filepath.Join(dir, "np.pdf")
			os.WriteFile(p, hostile.Good("Private"), 0)
			return p
		}, "invalid", "Permission denied: PaperTree cannot read this file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.setup(t, t.TempDir())
			ctx := context.Background()
			lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
			if err != nil {
				t.Fatal(err)
			}
			defer lib.Close()
			sum, err := lib.Index(ctx, []string{path}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Indexed != 0 || len(sum.Failed) == 0 {
				t.Fatalf("summary %+v", sum)
			}
			for _, f := range sum.Failed {
				if string(f.Code) != tt.code || !strings.Contains(f.Error, tt.reason) {
					t.Errorf("%s: [%s] %q, want [%s] with %q", filepath.Base(f.File), f.Code, f.Error, tt.code, tt.reason)
				}
			}
		})
	}
}
