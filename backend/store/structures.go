package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Index-time structures of the structure-aware strategies (migration 0003):
// opaque blobs per (paper, kind, key), built once and re-used by every
// question. The key carries the paper hash and the builder's settings, so a
// change of either misses and the caller rebuilds; the rows of a paper go
// with it when it is re-indexed or removed (foreign key cascade).

// StructureInfo describes stored structures of one kind, for diagnostics and
// cost reports.
type StructureInfo struct {
	Papers  int   `json:"papers"`
	Bytes   int64 `json:"bytes"`
	BuildMS int64 `json:"build_ms"`
}

// LoadStructure returns the current structure of kind for paperID and the
// key it was built with; ok is false when there is none. Callers compare
// the key with the one they need and rebuild on a mismatch.
func (s *Store) LoadStructure(ctx context.Context, paperID int64, kind string) (key string, data []byte, ok bool, err error) {
	err = s.r.QueryRowContext(ctx, `SELECT key, data FROM structures WHERE paper_id = ? AND kind = ? ORDER BY created_at DESC LIMIT 1`, paperID, kind).Scan(&key, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, false, nil
	}
	if err != nil {
		return "", nil, false, fmt.Errorf("load structure: %w", err)
	}
	return key, data, true, nil
}

// SaveStructure stores data for (paperID, kind, key) and drops the paper's
// other rows of that kind (built with older settings): one current
// structure per paper and kind. A paper that no longer exists is not an
// error (it was removed while the structure was being built).
func (s *Store) SaveStructure(ctx context.Context, paperID int64, kind, key string, data []byte, build time.Duration) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save structure: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM papers WHERE id = ? AND status = 'ready'`, paperID).Scan(&n); err != nil {
		return fmt.Errorf("save structure: %w", err)
	}
	if n == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM structures WHERE paper_id = ? AND kind = ? AND key <> ?`, paperID, kind, key); err != nil {
		return fmt.Errorf("save structure: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO structures(paper_id, kind, key, data, build_ms, created_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(paper_id, kind, key) DO UPDATE SET data = excluded.data, build_ms = excluded.build_ms, created_at = excluded.created_at`,
		paperID, kind, key, data, build.Milliseconds(), time.Now().UnixMilli()); err != nil {
		return fmt.Errorf("save structure: %w", err)
	}
	return tx.Commit()
}

// StructureStats sums the stored structures of kind.
func (s *Store) StructureStats(ctx context.Context, kind string) (StructureInfo, error) {
	var st StructureInfo
	err := s.r.QueryRowContext(ctx, `SELECT count(DISTINCT paper_id), coalesce(sum(length(data)), 0), coalesce(sum(build_ms), 0) FROM structures WHERE kind = ?`, kind).
		Scan(&st.Papers, &st.Bytes, &st.BuildMS)
	if err != nil {
		return st, fmt.Errorf("structure stats: %w", err)
	}
	return st, nil
}

// PapersWithoutStructure lists ready papers whose current structure of kind
// is missing or not accepted by ok (built with other settings): the ones a
// background job still has to build.
func (s *Store) PapersWithoutStructure(ctx context.Context, kind string, ok func(paperID int64, key string) bool) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT p.id, coalesce(st.key, '') FROM papers p
		LEFT JOIN structures st ON st.paper_id = p.id AND st.kind = ?
		WHERE p.status = 'ready' ORDER BY p.id`, kind)
	if err != nil {
		return nil, fmt.Errorf("papers without structure: %w", err)
	}
	type row struct {
		id  int64
		key string
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.key); err != nil {
			rows.Close()
			return nil, err
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []int64
	for _, r := range all {
		if r.key == "" || !ok(r.id, r.key) {
			if len(out) == 0 || out[len(out)-1] != r.id {
				out = append(out, r.id)
			}
		}
	}
	return out, nil
}
