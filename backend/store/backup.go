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
