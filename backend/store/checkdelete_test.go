package store

import (
	"context"
	"fmt"
	"testing"
)

// Removing a paper never makes the health check call a sound library
// damaged (a reader connection kept FTS5's cached structure across the
// delete, and quick_check on it reported corruption).
func TestCheckAfterDelete(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	var ids []int64
	for i := 0; i < 6; i++ {
		id, err := s.SavePaper(ctx, synthPaper(fmt.Sprintf("/p%d.pdf", i), uint64(i), 3, 2, 4), Vectors{}, "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	for i := 0; i < 4; i++ {
		if _, err := s.SearchText(ctx, "alpha beta", nil, 10); err != nil {
			t.Fatal(err)
		}

	}
	if err := s.CheckHealth(ctx); err != nil {
		t.Fatal("before:", err)
	}
	if err := s.DeletePaper(ctx, ids[2]); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if err := s.CheckHealth(ctx); err != nil {
			t.Fatal("after:", err)
		}
	}
}
