package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// CopyFile copies a library of an older schema without upgrading it: the
// source is not written; the copy is upgraded when opened as a library.
func TestCopyFileLeavesTheSourceAsItIs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "old.db")
	s, err := Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SavePaper(ctx, synthPaper("/a.pdf", 1, 1, 1, 2), Vectors{}, "fp"); err != nil {
		t.Fatal(err)
	}
	// An older library: the newest migration not applied.
	for _, q := range []string{`DROP TABLE ocr_cache`, `DELETE FROM schema_migrations WHERE version >= 16`, `PRAGMA user_version = 15`} {
		if _, err := s.w.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	version := func(path string) (v int) {
		t.Helper()
		db, err := sql.Open(driverName, "file:"+escapeURIPath(path)+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	dst := filepath.Join(dir, "copy.db")
	if err := CopyFile(ctx, src, dst); err != nil {
		t.Fatal(err)
	}
	if v := version(src); v != 15 {
		t.Errorf("the source is at schema %d after the copy, want 15 (untouched)", v)
	}
	c, err := Open(ctx, dst)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if v, _ := c.SchemaVersion(ctx); v < 16 {
		t.Errorf("the opened copy is at schema %d, want it upgraded", v)
	}
	if ps, err := c.ListPapers(ctx); err != nil || len(ps) != 1 {
		t.Errorf("the copy lists %d papers (%v), want 1", len(ps), err)
	}
}
