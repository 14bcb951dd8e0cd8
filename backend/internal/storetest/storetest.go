// Package storetest saves papers in a new library file for tests: a real
// SQLite store in the test's temporary folder, the papers embedded with the
// built-in embedder, as indexing saves them (without reading a PDF).
package storetest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// Library saves papers in a new library (a paper without a path gets
// "/pN.pdf", N its position) and returns its store, closed when the test
// ends, the embedder that embedded them, and the papers' ids in order.
func Library(t testing.TB, papers ...*papertree.Paper) (*store.Store, *embedding.Builtin, []int64) {
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
		id, err := st.SavePaper(ctx, p, store.Vectors(v), "test")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return st, emb, ids
}
