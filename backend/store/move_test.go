package store

import (
	"context"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// MovePaper keeps the paper (id, corrections, date added) under its new
// path and refuses a path that has a paper row of its own.
func TestMovePaper(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	save := func(path string, seed uint64) int64 {
		t.Helper()
		p := synthPaper(path, seed, 1, 1, 2)
		p.Hash = "h-" + path
		id, err := s.SavePaper(ctx, p, Vectors{}, "fp")
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	id := save("/a/paper.pdf", 1)
	save("/b/other.pdf", 2)
	if err := s.RecordFailure(ctx, "/b/failed.pdf", "h-bad", "fp", papertree.Errorf(papertree.EEncrypted, "locked")); err != nil {
		t.Fatal(err)
	}
	if err := s.SetPaperFields(ctx, id, map[string]string{FieldTitle: "Corrected"}); err != nil {
		t.Fatal(err)
	}
	added := func(path string) (ms int64) {
		t.Helper()
		if err := s.r.QueryRowContext(ctx, `SELECT added_at FROM paper_added WHERE path = ?`, path).Scan(&ms); err != nil {
			t.Fatal(err)
		}
		return ms
	}
	when := added("/a/paper.pdf")
	for _, tc := range []struct {
		name, from, to string
		code           papertree.Code // "" = moved
	}{
		{"onto a ready paper", "/a/paper.pdf", "/b/other.pdf", papertree.EConflict},
		{"onto a failed file", "/a/paper.pdf", "/b/failed.pdf", papertree.EConflict},
		{"from no paper", "/nowhere.pdf", "/c/x.pdf", papertree.ENotFound},
		{"to a new path", "/a/paper.pdf", "/c/moved.pdf", ""},
	} {
		err := s.MovePaper(ctx, tc.from, tc.to)
		if got := papertree.ErrorCode(err); (tc.code == "") != (err == nil) || err != nil && got != tc.code {
			t.Errorf("%s: error %v (code %q), want code %q", tc.name, err, got, tc.code)
		}
	}
	info, err := s.PaperByPath(ctx, "/c/moved.pdf")
	if err != nil || info.ID != id {
		t.Fatalf("moved paper: %+v, %v; want id %d", info, err, id)
	}
	if _, err := s.PaperByPath(ctx, "/a/paper.pdf"); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Errorf("old path still has a paper: %v", err)
	}
	ov, err := s.OverlayOf(ctx, "/c/moved.pdf")
	if v, _ := ov.Field(FieldTitle); err != nil || v != "Corrected" {
		t.Errorf("corrections after the move: %+v, %v", ov, err)
	}
	if got := added("/c/moved.pdf"); got != when {
		t.Errorf("date added %d, want %d (kept)", got, when)
	}
	same, err := s.PapersWithContent(ctx, "h-/a/paper.pdf", "/elsewhere.pdf")
	if err != nil || len(same) != 1 || same[0].ID != id {
		t.Errorf("papers with the content: %+v, %v", same, err)
	}
	if same, _ := s.PapersWithContent(ctx, "h-/a/paper.pdf", "/c/moved.pdf"); len(same) != 0 {
		t.Errorf("the paper at path itself is listed: %+v", same)
	}
	consistency(t, s)
}
