package library

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// Indexing stores each paper's sentence signals (for its first question);
// a library indexed before they were stored gets them when the unchanged
// files are indexed again, and the answers are the same either way.
func TestIndexStoresSignals(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.pdf", "b.pdf"} {
		copyFixture(t, "twocolumn.pdf", filepath.Join(dir, n))
	}
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "lib.db")
	lib, err := Open(ctx, Config{DBPath: dbPath})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	stored := func() int {
		t.Helper()
		st, err := lib.Store().StructureStats(ctx, retrieve.SignalsKind)
		if err != nil {
			t.Fatal(err)
		}
		return st.Papers
	}
	ask := func() *papertree.Answer {
		t.Helper()
		ans, err := lib.Ask(ctx, AskRequest{Question: "How are glyphs grouped into lines?"})
		if err != nil || len(ans.Evidence) == 0 {
			t.Fatalf("ask: %v %+v", err, ans)
		}
		return ans
	}
	if sum, err := lib.Index(ctx, []string{dir}, nil); err != nil || sum.Indexed != 2 {
		t.Fatalf("index: %v %+v", err, sum)
	}
	if n := stored(); n != 2 {
		t.Fatalf("signals stored for %d of 2 papers", n)
	}
	with := ask()

	// As a library made before: no stored signals.
	db, err := sql.Open("sqlite3", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `DELETE FROM structures WHERE kind = ?`, retrieve.SignalsKind); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ps, _ := lib.Papers(ctx)
	for _, p := range ps {
		lib.Retrieval().Invalidate(p.ID)
	}
	without := ask()
	if sum, err := lib.Index(ctx, []string{dir}, nil); err != nil || sum.Unchanged != 2 {
		t.Fatalf("re-index: %v %+v", err, sum)
	}
	if n := stored(); n != 2 {
		t.Fatalf("after re-indexing unchanged files, signals stored for %d of 2 papers", n)
	}
	if len(with.Evidence) != len(without.Evidence) {
		t.Fatalf("%d evidence items with stored signals, %d without", len(with.Evidence), len(without.Evidence))
	}
	for i := range with.Evidence {
		if with.Evidence[i].NodeID != without.Evidence[i].NodeID || with.Evidence[i].Score != without.Evidence[i].Score {
			t.Fatalf("evidence %d differs: %+v / %+v", i, with.Evidence[i], without.Evidence[i])
		}
	}
}
