package library

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// indexedCopies indexes n copies of the two-column fixture into a new
// library and returns it.
func indexedCopies(t *testing.T, n int) (*Library, string) {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		copyFixture(t, "twocolumn.pdf", filepath.Join(dir, fmt.Sprintf("p%02d.pdf", i)))
	}
	ctx := context.Background()
	db := filepath.Join(dir, "lib.db")
	lib, err := Open(ctx, Config{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	sum, err := lib.Index(ctx, []string{dir}, nil)
	if err != nil || sum.Indexed != n {
		t.Fatalf("index: %+v, %v", sum, err)
	}
	return lib, dir
}

// TestAskDuringReindex asks library-wide questions while another writer
// replaces every paper again and again (as a re-index does: same path, new
// id). Papers vanish between the listing and the load; no question may fail.
func TestAskDuringReindex(t *testing.T) {
	lib, _ := indexedCopies(t, 4)
	ctx := context.Background()
	st := lib.Store()
	ps, err := st.ListPapers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var replaced atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			info, err := st.PaperByPath(ctx, ps[i%len(ps)].Path)
			if err != nil {
				t.Error(err)
				return
			}
			p, err := st.LoadPaper(ctx, info.ID)
			if err != nil {
				continue // replaced between the two reads
			}
			if _, err := st.SavePaper(ctx, p, store.Vectors{}, info.Fingerprint); err != nil {
				t.Error(err)
				return
			}
			replaced.Add(1)
		}
	}()
	failed := 0
	for i := 0; i < 150; i++ {
		// A fresh cache each time, so every question loads papers from the
		// store (as a cold question does).
		lib.ix = nil
		lib.ixOnce = sync.Once{}
		if _, err := lib.Ask(ctx, AskRequest{Question: "What does the paper say about the method?"}); err != nil {
			failed++
			if failed < 3 {
				t.Errorf("ask %d: %v", i, err)
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	if failed > 0 {
		t.Errorf("%d of 150 questions failed while %d papers were replaced", failed, replaced.Load())
	}
	// A paper named explicitly that no longer exists is still an error.
	if _, err := lib.Ask(ctx, AskRequest{Question: "method", PaperIDs: []int64{999999}}); papertree.ErrorCode(err) != papertree.ENotFound {
		t.Errorf("unknown explicit paper: %v", err)
	}
}
