package library

import (
	"context"
	"os"
	"path/filepath"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// Remove removes papers from the library (never their files) and records
// their files as removed, so a re-index of their folder leaves them out
// (see store.RemovePapers). It needs a writable library.
func (l *Library) Remove(ctx context.Context, ids []int64) ([]store.RemovedFile, error) {
	if l.store.ReadOnly() {
		return nil, papertree.Errorf(papertree.EConflict, "%s", store.ReadOnlyMsg)
	}
	if err := l.store.CheckHealth(ctx); err != nil {
		return nil, err
	}
	return l.store.RemovePapers(ctx, ids)
}

// RemovedFiles lists the files removed from the library, newest first.
func (l *Library) RemovedFiles(ctx context.Context) ([]store.RemovedFile, error) {
	rf, err := l.store.RemovedFiles(ctx)
	return rf, store.UserError(err)
}

// AddBack lifts the removal of the given files and indexes them again: the
// explicit way back for a file Remove took out. Paths may be relative.
func (l *Library) AddBack(ctx context.Context, paths []string, progress func(Event)) (Summary, error) {
	if l.store.ReadOnly() {
		return Summary{Failed: []FileError{}}, papertree.Errorf(papertree.EConflict, "%s", store.ReadOnlyMsg)
	}
	abs := make([]string, 0, len(paths))
	for _, p := range paths {
		if a, err := filepath.Abs(p); err == nil {
			p = a
		}
		abs = append(abs, p)
	}
	if _, err := l.store.AddBack(ctx, abs); err != nil {
		return Summary{Failed: []FileError{}}, err
	}
	return l.Index(ctx, abs, progress)
}

// ExplicitFiles returns the paths among paths that name a file (not a
// folder): indexing such a path is the researcher asking for that exact
// file, so a removal of it is lifted (CLI `index FILE`).
func ExplicitFiles(paths []string) []string {
	var out []string
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}
