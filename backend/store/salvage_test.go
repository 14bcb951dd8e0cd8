package store

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// TestSalvageSkipsDamagedPages: Salvage copies every answer that can be
// read, with its id, out of a library one of whose answer pages is
// garbage; the rows on that page are counted as unreadable, the rest of
// the table after it is still copied, and the damaged file is not changed.
func TestSalvageSkipsDamagedPages(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "lib.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	const n = 600
	for i := 1; i <= n; i++ {
		a := &papertree.Answer{Question: fmt.Sprintf("question-%04d", i), Text: fmt.Sprintf("marker-%04d ", i) + strings.Repeat("x", 300)}
		if _, err := s.SaveAnswer(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	s.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(b, []byte("marker-0300 "))
	if at < 0 {
		t.Fatal("marker not found")
	}
	page := at / 4096 * 4096
	for i := range 16 {
		b[page+i] = 0xff
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	dst, err := Open(ctx, filepath.Join(dir, "new.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	rep, err := dst.Salvage(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("copied %v, unreadable %v", rep.Copied, rep.Unreadable)
	got := rep.Copied["answers"]
	if got >= n || got < n-12 || rep.Unreadable["answers"] == 0 {
		t.Fatalf("copied %d of %d answers (%d unreadable stretches): want all but the ~10 on one page", got, n, rep.Unreadable["answers"])
	}
	for _, id := range []int64{1, 299 - 20, n} {
		a, err := dst.Answer(ctx, id)
		if err != nil || a.Question != fmt.Sprintf("question-%04d", id) {
			t.Errorf("answer %d: %+v, %v", id, a, err)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, b) {
		t.Error("the damaged file was changed")
	}
}

// TestSalvageKeepsWhatPDFsCannotRebuild: every table of a library is either
// made again from the PDFs by a rebuild or copied by Salvage, so a table
// added later cannot be dropped by repair without a decision here; and the
// researcher's removals (tombstones) survive a rebuild, so that indexing the
// folder again does not bring removed papers back.
func TestSalvageKeepsWhatPDFsCannotRebuild(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, filepath.Join(dir, "lib.db"))
	if err != nil {
		t.Fatal(err)
	}
	rebuilt := map[string]bool{"papers": true, "nodes": true, "node_closure": true, "paper_vectors": true,
		"structures": true, "meta": true, "schema_migrations": true,
		// Document frequencies read from node_fts: stale in a rebuilt
		// library (unused) until the index job that re-reads the PDFs
		// rebuilds them (Store.RefreshTermDF).
		"term_df": true, "term_df_state": true}
	salvaged := map[string]bool{}
	for _, tb := range salvageTables {
		salvaged[tb] = true
	}
	rows, err := s.w.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		rows.Scan(&name)
		// The full-text index and sqlite-vec's tables are built from nodes.
		if strings.HasPrefix(name, "node_fts") || strings.HasPrefix(name, "vec_") {
			continue
		}
		if !rebuilt[name] && !salvaged[name] {
			t.Errorf("table %s is neither made again from the PDFs nor copied by Salvage", name)
		}
	}
	rows.Close()

	if _, err := s.w.ExecContext(ctx, `INSERT INTO removed_files(path, hash, title, paper_id, removed_at) VALUES (?, 'h', 'A removed paper', 7, 1700000000000)`,
		"/papers/removed.pdf"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	dst, err := Open(ctx, filepath.Join(dir, "new.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	rep, err := dst.Salvage(ctx, filepath.Join(dir, "lib.db"))
	if err != nil {
		t.Fatal(err)
	}
	if removed, err := dst.RemovedPaths(ctx); err != nil || !removed["/papers/removed.pdf"] {
		t.Errorf("the removal was lost: %v, %v (copied %v)", removed, err, rep.Copied)
	}
}
