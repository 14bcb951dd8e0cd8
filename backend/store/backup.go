package store

import (
	"context"
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
