package library

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// A removed file stays out of its folder's re-index until it is added back
// by its exact path; answers citing it still open.
func TestRemoveKeepsFileOutOfReindex(t *testing.T) {
	tests := []struct {
		name     string
		addBack  func(ctx context.Context, lib *Library, dir string) error
		wantBack bool
		wantLeft int // Summary.Removed of the folder re-index after addBack
	}{
		{"folder re-index leaves it out", func(context.Context, *Library, string) error { return nil }, false, 1},
		{"added back by its exact path", func(ctx context.Context, lib *Library, dir string) error {
			_, err := lib.AddBack(ctx, []string{filepath.Join(dir, "a.pdf")}, nil)
			return err
		}, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "a.pdf"))
			copyFixture(t, "rotated.pdf", filepath.Join(dir, "b.pdf"))
			ctx := context.Background()
			lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
			if err != nil {
				t.Fatal(err)
			}
			defer lib.Close()
			if sum, err := lib.Index(ctx, []string{dir}, nil); err != nil || sum.Indexed != 2 {
				t.Fatalf("index: %+v %v", sum, err)
			}
			a, err := lib.ResolvePaper(ctx, filepath.Join(dir, "a.pdf"))
			if err != nil {
				t.Fatal(err)
			}
			ans, err := lib.Ask(ctx, AskRequest{Question: "How are glyphs grouped?", PaperIDs: []int64{a.ID}})
			if err != nil || ans.ID == 0 {
				t.Fatalf("ask: %v", err)
			}
			removed, err := lib.Remove(ctx, []int64{a.ID})
			if err != nil || len(removed) != 1 || removed[0].Path != a.Path {
				t.Fatalf("remove: %+v %v", removed, err)
			}
			if _, err := lib.ResolvePaper(ctx, a.Path); papertree.ErrorCode(err) != papertree.ENotFound {
				t.Fatalf("removed paper still resolves: %v", err)
			}
			// The saved answer still opens, with its evidence as saved.
			old, err := lib.Answer(ctx, ans.ID)
			if err != nil || len(old.Evidence) == 0 {
				t.Fatalf("answer citing a removed paper: %v", err)
			}
			if rf, err := lib.Store().RemovedPaper(ctx, a.ID); err != nil || rf.Path != a.Path {
				t.Fatalf("RemovedPaper: %+v %v", rf, err)
			}
			// A citation's link to it says the paper was removed.
			if _, err := lib.Paper(ctx, strconv.FormatInt(a.ID, 10)); papertree.ErrorCode(err) != papertree.ENotFound || !strings.Contains(papertree.ErrorMessage(err), "was removed from the library") {
				t.Fatalf("opening the removed paper: %v", err)
			}
			if err := tt.addBack(ctx, lib, dir); err != nil {
				t.Fatal(err)
			}
			sum, err := lib.Index(ctx, []string{dir}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Removed != tt.wantLeft {
				t.Errorf("folder re-index left out %d, want %d", sum.Removed, tt.wantLeft)
			}
			_, err = lib.ResolvePaper(ctx, a.Path)
			if back := err == nil; back != tt.wantBack {
				t.Fatalf("paper in library = %v, want %v (%v)", back, tt.wantBack, err)
			}
			if _, err := lib.ResolvePaper(ctx, filepath.Join(dir, "b.pdf")); err != nil {
				t.Fatalf("the other paper: %v", err)
			}
		})
	}
}

// A folder whose only PDF was removed is not an error ("no PDF found"):
// there is simply nothing to do.
func TestIndexFolderOfRemovedFiles(t *testing.T) {
	dir := t.TempDir()
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "a.pdf"))
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	if _, err := lib.Index(ctx, []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	ps, _ := lib.Papers(ctx)
	if _, err := lib.Remove(ctx, []int64{ps[0].ID}); err != nil {
		t.Fatal(err)
	}
	sum, err := lib.Index(ctx, []string{dir}, nil)
	if err != nil || sum.Removed != 1 || sum.Indexed != 0 {
		t.Fatalf("re-index: %+v %v", sum, err)
	}
	if ps, _ := lib.Papers(ctx); len(ps) != 0 {
		t.Fatalf("papers after re-index: %d", len(ps))
	}
}

func TestRemoveRefusesReadOnly(t *testing.T) {
	dir := t.TempDir()
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "a.pdf"))
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "lib.db")
	lib, err := Open(ctx, Config{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lib.Index(ctx, []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	ps, _ := lib.Papers(ctx)
	lib.Close()
	ro, err := Open(ctx, Config{DBPath: db, MustExist: true, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, err = ro.Remove(ctx, []int64{ps[0].ID})
	if papertree.ErrorCode(err) != papertree.EConflict || papertree.ErrorMessage(err) != store.ReadOnlyMsg {
		t.Fatalf("remove on a read-only library: %v", err)
	}
	if ps2, _ := ro.Papers(ctx); len(ps2) != 1 {
		t.Fatal("read-only library changed")
	}
}

func TestSearchResults(t *testing.T) {
	dir := t.TempDir()
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "a.pdf"))
	copyFixture(t, "rotated.pdf", filepath.Join(dir, "b.pdf"))
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	if _, err := lib.Index(ctx, []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	res, err := lib.Search(ctx, "glyphs grouped", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) == 0 || filepath.Base(res[0].File) != "a.pdf" {
		t.Fatalf("results %+v", res)
	}
	r := res[0]
	marked := 0
	for _, p := range r.Parts {
		if p.Mark {
			marked++
		}
	}
	if r.Snippet == "" || marked == 0 || r.NodeID == 0 || r.Path == nil {
		t.Fatalf("first result lacks snippet, marks, node or path: %+v", r)
	}
	if _, err := lib.Remove(ctx, []int64{r.PaperID}); err != nil {
		t.Fatal(err)
	}
	res, err = lib.Search(ctx, "glyphs grouped", 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range res {
		if x.PaperID == r.PaperID {
			t.Fatal("a removed paper is still found")
		}
	}
}
