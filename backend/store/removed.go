package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// Removing papers from the library (never their files).
//
// A removal deletes the paper's rows (nodes, closure, full-text entries and
// vectors go with it through the schema's cascades and triggers) and writes
// a tombstone in removed_files in ONE transaction: after a crash the library
// holds either the paper or its tombstone. The tombstone is what keeps a
// removed file out of later re-indexes of its folder; only an explicit
// AddBack (indexing that exact file) lifts it. Saved answers keep their
// evidence (it is stored with the answer), so an answer citing a removed
// paper still opens; RemovedPaper says why its citations lead nowhere.

// RemovedFile is a file the researcher removed from the library.
type RemovedFile struct {
	Path      string    `json:"path"`
	Hash      string    `json:"hash"`
	Title     string    `json:"title"`
	PaperID   int64     `json:"paper_id"` // the id it had
	RemovedAt time.Time `json:"removed_at"`
}

// RemovePapers removes the papers ids (ENotFound, and nothing removed, when
// one of them does not exist) and records their files as removed. It
// returns what was removed, in the order of ids.
func (s *Store) RemovePapers(ctx context.Context, ids []int64) ([]RemovedFile, error) {
	if len(ids) == 0 {
		return nil, papertree.Errorf(papertree.EInvalid, "Name the papers to remove.")
	}
	var out []RemovedFile
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		out = out[:0]
		now := time.Now()
		seen := map[int64]bool{}
		for _, id := range ids {
			if seen[id] {
				continue
			}
			seen[id] = true
			var rf RemovedFile
			err := tx.QueryRowContext(ctx, `SELECT path, hash, title FROM papers WHERE id = ?`, id).Scan(&rf.Path, &rf.Hash, &rf.Title)
			if err == sql.ErrNoRows {
				return papertree.Errorf(papertree.ENotFound, "Paper %d is not in the library.", id)
			}
			if err != nil {
				return fmt.Errorf("remove paper %d: %w", id, err)
			}
			rf.PaperID, rf.RemovedAt = id, now.Truncate(time.Millisecond)
			if _, err := tx.ExecContext(ctx, `INSERT INTO removed_files(path, hash, title, paper_id, removed_at) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT(path) DO UPDATE SET hash = excluded.hash, title = excluded.title, paper_id = excluded.paper_id, removed_at = excluded.removed_at`,
				rf.Path, rf.Hash, rf.Title, id, now.UnixMilli()); err != nil {
				return fmt.Errorf("remove paper %d: %w", id, err)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM papers WHERE id = ?`, id); err != nil {
				return fmt.Errorf("remove paper %d: %w", id, err)
			}
			out = append(out, rf)
		}
		return nil
	})
	if err != nil {
		return nil, UserError(err)
	}
	return out, nil
}

// RemovedFiles lists the removed files, most recently removed first.
func (s *Store) RemovedFiles(ctx context.Context) ([]RemovedFile, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT path, hash, title, paper_id, removed_at FROM removed_files ORDER BY removed_at DESC, path`)
	if err != nil {
		return nil, fmt.Errorf("removed files: %w", err)
	}
	defer rows.Close()
	out := []RemovedFile{}
	for rows.Next() {
		var rf RemovedFile
		var ms int64
		if err := rows.Scan(&rf.Path, &rf.Hash, &rf.Title, &rf.PaperID, &ms); err != nil {
			return nil, fmt.Errorf("removed files: %w", err)
		}
		rf.RemovedAt = time.UnixMilli(ms)
		out = append(out, rf)
	}
	return out, rows.Err()
}

// RemovedPaths returns the set of removed file paths (for the index walk).
func (s *Store) RemovedPaths(ctx context.Context) (map[string]bool, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT path FROM removed_files`)
	if err != nil {
		return nil, fmt.Errorf("removed files: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("removed files: %w", err)
		}
		out[p] = true
	}
	return out, rows.Err()
}

// RemovedPaper returns the removed file that had paper id (ENotFound when
// no removed file had it): how a saved answer says its paper was removed.
func (s *Store) RemovedPaper(ctx context.Context, id int64) (RemovedFile, error) {
	var rf RemovedFile
	var ms int64
	err := s.r.QueryRowContext(ctx, `SELECT path, hash, title, paper_id, removed_at FROM removed_files WHERE paper_id = ?`, id).
		Scan(&rf.Path, &rf.Hash, &rf.Title, &rf.PaperID, &ms)
	if err == sql.ErrNoRows {
		return rf, papertree.Errorf(papertree.ENotFound, "No removed paper had id %d.", id)
	}
	if err != nil {
		return rf, fmt.Errorf("removed paper %d: %w", id, err)
	}
	rf.RemovedAt = time.UnixMilli(ms)
	return rf, nil
}

// AddBack lifts the removal of the given files (absolute paths) so the next
// index of them takes them in again. Paths that were not removed are
// ignored. It returns the number of removals lifted.
func (s *Store) AddBack(ctx context.Context, paths []string) (int, error) {
	n := 0
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		n = 0
		for _, p := range paths {
			res, err := tx.ExecContext(ctx, `DELETE FROM removed_files WHERE path = ?`, p)
			if err != nil {
				return fmt.Errorf("add back %s: %w", p, err)
			}
			k, _ := res.RowsAffected()
			n += int(k)
		}
		return nil
	})
	return n, UserError(err)
}
