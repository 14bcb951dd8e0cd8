package store

import (
	"context"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

func TestRemovePapers(t *testing.T) {
	tests := []struct {
		name     string
		remove   func(a, b int64) []int64
		wantCode papertree.Code // "" = success
		gone     []string       // paths removed (tombstoned)
	}{
		{"one paper", func(a, b int64) []int64 { return []int64{a} }, "", []string{"/lib/a.pdf"}},
		{"both, one named twice", func(a, b int64) []int64 { return []int64{a, b, a} }, "", []string{"/lib/a.pdf", "/lib/b.pdf"}},
		{"unknown id removes nothing", func(a, b int64) []int64 { return []int64{a, b + 100} }, papertree.ENotFound, nil},
		{"no ids", func(a, b int64) []int64 { return nil }, papertree.EInvalid, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTemp(t)
			ctx := context.Background()
			idA, err := s.SavePaper(ctx, synthPaper("/lib/a.pdf", 21, 3, 2, 3), Vectors{}, "")
			if err != nil {
				t.Fatal(err)
			}
			idB, err := s.SavePaper(ctx, synthPaper("/lib/b.pdf", 22, 3, 2, 3), Vectors{}, "")
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.RemovePapers(ctx, tt.remove(idA, idB))
			if tt.wantCode != "" {
				if papertree.ErrorCode(err) != tt.wantCode {
					t.Fatalf("err = %v, want code %s", err, tt.wantCode)
				}
				if ps, _ := s.ListPapers(ctx); len(ps) != 2 {
					t.Fatalf("a failed removal left %d papers, want both", len(ps))
				}
				if rf, _ := s.RemovedFiles(ctx); len(rf) != 0 {
					t.Fatalf("a failed removal left tombstones: %v", rf)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.gone) {
				t.Fatalf("removed %d, want %d", len(got), len(tt.gone))
			}
			removed, err := s.RemovedPaths(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range tt.gone {
				if !removed[p] {
					t.Errorf("%s not recorded as removed", p)
				}
				if _, err := s.PaperByPath(ctx, p); papertree.ErrorCode(err) != papertree.ENotFound {
					t.Errorf("%s still in the library: %v", p, err)
				}
			}
			// Its text is gone from the full-text index, its nodes too.
			if hits, _ := s.SearchText(ctx, "marker21x1x1", nil, 5); len(hits) != 0 {
				t.Errorf("removed paper still found by text search: %v", hits)
			}
			rf, err := s.RemovedPaper(ctx, idA)
			if err != nil || rf.Path != "/lib/a.pdf" || rf.Title != "Synthetic Paper 21" {
				t.Errorf("RemovedPaper(%d) = %+v, %v", idA, rf, err)
			}
			consistency(t, s)
			// Adding back lifts the tombstone only for the named file.
			n, err := s.AddBack(ctx, []string{"/lib/a.pdf", "/lib/never.pdf"})
			if err != nil || n != 1 {
				t.Fatalf("AddBack = %d, %v; want 1", n, err)
			}
			removed, _ = s.RemovedPaths(ctx)
			if removed["/lib/a.pdf"] || len(removed) != len(tt.gone)-1 {
				t.Errorf("after AddBack removed = %v", removed)
			}
		})
	}
}

// A removed paper's id is never reused, so an old answer citing it can
// still say which paper it was.
func TestRemovedPaperIDNotReused(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	id, err := s.SavePaper(ctx, synthPaper("/lib/a.pdf", 31, 2, 1, 2), Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RemovePapers(ctx, []int64{id}); err != nil {
		t.Fatal(err)
	}
	id2, err := s.SavePaper(ctx, synthPaper("/lib/a.pdf", 31, 2, 1, 2), Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if id2 == id {
		t.Fatalf("paper id %d reused", id)
	}
	if _, err := s.RemovedPaper(ctx, id2); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Errorf("RemovedPaper(new id) = %v, want not found", err)
	}
}
