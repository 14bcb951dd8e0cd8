package retrieve

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// storeIndexWith saves papers, embedded with the built-in embedder, in a
// new library file (a paper without a path gets "/pN.pdf") and returns the
// retrieval index over it with the papers' ids in order.
func storeIndexWith(t *testing.T, papers ...*papertree.Paper) (*StoreIndex, []int64) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "lib.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	emb := embedding.NewBuiltin()
	if _, err := st.EnsureEmbedder(ctx, emb.Name(), emb.Dim()); err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, 0, len(papers))
	for i, p := range papers {
		if p.Path == "" {
			p.Path = fmt.Sprintf("/p%d.pdf", i)
		}
		v, err := embedding.EmbedPaper(ctx, emb, p)
		if err != nil {
			t.Fatal(err)
		}
		id, err := st.SavePaper(ctx, p, store.Vectors(v), "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return NewStoreIndex(st, emb, 0), ids
}
