package library

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/papertree/papertree/backend/store"
)

// The same PDF under a second path is one paper, not two: a copy in another
// folder is reported as a duplicate and not indexed; two new copies in one job
// give one paper; a file moved or renamed keeps its paper whole (id,
// corrections, date added) without being read again.
func TestSameContentIsOnePaper(t *testing.T) {
	root := t.TempDir()
	dir1, dir2, dir3 := filepath.Join(root, "one"), filepath.Join(root, "two"), filepath.Join(root, "three")
	for _, d := range []string{dir1, dir2, dir3} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	orig := filepath.Join(dir1, "a.pdf")
	copySame(t, "twocolumn.pdf", orig)
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	// run indexes paths and returns the summary and the files parsed.
	run := func(paths ...string) (Summary, []string) {
		t.Helper()
		var mu sync.Mutex
		var parsed []string
		sum, err := lib.Index(ctx, paths, func(ev Event) {
			if ev.Status == StatusParsing {
				mu.Lock()
				parsed = append(parsed, filepath.Base(ev.File))
				mu.Unlock()
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(parsed)
		return sum, parsed
	}
	papers := func() []store.PaperInfo {
		t.Helper()
		ps, err := lib.Papers(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	if sum, _ := run(dir1); sum.Indexed != 1 {
		t.Fatalf("first index: %+v", sum)
	}
	first := papers()[0]
	if _, err := lib.EditPaper(ctx, strconv.FormatInt(first.ID, 10), map[string]string{store.FieldTitle: "Corrected title"}); err != nil {
		t.Fatal(err)
	}

	copySame(t, "twocolumn.pdf", filepath.Join(dir2, "copy.pdf"))
	copySame(t, "rotated.pdf", filepath.Join(dir3, "x.pdf"))
	copySame(t, "rotated.pdf", filepath.Join(dir3, "y.pdf"))
	moved := filepath.Join(dir1, "renamed.pdf")
	for _, tc := range []struct {
		name       string
		before     func()
		paths      []string
		indexed    int
		unchanged  int
		duplicates int
		moved      []SameContent
		parsed     int // files read (parsed) by the job
		papers     int
	}{
		{"a copy in another folder", nil, []string{dir2}, 0, 0, 1, nil, 0, 1},
		{"both folders again", nil, []string{dir1, dir2}, 0, 1, 1, nil, 0, 1},
		{"two new copies in one job", nil, []string{dir3}, 1, 0, 1, nil, 1, 2},
		{"the file renamed", func() {
			if err := os.Rename(orig, moved); err != nil {
				t.Fatal(err)
			}
		}, []string{dir1}, 0, 1, 0, []SameContent{{File: moved, Of: orig}}, 0, 2},
		{"the copy after the move", nil, []string{dir2}, 0, 0, 1, nil, 0, 2},
	} {
		if tc.before != nil {
			tc.before()
		}
		sum, parsed := run(tc.paths...)
		if sum.Indexed != tc.indexed || sum.Unchanged != tc.unchanged || len(sum.Duplicates) != tc.duplicates ||
			!slices.Equal(sum.Moved, tc.moved) || len(parsed) != tc.parsed || len(sum.Failed) != 0 {
			t.Errorf("%s: %+v, parsed %v; want indexed %d, unchanged %d, %d duplicates, moved %v, %d parsed",
				tc.name, sum, parsed, tc.indexed, tc.unchanged, tc.duplicates, tc.moved, tc.parsed)
		}
		if n := len(papers()); n != tc.papers {
			t.Errorf("%s: %d papers, want %d", tc.name, n, tc.papers)
		}
	}
	// The moved paper is the same paper: its id, its correction and its
	// date added are kept.
	info, err := lib.Store().PaperByPath(ctx, moved)
	if err != nil {
		t.Fatal(err)
	}
	if info.ID != first.ID {
		t.Errorf("moved paper has id %d, want %d (the same paper)", info.ID, first.ID)
	}
	c, err := lib.Corrections(ctx, strconv.FormatInt(info.ID, 10))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := c.Field(store.FieldTitle); v != "Corrected title" {
		t.Errorf("corrections after the move: %+v, want the title kept", c)
	}
	ps := papers()
	for _, p := range ps {
		if p.Path == orig {
			t.Errorf("the old path %s is still a paper", orig)
		}
	}
	// A duplicate reports which file it repeats.
	sum, _ := run(dir2)
	if len(sum.Duplicates) != 1 || sum.Duplicates[0].Of != moved {
		t.Errorf("duplicate of %+v, want of %s", sum.Duplicates, moved)
	}
}
