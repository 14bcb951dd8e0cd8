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

// Two papers of one PDF already in the library (made before copies were
// recognised, or a file overwritten with a copy of another paper's PDF)
// become one at the next index: the paper with the researcher's records, else
// the older, is kept, and the other file is reported as its duplicate.
func TestCopiesInTheLibraryBecomeOne(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, b, c, d := filepath.Join(dir, "a.pdf"), filepath.Join(dir, "b.pdf"), filepath.Join(dir, "c.pdf"), filepath.Join(dir, "d.pdf")
	copySame(t, "twocolumn.pdf", a)
	copySame(t, "rotated.pdf", b)
	dbPath := filepath.Join(t.TempDir(), "lib.db")
	lib, err := Open(ctx, Config{DBPath: dbPath})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	index := func() Summary {
		t.Helper()
		sum, err := lib.Index(ctx, []string{dir}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	byPath := func() map[string]int64 {
		t.Helper()
		ps, err := lib.Papers(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int64{}
		for _, p := range ps {
			out[filepath.Base(p.Path)] = p.ID
		}
		return out
	}
	if sum := index(); sum.Indexed != 2 {
		t.Fatalf("first index: %+v", sum)
	}
	ids := byPath()

	// b.pdf overwritten with a copy of a.pdf: b's paper (of its old
	// content) gives way to a's, which is not read again.
	copySame(t, "twocolumn.pdf", b)
	sum := index()
	if got := byPath(); len(got) != 1 || got["a.pdf"] != ids["a.pdf"] {
		t.Fatalf("after overwriting b with a copy of a: papers %v, want only a.pdf (id %d)", got, ids["a.pdf"])
	}
	if sum.Indexed != 0 || len(sum.Duplicates) != 1 || sum.Duplicates[0] != (SameContent{File: b, Of: a}) {
		t.Fatalf("summary %+v, want b.pdf reported the same as a.pdf and nothing read", sum)
	}

	// Two papers of one PDF, as a library made before copies were
	// recognised holds them: c.pdf is indexed as another PDF, then its
	// row is given a.pdf's content hash and its file a copy of a.pdf.
	copySame(t, "rotated.pdf", c)
	copySame(t, "rotated.pdf", d) // the same as c: d is c's duplicate
	if sum := index(); sum.Indexed != 1 {
		t.Fatalf("indexing c.pdf: %+v", sum)
	}
	os.Remove(d)
	ids = byPath()
	twoPapersOfA := func(copyPath string) {
		t.Helper()
		pa, err := lib.Store().PaperByPath(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		copySame(t, "twocolumn.pdf", copyPath)
		rawExec(t, dbPath, "UPDATE papers SET hash = '"+pa.Hash+"' WHERE path = '"+copyPath+"'")
	}
	twoPapersOfA(c)
	if sum := index(); len(byPath()) != 1 || byPath()["a.pdf"] != ids["a.pdf"] || len(sum.Duplicates) != 2 {
		t.Fatalf("the younger copy c.pdf is not merged into a.pdf: papers %v, summary %+v", byPath(), sum)
	}

	// The copy that carries a correction is the one kept, even if younger;
	// two that both carry records stay two.
	copySame(t, "rotated.pdf", c)
	if sum := index(); sum.Indexed != 1 {
		t.Fatalf("indexing c.pdf again: %+v", sum)
	}
	cid := byPath()["c.pdf"]
	if _, err := lib.EditPaper(ctx, strconv.FormatInt(cid, 10), map[string]string{store.FieldTitle: "My title"}); err != nil {
		t.Fatal(err)
	}
	twoPapersOfA(c)
	index()
	if got := byPath(); len(got) != 1 || got["c.pdf"] != cid {
		t.Fatalf("the corrected copy c.pdf is not the one kept: papers %v (c was %d)", got, cid)
	}
	os.Remove(b)
	copySame(t, "rotated.pdf", b)
	if sum := index(); sum.Indexed != 1 {
		t.Fatalf("indexing b.pdf: %+v", sum)
	}
	bid := byPath()["b.pdf"]
	if _, err := lib.EditPaper(ctx, strconv.FormatInt(bid, 10), map[string]string{store.FieldTitle: "Another title"}); err != nil {
		t.Fatal(err)
	}
	pc, _ := lib.Store().PaperByPath(ctx, c)
	copySame(t, "twocolumn.pdf", b)
	rawExec(t, dbPath, "UPDATE papers SET hash = '"+pc.Hash+"' WHERE path = '"+b+"'")
	index()
	if got := byPath(); len(got) != 2 {
		t.Fatalf("two copies that both carry corrections were merged: papers %v", got)
	}
}
