package retrieve

import (
	"testing"

	"github.com/papertree/papertree/backend/internal/storetest"
	"github.com/papertree/papertree/backend/papertree"
)

// storeIndexWith saves papers, embedded with the built-in embedder, in a
// new library file (a paper without a path gets "/pN.pdf") and returns the
// retrieval index over it with the papers' ids in order.
func storeIndexWith(t *testing.T, papers ...*papertree.Paper) (*StoreIndex, []int64) {
	t.Helper()
	st, emb, ids := storetest.Library(t, papers...)
	return NewStoreIndex(st, emb, 0), ids
}
