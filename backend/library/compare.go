package library

import (
	"context"

	"github.com/papertree/papertree/backend/compare"
)

// Compare builds a cross-paper comparison table over the library's index
// (extractive, no model needed; see package compare).
func (l *Library) Compare(ctx context.Context, req compare.Request) (*compare.Table, error) {
	defer l.Retrieval().Asking()() // the warm-up waits (see Warm)
	return compare.Build(ctx, l.Retrieval(), req)
}
