package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Backup writes a consistent, compacted copy of the database to path (which
// must not exist) with VACUUM INTO; readers and the writer may go on meanwhile.
func (s *Store) Backup(ctx context.Context, path string) error {
	if _, err := s.w.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return nil
}

// Checkpoint copies the write-ahead log into the database file, so that the
// file's size is the library's (measurements of bytes per paper); readers
// that still use older pages keep them, so it may leave part of the log.
func (s *Store) Checkpoint(ctx context.Context) error {
	if _, err := s.w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

// SetMaxPages caps the library file at n pages on the writing connection
// (PRAGMA max_page_count, which lasts as long as the connection): a write
// that needs more fails with SQLITE_FULL, exactly as on a full disk. The
// disk-full tests of the store, the indexer and the CLI use it; n <= 0
// lifts the cap.
func (s *Store) SetMaxPages(ctx context.Context, n int64) error {
	if n <= 0 {
		n = 0xfffffffe
	}
	if _, err := s.w.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, n)); err != nil {
		return fmt.Errorf("max_page_count: %w", err)
	}
	return nil
}

// PageCount returns the number of pages of the library file.
func (s *Store) PageCount(ctx context.Context) (int64, error) {
	var n int64
	err := s.w.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&n)
	return n, err
}

// CopyFile copies the database at src to the new file dst as it is, through
// a read-only connection: src is never written (not even upgraded to this
// build's schema, which opening it as a library would do). The copy is
// checked and upgraded when it is opened as a library.
//
// A file that is not a PaperTree library is refused untouched, as by Open;
// a library is read as tableNames reads it (immutable, writing nothing, unless
// a -wal file beside it may hold committed pages).
func CopyFile(ctx context.Context, src, dst string) error {
	registerVec()
	if _, err := checkFile(ctx, src, true); err != nil {
		return err
	}
	mode := "mode=ro&immutable=1"
	if walMayHoldPages(src) {
		mode = "mode=ro"
	}
	db, err := sql.Open(driverName, "file:"+escapeURIPath(src)+"?"+mode)
	if err != nil {
		return fmt.Errorf("open %s: %w", src, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dst); err != nil {
		return openError(src, fmt.Errorf("copy to %s: %w", dst, err))
	}
	return nil
}
