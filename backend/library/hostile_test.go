package library

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/internal/hostile"
	"github.com/papertree/papertree/backend/papertree"
)

// TestIndexHostileFolder indexes one folder of good papers and every
// hostile class of the reliability audit (issue 13): each hostile file is
// indexed or reported with its code, and every good paper is indexed.
// Nothing may hang: the FIFO and the link to /dev/zero would block a
// reader forever, the 40 GiB sparse file would take minutes to hash.
func TestIndexHostileFolder(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "good-twocolumn.pdf"))
	write("good-small.pdf", hostile.Good("A small good paper"))
	cases := []struct {
		name string
		make func(path string) error
		want papertree.Code // "" = indexed
	}{
		{"number-bomb.pdf", func(p string) error { return os.WriteFile(p, hostile.NumberBomb(8<<20), 0o644) }, papertree.ETooComplex},
		{"cmap-bomb.pdf", func(p string) error { return os.WriteFile(p, hostile.CMapBomb(8<<20), 0o644) }, papertree.ETooComplex},
		{"shared-content.pdf", func(p string) error { return os.WriteFile(p, hostile.SharedContent(2999, 64<<10), 0o644) }, papertree.ETooComplex},
		{"repeated-contents.pdf", func(p string) error { return os.WriteFile(p, hostile.RepeatedContents(100_000), 0o644) }, ""},
		{"many-pages.pdf", func(p string) error { return os.WriteFile(p, hostile.ManyPages(5000), 0o644) }, papertree.ETooLarge},
		{"long-word.pdf", func(p string) error { return os.WriteFile(p, hostile.LongWord(450_000), 0o644) }, ""},
		{"text-operators.pdf", func(p string) error { return os.WriteFile(p, hostile.TextOperators(3_100_000), 0o644) }, papertree.ETooComplex},
		{"no-punctuation.pdf", func(p string) error { return os.WriteFile(p, hostile.NoPunctuation(300), 0o644) }, ""},
		{"fifo.pdf", func(p string) error { return syscall.Mkfifo(p, 0o644) }, papertree.EInvalid},
		{"dev-zero.pdf", func(p string) error { return os.Symlink("/dev/zero", p) }, papertree.EInvalid},
		{"dangling-link.pdf", func(p string) error { return os.Symlink(filepath.Join(dir, "nowhere"), p) }, papertree.ENotFound},
		{"sparse-40GiB.pdf", func(p string) error {
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			defer f.Close()
			return f.Truncate(40 << 30)
		}, papertree.ETooLarge},
	}
	for _, tc := range cases {
		if err := tc.make(filepath.Join(dir, tc.name)); err != nil {
			t.Skipf("cannot create %s here: %v", tc.name, err)
		}
	}
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db"), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	missing := filepath.Join(dir, "not-there.pdf")
	start := time.Now()
	sum, err := lib.Index(ctx, []string{dir, missing}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("indexed %d, failed %d in %v", sum.Indexed, len(sum.Failed), time.Since(start).Round(time.Millisecond))
	failed := map[string]FileError{}
	for _, f := range sum.Failed {
		failed[filepath.Base(f.File)] = f
	}
	if f, ok := failed["not-there.pdf"]; !ok || f.Code != papertree.ENotFound {
		t.Errorf("missing path: %+v", f)
	}
	wantIndexed := 2
	for _, tc := range cases {
		f, ok := failed[tc.name]
		switch {
		case tc.want == "" && ok:
			t.Errorf("%s: failed [%s] %s, want indexed", tc.name, f.Code, f.Error)
		case tc.want == "":
			wantIndexed++
		case !ok:
			t.Errorf("%s: indexed, want [%s]", tc.name, tc.want)
		case f.Code != tc.want:
			t.Errorf("%s: [%s] %s, want [%s]", tc.name, f.Code, f.Error, tc.want)
		case f.Error == "" || strings.Contains(f.Error, "Unexpected"):
			t.Errorf("%s: message %q is not plain words", tc.name, f.Error)
		default:
			t.Logf("%s: [%s] %s", tc.name, f.Code, f.Error)
		}
	}
	for _, good := range []string{"good-twocolumn.pdf", "good-small.pdf"} {
		if f, ok := failed[good]; ok {
			t.Errorf("%s failed: %+v", good, f)
		}
	}
	if sum.Indexed != wantIndexed {
		t.Errorf("indexed %d, want %d", sum.Indexed, wantIndexed)
	}
}

// TestIndexFileTimeout: a file over its time limit fails with ETimeout and
// the job goes on.
func TestIndexFileTimeout(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.pdf"), hostile.Good("Paper"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db"), FileTimeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	sum, err := lib.Index(ctx, []string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Failed) != 1 || sum.Failed[0].Code != papertree.ETimeout || !strings.Contains(sum.Failed[0].Error, "time limit") {
		t.Fatalf("summary %+v", sum)
	}
	lib.SetFileTimeout(time.Minute)
	if sum, err = lib.Index(ctx, []string{dir}, nil); err != nil || sum.Indexed != 1 {
		t.Fatalf("with a minute: %+v %v", sum, err)
	}
}

// TestIndexMissingPathDoesNotAbort: one path that does not exist on the
// command line is reported and the others are indexed (audit item 9).
func TestIndexMissingPathDoesNotAbort(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.pdf", "b.pdf"} {
		if err := os.WriteFile(filepath.Join(dir, n), hostile.Good("Paper "+n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	sum, err := lib.Index(ctx, []string{filepath.Join(dir, "a.pdf"), filepath.Join(dir, "gone.pdf"), filepath.Join(dir, "b.pdf")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Indexed != 2 || len(sum.Failed) != 1 || sum.Failed[0].Code != papertree.ENotFound ||
		filepath.Base(sum.Failed[0].File) != "gone.pdf" {
		t.Fatalf("summary %+v", sum)
	}
}
