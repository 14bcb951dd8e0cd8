package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/papertree/papertree/backend/papertree"
)

// Space names one of the three vector spaces of the index.
type Space string

const (
	SpaceSegment Space = "segment" // raw leaf text (segments and captions)
	SpaceSummary Space = "summary" // structure-anchored segment summaries
	SpaceSection Space = "section" // section bodies (and titles), for stage-1 section selection
	SpacePaper   Space = "paper"   // one vector per paper (on its root node), to pick papers for library-wide questions
)

// Spaces lists every vector space.
var Spaces = []Space{SpaceSegment, SpaceSummary, SpaceSection, SpacePaper}

func (sp Space) table() (string, error) {
	switch sp {
	case SpaceSegment:
		return "vec_segment", nil
	case SpaceSummary:
		return "vec_summary", nil
	case SpaceSection:
		return "vec_section", nil
	case SpacePaper:
		return "vec_paper", nil
	}
	return "", papertree.Errorf(papertree.EInvalid, "Unknown vector space %q.", string(sp))
}

const (
	metaEmbedderName = "embedder.name"
	metaEmbedderDim  = "embedder.dim"
	maxDim           = 8192
)

// vecTableDDL is the vec0 layout of every space: rowid is the node id,
// distances are cosine (1 - cos), so scores do not depend on callers
// normalising their vectors.
//
// paper_id is a vec0 PARTITION KEY: vec0 keeps each paper's vectors in their
// own chunks, so a KNN query inside one paper reads only that paper's chunks.
// Measured on 100k vectors of dim 384 in 50 papers (CPU time per query):
// whole library 110 ms either way; one paper 2.5 ms with the partition key vs
// 84 ms with a metadata column (which filters while scanning every chunk).
// Questions are mostly about one or a few papers, so the partition key wins;
// SearchVectors runs one query per chosen paper and merges.
//
// The price of partitions: every paper owns at least one chunk per space,
// allocated at full size. chunk_size (vectors per chunk, default 1024) is
// therefore small: at dim 384 a segment chunk is 192 KiB and a section chunk
// 48 KiB, so the waste is under 0.5 MiB per paper; scan speed was measured to
// be the same for chunk sizes 64..1024.
const vecTableDDL = `CREATE VIRTUAL TABLE %s USING vec0(
	paper_id integer partition key,
	embedding float[%d] distance_metric=cosine,
	chunk_size=%d)`

// paperTableDDL is the layout of the paper space: one vector per paper, so a
// partition per paper would waste a chunk per vector; paper_id is a plain
// metadata column and a library-wide KNN scans a few thousand vectors.
const paperTableDDL = `CREATE VIRTUAL TABLE %s USING vec0(
	paper_id integer,
	embedding float[%d] distance_metric=cosine,
	chunk_size=%d)`

// ddl returns the CREATE statement of a space's vec0 table.
func (sp Space) ddl(table string, dim int) string {
	if sp == SpacePaper {
		return fmt.Sprintf(paperTableDDL, table, dim, sp.chunkSize())
	}
	return fmt.Sprintf(vecTableDDL, table, dim, sp.chunkSize())
}

// chunkSize returns the vec0 chunk size of a space (see vecTableDDL).
func (sp Space) chunkSize() int {
	if sp == SpacePaper {
		// 64: a small library does not pay for 256 empty slots of 3 KB
		// (0.8 MB); scans cost the same from 64 to 1024.
		return 64
	}
	if sp == SpaceSection {
		return 32 // a paper has tens of sections
	}
	return 128 // and hundreds to thousands of leaves
}

// EnsureEmbedder records the embedder in use and makes sure the vector tables
// have its dimension. When name or dim differ from the recorded embedder (or
// no tables exist yet) the vectors are dropped (the vec0 paper table is
// recreated with the new dimension), every ready paper is marked stale so
// the indexer re-embeds it, and changed is true.
//
// The recorded embedder is checked against what the vectors themselves say:
// the vec0 table's declared dimension and the embedder each paper row
// records. A damaged or missing meta row whose library still agrees with
// (name, dim) is repaired in place instead of throwing every vector away.
func (s *Store) EnsureEmbedder(ctx context.Context, name string, dim int) (changed bool, err error) {
	if name == "" {
		return false, papertree.Errorf(papertree.EInvalid, "The embedder has no name.")
	}
	if dim <= 0 || dim > maxDim {
		return false, papertree.Errorf(papertree.EInvalid, "The embedder dimension %d is out of range (1..%d).", dim, maxDim)
	}
	s.vecMu.Lock()
	defer s.vecMu.Unlock()
	// Read first: the common case (nothing to do) needs no write lock, so a
	// read-only library opens too.
	st, err := readVecState(ctx, s.r)
	if err != nil {
		return false, err
	}
	if st.matches(name, dim) && st.metaName == name && st.metaDim == dim {
		s.vecDim, s.vecEmb = dim, name
		return false, nil
	}
	if s.readOnly {
		if st.matches(name, dim) {
			s.vecDim, s.vecEmb = dim, name
			return false, nil
		}
		return false, papertree.Errorf(papertree.EConflict,
			"The library was built with another embedder and cannot be updated because it is read-only.")
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		st, err := readVecState(ctx, tx)
		if err != nil {
			return err
		}
		if !st.matches(name, dim) {
			changed = true
			stmts := []string{`DROP TRIGGER IF EXISTS nodes_vec_delete`, `DELETE FROM paper_vectors`}
			for _, sp := range vecSpaces {
				t, _ := sp.table()
				stmts = append(stmts, `DROP TABLE IF EXISTS `+t, sp.ddl(t, dim))
			}
			stmts = append(stmts, vecDeleteTrigger)
			for _, q := range stmts {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("recreate vector tables: %w", err)
				}
			}
			if _, err := tx.ExecContext(ctx, `UPDATE papers SET stale = 1 WHERE status = 'ready'`); err != nil {
				return fmt.Errorf("mark papers stale: %w", err)
			}
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

// vecState is what a library says about its vectors.
type vecState struct {
	metaName string
	metaDim  int
	tableDim int      // declared dimension of vec_paper (0 = no table)
	names    []string // distinct embedders recorded by ready papers with vectors
}

// matches reports whether vectors stored for (name, dim) are usable as they
// are: the table has dimension dim and every paper's vectors came from name
// (the meta row is only a cache of this and may be repaired).
func (v vecState) matches(name string, dim int) bool {
	if v.tableDim != dim {
		return false
	}
	for _, n := range v.names {
		if n != name {
			return false
		}
	}
	if len(v.names) == 0 {
		// No paper has vectors yet: trust the meta row if it is readable.
		return v.metaName == name || v.metaName == ""
	}
	return true
}

type rowsQueryer interface {
	queryer
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

var declaredDim = regexp.MustCompile(`float\[(\d+)\]`)

func readVecState(ctx context.Context, q rowsQueryer) (vecState, error) {
	var st vecState
	var err error
	if st.metaName, st.metaDim, err = readEmbedder(ctx, q); err != nil {
		return st, err
	}
	var ddl sql.NullString
	err = q.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'vec_paper'`).Scan(&ddl)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return st, fmt.Errorf("inspect vector tables: %w", err)
	}
	if m := declaredDim.FindStringSubmatch(ddl.String); m != nil {
		st.tableDim, _ = strconv.Atoi(m[1])
	}
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT embedder FROM papers WHERE status = 'ready' AND embedder <> '' AND stale = 0`)
	if err != nil {
		return st, fmt.Errorf("read embedder: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return st, fmt.Errorf("read embedder: %w", err)
		}
		st.names = append(st.names, n)
	}
	return st, rows.Err()
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
	st, err := readVecState(ctx, tx)
	if err != nil {
		return err
	}
	name, dim := st.metaName, st.tableDim
	if len(st.names) == 1 {
		name = st.names[0] // the papers' own record wins over a damaged meta row
	}
	if dim == 0 {
		name = ""
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
		WHERE type = 'table' AND name = 'vec_paper'`).Scan(&n)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("inspect vector tables: %w", err)
	}
	return n == len(vecSpaces), nil
}

// VectorStats describes the storage of one vector space: Live vectors and
// the Slots allocated for them in vec0 chunks. sqlite-vec (v0.1.x) never
// frees or reuses a deleted vector's slot, and each paper owns its own chunks
// (partition key), so every replaced or deleted paper leaves dead chunks
// behind until Compact rebuilds the space.
type VectorStats struct {
	Space Space `json:"space"`
	Live  int   `json:"live"`
	Slots int   `json:"slots"`
}

// VectorStats reports Live and Slots for every space (nil when no embedder is
// set). It reads vec0's shadow tables (<table>_rowids, <table>_chunks); the
// compaction test fails if a sqlite-vec upgrade changes them.
func (s *Store) VectorStats(ctx context.Context) ([]VectorStats, error) {
	if _, dim := s.Embedder(); dim == 0 {
		return nil, nil
	}
	return s.vectorStats(ctx)
}

func (s *Store) vectorStats(ctx context.Context) ([]VectorStats, error) {
	var out []VectorStats
	for _, sp := range vecSpaces {
		t, _ := sp.table()
		st := VectorStats{Space: sp}
		err := s.r.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM `+t+`_rowids),
			(SELECT coalesce(sum(size), 0) FROM `+t+`_chunks)`).Scan(&st.Live, &st.Slots)
		if err != nil {
			return nil, fmt.Errorf("vector stats %s: %w", sp, err)
		}
		out = append(out, st)
	}
	return out, nil
}

// Compact rebuilds every vector space in which dead slots outnumber live
// vectors (by more than a few chunks), reclaiming the chunks of replaced and
// deleted papers, and returns the spaces it rebuilt. Each space is rebuilt in
// its own write transaction; readers keep their snapshot meanwhile. Run it
// after an indexing job, not during one.
func (s *Store) Compact(ctx context.Context) ([]Space, error) {
	s.vecMu.Lock()
	defer s.vecMu.Unlock()
	if s.vecDim == 0 {
		return nil, nil
	}
	stats, err := s.vectorStats(ctx)
	if err != nil {
		return nil, err
	}
	var rebuilt []Space
	for _, st := range stats {
		dead := st.Slots - st.Live
		if dead <= st.Live || dead < 4*st.Space.chunkSize() {
			continue
		}
		t, _ := st.Space.table()
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			for _, q := range []string{
				`CREATE TEMP TABLE vec_copy(rowid INTEGER PRIMARY KEY, paper_id INTEGER NOT NULL, embedding BLOB NOT NULL)`,
				`INSERT INTO temp.vec_copy(rowid, paper_id, embedding) SELECT rowid, paper_id, embedding FROM ` + t,
				`DROP TABLE ` + t,
				st.Space.ddl(t, s.vecDim),
				// Paper by paper, so each partition's chunks are filled densely.
				`INSERT INTO ` + t + `(rowid, paper_id, embedding)
					SELECT rowid, paper_id, embedding FROM temp.vec_copy ORDER BY paper_id, rowid`,
				`DROP TABLE temp.vec_copy`,
			} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("compact %s: %w", st.Space, err)
				}
			}
			return nil
		})
		if err != nil {
			return rebuilt, err
		}
		rebuilt = append(rebuilt, st.Space)
	}
	return rebuilt, nil
}
