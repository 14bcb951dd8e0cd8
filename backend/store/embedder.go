package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/papertree/papertree/backend/papertree"
)

// Space names one of the three vector spaces of the index.
type Space string

const (
	SpaceSegment Space = "segment" // raw leaf text (segments and captions)
	SpaceSummary Space = "summary" // structure-anchored segment summaries
	SpaceSection Space = "section" // section bodies (and titles), for stage-1 section selection
)

// Spaces lists every vector space.
var Spaces = []Space{SpaceSegment, SpaceSummary, SpaceSection}

func (sp Space) table() (string, error) {
	switch sp {
	case SpaceSegment:
		return "vec_segment", nil
	case SpaceSummary:
		return "vec_summary", nil
	case SpaceSection:
		return "vec_section", nil
	}
	return "", papertree.Errorf(papertree.EInvalid, "Unknown vector space %q.", string(sp))
}

const (
	metaEmbedderName = "embedder.name"
	metaEmbedderDim  = "embedder.dim"
	maxDim           = 8192
)

// vecTableDDL is the vec0 layout of every space. Distances are cosine
// (1 - cos), so scores do not depend on callers normalising their vectors;
// rowid is the node id. paper_id is a vec0 metadata column: KNN queries filter
// on it (paper_id IN (...)) while scanning, so a search inside a few papers
// costs no more than a search over the library and needs no over-fetching.
// (A partition key was measured too: it only helps single-paper queries, and
// with one partition per paper every space allocates at least one full chunk
// per paper, which bloats the file; see the package benchmarks.)
const vecTableDDL = `CREATE VIRTUAL TABLE %s USING vec0(
	paper_id integer,
	embedding float[%d] distance_metric=cosine)`

// EnsureEmbedder records the embedder in use and makes sure the vector tables
// have its dimension. When name or dim differ from the recorded embedder (or
// no tables exist yet) the vec tables are recreated empty, every ready paper
// is marked stale so the indexer re-embeds it, and changed is true.
func (s *Store) EnsureEmbedder(ctx context.Context, name string, dim int) (changed bool, err error) {
	if name == "" {
		return false, papertree.Errorf(papertree.EInvalid, "The embedder has no name.")
	}
	if dim <= 0 || dim > maxDim {
		return false, papertree.Errorf(papertree.EInvalid, "The embedder dimension %d is out of range (1..%d).", dim, maxDim)
	}
	s.vecMu.Lock()
	defer s.vecMu.Unlock()
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		curName, curDim, err := readEmbedder(ctx, tx)
		if err != nil {
			return err
		}
		ok, err := vecTablesExist(ctx, tx)
		if err != nil {
			return err
		}
		if ok && curName == name && curDim == dim {
			return nil
		}
		changed = true
		stmts := []string{`DROP TRIGGER IF EXISTS nodes_vec_delete`}
		for _, sp := range Spaces {
			t, _ := sp.table()
			stmts = append(stmts, `DROP TABLE IF EXISTS `+t, fmt.Sprintf(vecTableDDL, t, dim))
		}
		// Deleting a node (directly, by replacing or deleting its paper, or by
		// cascade) deletes its vectors: vec0 has no foreign keys of its own.
		stmts = append(stmts, `CREATE TRIGGER nodes_vec_delete AFTER DELETE ON nodes BEGIN
			DELETE FROM vec_segment WHERE rowid = old.id;
			DELETE FROM vec_summary WHERE rowid = old.id;
			DELETE FROM vec_section WHERE rowid = old.id;
		END`)
		for _, q := range stmts {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("recreate vector tables: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE papers SET stale = 1 WHERE status = 'ready'`); err != nil {
			return fmt.Errorf("mark papers stale: %w", err)
		}
		for k, v := range map[string]string{metaEmbedderName: name, metaEmbedderDim: strconv.Itoa(dim)} {
			if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES (?, ?)
				ON CONFLICT(key) DO UPDATE SET value = excluded.value`, k, v); err != nil {
				return fmt.Errorf("record embedder: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	s.vecDim, s.vecEmb = dim, name
	return changed, nil
}

// Embedder returns the recorded embedder name and dimension ("" and 0 when
// EnsureEmbedder was never called on this library).
func (s *Store) Embedder() (name string, dim int) {
	s.vecMu.RLock()
	defer s.vecMu.RUnlock()
	return s.vecEmb, s.vecDim
}

// loadEmbedder reads the recorded embedder at Open.
func (s *Store) loadEmbedder(ctx context.Context) error {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("read embedder: %w", err)
	}
	defer tx.Rollback()
	name, dim, err := readEmbedder(ctx, tx)
	if err != nil {
		return err
	}
	ok, err := vecTablesExist(ctx, tx)
	if err != nil {
		return err
	}
	if !ok {
		name, dim = "", 0
	}
	s.vecEmb, s.vecDim = name, dim
	return nil
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func readEmbedder(ctx context.Context, q queryer) (string, int, error) {
	var name, dimS string
	err := q.QueryRowContext(ctx, `SELECT
		coalesce((SELECT value FROM meta WHERE key = ?), ''),
		coalesce((SELECT value FROM meta WHERE key = ?), '')`, metaEmbedderName, metaEmbedderDim).Scan(&name, &dimS)
	if err != nil {
		return "", 0, fmt.Errorf("read embedder: %w", err)
	}
	dim, _ := strconv.Atoi(dimS)
	return name, dim, nil
}

func vecTablesExist(ctx context.Context, q queryer) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master
		WHERE type = 'table' AND name IN ('vec_segment', 'vec_summary', 'vec_section')`).Scan(&n)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("inspect vector tables: %w", err)
	}
	return n == 3, nil
}
