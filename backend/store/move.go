package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/papertree/papertree/backend/papertree"
)

// PapersWithContent returns the ready papers, other than the one at path,
// whose file had the content hash, oldest first: the same PDF under another
// path (a copy, or the file before it was moved or renamed).
func (s *Store) PapersWithContent(ctx context.Context, hash, path string) ([]PaperInfo, error) {
	if hash == "" {
		return nil, nil
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+paperInfoCols+` FROM papers
		WHERE hash = ? AND path <> ? AND status = 'ready' ORDER BY id`, hash, path)
	if err != nil {
		return nil, fmt.Errorf("find papers with the same content: %w", err)
	}
	defer rows.Close()
	var out []PaperInfo
	for rows.Next() {
		pi, err := scanPaperInfo(rows)
		if err != nil {
			return nil, fmt.Errorf("find papers with the same content: %w", err)
		}
		out = append(out, pi)
	}
	return out, rows.Err()
}

// MovePaper gives the paper of the file at from to the file at to (the same
// PDF, moved or renamed), in one transaction: it keeps its id, and with it
// its tree, vectors, saved answers and links, its heading and metadata
// corrections, its reference-manager record and the date it was added. Only
// a path without any paper row takes it (EConflict otherwise: a ready or
// failed paper at to is the index's to replace).
func (s *Store) MovePaper(ctx context.Context, from, to string) error {
	if err := s.refuseReadOnly(); err != nil {
		return err
	}
	return s.explainWriteError(ctx, s.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM papers WHERE path = ?`, to).Scan(&n); err != nil {
			return fmt.Errorf("move paper: %w", err)
		}
		if n > 0 {
			return papertree.Errorf(papertree.EConflict, "%s is already in the library.", to)
		}
		res, err := tx.ExecContext(ctx, `UPDATE papers SET path = ? WHERE path = ?`, to, from)
		if err != nil {
			return fmt.Errorf("move paper: %w", err)
		}
		if k, _ := res.RowsAffected(); k != 1 {
			return papertree.Errorf(papertree.ENotFound, "No paper is indexed for %s.", from)
		}
		// The date added and the reference record follow the paper; a
		// record the new path already has (imported for it) wins.
		for _, q := range []string{
			`DELETE FROM paper_added WHERE path = ?1 AND ?2 <> ''`, `UPDATE paper_added SET path = ? WHERE path = ?`,
			`UPDATE OR IGNORE paper_ref SET path = ? WHERE path = ?`, `DELETE FROM paper_ref WHERE path = ?2 AND ?1 <> ''`,
		} {
			if _, err := tx.ExecContext(ctx, q, to, from); err != nil {
				return fmt.Errorf("move paper: %w", err)
			}
		}
		// The new path's own corrections, if it has any, are kept.
		_, err = moveOverlayTx(ctx, tx, from, to)
		return err
	}))
}

// HasOwnRecords reports whether the researcher has made records for the file
// at path that the library keeps by path: metadata or heading corrections,
// or a reference-manager record. A paper with them is not one to merge away
// (library: two papers of the same PDF).
func (s *Store) HasOwnRecords(ctx context.Context, path string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM paper_edit WHERE path = ?1)
		+ (SELECT count(*) FROM heading_edit WHERE path = ?1) + (SELECT count(*) FROM paper_ref WHERE path = ?1)`, path).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("records of %s: %w", path, err)
	}
	return n > 0, nil
}
