package retrieve_test

import (
	"context"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/retrieve"
)

// cachedPapers counts the papers ix hands out without reading the store: a
// cancelled context fails every load (TestPaperFirstLoadIsShared), so a
// paper returned under one was loaded before.
func cachedPapers(ix *retrieve.StoreIndex, ids []int64) int {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := 0
	for _, id := range ids {
		if d, err := ix.Paper(ctx, id); err == nil && d != nil {
			n++
		}
	}
	return n
}

// The warm-up loads every paper when its estimate fits the budget, none
// otherwise, and stops when its context ends.
func TestWarmPapersAllOrNoneWithinBudget(t *testing.T) {
	st, ids := prefetchLibrary(t)
	ctx := context.Background()
	emb := embedding.NewBuiltin()

	ix := retrieve.NewStoreIndex(st, emb, 0)
	if n := cachedPapers(ix, ids); n != 0 {
		t.Fatalf("a fresh index hands out %d papers without loading them", n)
	}
	w := ix.WarmPapers(ctx, 1<<40)
	if w.Papers != len(ids) || w.Loaded != len(ids) || w.Estimate <= 0 {
		t.Fatalf("warm-up %+v, want all %d papers loaded with an estimate", w, len(ids))
	}
	if n := cachedPapers(ix, ids); n != len(ids) {
		t.Fatalf("after the warm-up %d of %d papers are loaded", n, len(ids))
	}
	// The stored vectors alone are 4 bytes a component.
	z, err := st.ReadySize(ctx, true)
	if err != nil || z.Floats == 0 || w.Estimate <= 4*z.Floats {
		t.Fatalf("estimate %d for %+v (%v)", w.Estimate, z, err)
	}

	// A budget one byte short of the estimate loads nothing; exactly the
	// estimate loads everything.
	ix = retrieve.NewStoreIndex(st, emb, 0)
	if w2 := ix.WarmPapers(ctx, w.Estimate-1); w2.Loaded != 0 || cachedPapers(ix, ids) != 0 {
		t.Fatalf("budget below the estimate: %+v, %d papers loaded", w2, cachedPapers(ix, ids))
	}
	if w2 := ix.WarmPapers(ctx, w.Estimate); w2.Loaded != len(ids) {
		t.Fatalf("budget equal to the estimate: %+v", w2)
	}

	// More papers than the cache holds: none.
	ix = retrieve.NewStoreIndex(st, emb, len(ids)-1)
	if w2 := ix.WarmPapers(ctx, 1<<40); w2.Loaded != 0 || cachedPapers(ix, ids) != 0 {
		t.Fatalf("library larger than the cache: %+v", w2)
	}

	// A cancelled warm-up loads nothing more.
	ix = retrieve.NewStoreIndex(st, emb, 0)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if w2 := ix.WarmPapers(cctx, 1<<40); w2.Loaded != 0 || cachedPapers(ix, ids) != 0 {
		t.Fatalf("cancelled warm-up: %+v", w2)
	}
}
