package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"sort"

	"github.com/papertree/papertree/backend/papertree"
)

// Compact vector storage (migration 0006).
//
// Segment, summary and section vectors are kept as ONE row per (paper,
// space) in paper_vectors: every vector of the paper in that space,
// quantized to int8 with a per-vector scale. Why:
//   - Size: float32 vectors in vec0 partitions cost 4 bytes per component
//     plus the empty slots of each paper's own chunks (half of a 1 MB/paper
//     library was empty chunk space). int8 is 1 byte per component and a
//     blob has no slack: about 5x smaller.
//   - Speed: retrieval loads a whole paper's vectors to score its leaves; a
//     blob is one B-tree read, where vec0 needed a point lookup (~50 us) per
//     node, which made a cold library-wide question several times slower
//     than a warm one.
//   - Quality: cosine is scale-free, so the per-vector scale only keeps the
//     decoded magnitude; int8 with a per-vector max-abs scale keeps cosines
//     within about 1e-3 of float32 (TestQuantizedCosine) and retrieval
//     quality unchanged (QASPER figures in docs/measurements.md).
//
// The paper space (one vector per paper) stays in vec0: a library-wide
// question scans it to shortlist papers.

// blobSpace reports whether a space is stored in paper_vectors.
func blobSpace(sp Space) bool { return sp != SpacePaper }

// vecSpaces are the spaces kept in vec0 tables.
var vecSpaces = []Space{SpacePaper}

const blobRecord = 8 + 4 // node id + scale, before the codes

// quantize encodes v as int8 codes with scale max|v|/127 into dst.
func quantize(v []float32, dst []byte) float32 {
	var m float32
	for _, x := range v {
		if x < 0 {
			x = -x
		}
		m = max(m, x)
	}
	if m == 0 {
		return 0
	}
	scale := m / 127
	inv := 1 / scale
	for i, x := range v {
		q := math.Round(float64(x * inv))
		q = max(-127, min(127, q))
		dst[i] = byte(int8(q))
	}
	return scale
}

// Row formats of paper_vectors.data (column format, migration 0008).
const (
	blobDense  = 0 // n ids, n scales, n x dim codes
	blobSparse = 1 // n ids, n scales, then per vector: ceil(dim/8) bitmap bytes + the non-zero codes
)

// encodeBlob packs the vectors (all of length dim) of nodes ids in the
// sparse format: per vector a bitmap of the non-zero int8 codes, then those
// codes. About 60% of the codes are 0, so a row is about half a dense one.
func encodeBlob(ids []int64, vecs [][]float32, dim int) []byte {
	n := len(ids)
	b := make([]byte, n*blobRecord, n*(blobRecord+dim/8+1+dim/2))
	codes := make([]byte, dim)
	bm := (dim + 7) / 8
	for i, id := range ids {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(id))
		scale := quantize(vecs[i], codes)
		binary.LittleEndian.PutUint32(b[8*n+4*i:], math.Float32bits(scale))
		start := len(b)
		b = append(b, make([]byte, bm)...)
		for j, c := range codes {
			if c != 0 {
				b[start+j/8] |= 1 << (j % 8)
				b = append(b, c)
			}
		}
		clear(codes)
	}
	return b
}

// densify expands a sparse row into the dense layout; ok is false when the
// row does not hold n vectors of dim components.
func densify(data []byte, n, dim int) ([]byte, bool) {
	if n < 0 || dim <= 0 || len(data) < n*blobRecord {
		return nil, false
	}
	out := make([]byte, n*(blobRecord+dim))
	copy(out, data[:n*blobRecord])
	src := data[n*blobRecord:]
	bm := (dim + 7) / 8
	for i := 0; i < n; i++ {
		if len(src) < bm {
			return nil, false
		}
		bitmap := src[:bm]
		src = src[bm:]
		dst := out[n*blobRecord+i*dim : n*blobRecord+(i+1)*dim]
		// Set bits only (about 40% of them), lowest first, as a scan of
		// every component would meet them; bits past dim are ignored.
		for k, m := range bitmap {
			for m != 0 {
				j := 8*k + bits.TrailingZeros8(m)
				m &= m - 1
				if j >= dim {
					break
				}
				if len(src) == 0 {
					return nil, false
				}
				dst[j] = src[0]
				src = src[1:]
			}
		}
	}
	return out, len(src) == 0
}

// blob is a decoded view of one paper_vectors row.
type blob struct {
	paper int64
	n     int
	dim   int
	data  []byte
	// sparse: data is the row as stored in the sparse format (readBlobs
	// was asked to keep it so); decode it with sparseInto.
	sparse bool
}

// sparseInto decodes every vector of a sparse row (n vectors of dim
// components) into all (n*dim zeros), as densify and then vectorInto
// would, without the dense copy of the codes: a paper's first load decodes
// its three spaces this way. ok is false, and all is not to be used, for a
// row densify refuses.
func sparseInto(data []byte, n, dim int, all []float32) bool {
	if n < 0 || dim <= 0 || len(data) < n*blobRecord || len(all) != n*dim {
		return false
	}
	src := data[n*blobRecord:]
	bm := (dim + 7) / 8
	for i := 0; i < n; i++ {
		if len(src) < bm {
			return false
		}
		bitmap := src[:bm]
		src = src[bm:]
		s := math.Float32frombits(binary.LittleEndian.Uint32(data[8*n+4*i:]))
		dst := all[i*dim : (i+1)*dim]
		if math.Float32bits(s)>>31 == 1 || s != s {
			// A zero code decodes to 0*s: -0 or NaN for such a scale
			// (never written; kept as vectorInto has it).
			for j := range dst {
				dst[j] = 0 * s
			}
		}
		for k, m := range bitmap {
			for m != 0 {
				j := 8*k + bits.TrailingZeros8(m)
				m &= m - 1
				if j >= dim {
					break
				}
				if len(src) == 0 {
					return false
				}
				dst[j] = float32(int8(src[0])) * s
				src = src[1:]
			}
		}
	}
	return len(src) == 0
}

func (b blob) valid() bool {
	return b.n >= 0 && b.dim > 0 && len(b.data) == b.n*(blobRecord+b.dim)
}

func (b blob) id(i int) int64 { return int64(binary.LittleEndian.Uint64(b.data[8*i:])) }

func (b blob) scale(i int) float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(b.data[8*b.n+4*i:]))
}

func (b blob) codes(i int) []byte {
	off := b.n*blobRecord + i*b.dim
	return b.data[off : off+b.dim]
}

// vector decodes vector i.
func (b blob) vector(i int) []float32 {
	out := make([]float32, b.dim)
	b.vectorInto(i, out)
	return out
}

// vectorInto decodes vector i into out (len dim).
func (b blob) vectorInto(i int, out []float32) {
	s := b.scale(i)
	for j, x := range b.codes(i) {
		out[j] = float32(int8(x)) * s
	}
}

// cosine returns the cosine between vector i and the unit vector q.
func (b blob) cosine(i int, q []float32) float64 {
	c := b.codes(i)
	var dot float32
	var nn int32
	for j, x := range c {
		v := int8(x)
		dot += float32(v) * q[j]
		nn += int32(v) * int32(v)
	}
	if nn == 0 {
		return 0
	}
	return float64(dot) / math.Sqrt(float64(nn))
}

// readBlobs reads the paper_vectors rows of space for paperIDs (every paper
// when empty). Rows whose size does not match their header, or whose
// dimension is not the library's, are damaged: they are skipped (the paper
// is then searched by text only) rather than failing the question.
//
// keepSparse passes sparse rows to each as stored (blob.sparse), for a
// caller that decodes them itself; otherwise every row comes dense. A
// blob's bytes are valid only during its call of each (which must not
// keep them).
func readBlobs(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, space Space, paperIDs []int64, dim int, keepSparse bool, each func(blob) error) error {
	filter, args := inList("paper_id", paperIDs)
	rows, err := q.QueryContext(ctx, `SELECT paper_id, n, dim, format, data FROM paper_vectors WHERE space = ?`+filter,
		append([]any{string(space)}, args...)...)
	if err != nil {
		return fmt.Errorf("load %s vectors: %w", space, err)
	}
	defer rows.Close()
	for rows.Next() {
		var b blob
		var format int
		// The row's bytes as the driver read them (no copy): valid until
		// the next row, and each decodes them before it returns.
		var raw sql.RawBytes
		if err := rows.Scan(&b.paper, &b.n, &b.dim, &format, &raw); err != nil {
			return fmt.Errorf("load %s vectors: %w", space, err)
		}
		b.data = raw
		if format == blobSparse && keepSparse {
			if b.n < 0 || b.dim != dim {
				continue
			}
			b.sparse = true
		} else if format == blobSparse {
			d, ok := densify(b.data, b.n, b.dim)
			if !ok {
				continue
			}
			b.data = d
		} else if format != blobDense {
			continue
		}
		if !b.sparse && (!b.valid() || b.dim != dim) {
			continue
		}
		if err := each(b); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("load %s vectors: %w", space, err)
	}
	return nil
}

// insertBlobs writes the paper's blob-space vectors (keyed by order; ids
// maps order to node id).
func insertBlobs(ctx context.Context, tx *sql.Tx, paperID int64, vecs map[Space]map[int][]float32, ids []int64, dim int) error {
	for _, sp := range []Space{SpaceSegment, SpaceSummary, SpaceSection} {
		m := vecs[sp]
		if len(m) == 0 {
			continue
		}
		ords := make([]int, 0, len(m))
		for o := range m {
			ords = append(ords, o)
		}
		sort.Ints(ords)
		nodeIDs := make([]int64, len(ords))
		vs := make([][]float32, len(ords))
		for i, o := range ords {
			nodeIDs[i], vs[i] = ids[o], m[o]
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO paper_vectors(paper_id, space, n, dim, format, data) VALUES (?, ?, ?, ?, ?, ?)`,
			paperID, string(sp), len(ords), dim, blobSparse, encodeBlob(nodeIDs, vs, dim)); err != nil {
			return fmt.Errorf("insert %s vectors: %w", sp, err)
		}
	}
	return nil
}

// searchBlobs is SearchVectors for a blob space: exact cosine KNN over the
// papers' quantized vectors (every paper when paperIDs is empty).
func (s *Store) searchBlobs(ctx context.Context, space Space, q []float32, paperIDs []int64, k int) ([]Hit, error) {
	_, dim := s.Embedder()
	qn := make([]float32, len(q))
	copy(qn, q)
	var norm float64
	for _, x := range qn {
		norm += float64(x) * float64(x)
	}
	inv := float32(1 / math.Sqrt(norm))
	for i := range qn {
		qn[i] *= inv
	}
	var hits []Hit
	err := readBlobs(ctx, s.r, space, dedupeIDs(paperIDs), dim, false, func(b blob) error {
		for i := 0; i < b.n; i++ {
			hits = append(hits, Hit{NodeID: b.id(i), PaperID: b.paper, Score: b.cosine(i, qn)})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].NodeID < hits[j].NodeID
	})
	if len(hits) > k {
		hits = hits[:k]
	}
	return hits, nil
}

func dedupeIDs(ids []int64) []int64 {
	if len(ids) < 2 {
		return ids
	}
	seen := make(map[int64]bool, len(ids))
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// loadBlobs is LoadVectors for a blob space.
func (s *Store) loadBlobs(ctx context.Context, space Space, paperIDs []int64) (map[int64][]float32, error) {
	_, dim := s.Embedder()
	out := map[int64][]float32{}
	err := readBlobs(ctx, s.r, space, paperIDs, dim, true, func(b blob) error {
		// One allocation for the row's vectors (they live as long as
		// each other: a paper's vectors of one space).
		all := make([]float32, b.n*b.dim)
		if b.sparse {
			if !sparseInto(b.data, b.n, b.dim, all) {
				return nil // damaged: skipped, as readBlobs skips a dense row
			}
		} else {
			for i := 0; i < b.n; i++ {
				b.vectorInto(i, all[i*b.dim:(i+1)*b.dim])
			}
		}
		for i := 0; i < b.n; i++ {
			out[b.id(i)] = all[i*b.dim : (i+1)*b.dim : (i+1)*b.dim]
		}
		return nil
	})
	return out, err
}

// nodeBlobs is NodeVectors for a blob space: the blobs of the nodes' papers,
// filtered to the nodes.
func (s *Store) nodeBlobs(ctx context.Context, space Space, nodeIDs []int64) (map[int64][]float32, error) {
	out := make(map[int64][]float32, len(nodeIDs))
	if len(nodeIDs) == 0 {
		return out, nil
	}
	js, err := json.Marshal(nodeIDs)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT n.paper_id FROM json_each(?) j JOIN nodes n ON n.id = j.value`, string(js))
	if err != nil {
		return nil, fmt.Errorf("load %s vectors: %w", space, err)
	}
	var papers []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("load %s vectors: %w", space, err)
		}
		papers = append(papers, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load %s vectors: %w", space, err)
	}
	if len(papers) == 0 {
		return out, nil
	}
	want := make(map[int64]bool, len(nodeIDs))
	for _, id := range nodeIDs {
		want[id] = true
	}
	_, dim := s.Embedder()
	err = readBlobs(ctx, s.r, space, papers, dim, false, func(b blob) error {
		for i := 0; i < b.n; i++ {
			if id := b.id(i); want[id] {
				out[id] = b.vector(i)
			}
		}
		return nil
	})
	return out, err
}

// convertLegacyVectors moves the vectors of a library written before
// migration 0006 (vec0 tables vec_segment, vec_summary, vec_section) into
// paper_vectors, drops those tables, and vacuums the file so the space is
// returned. It runs once, at Open; a crash before the commit leaves the old
// tables, and the next Open converts again.
func (s *Store) convertLegacyVectors(ctx context.Context) error {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table'
		AND name IN ('vec_segment', 'vec_summary', 'vec_section')`).Scan(&n); err != nil {
		return fmt.Errorf("inspect vector tables: %w", err)
	}
	if n == 0 {
		return nil
	}
	_, dim, err := readEmbedder(ctx, s.r)
	if err != nil {
		return err
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if dim > 0 && n == 3 {
			for _, sp := range []Space{SpaceSegment, SpaceSummary, SpaceSection} {
				if err := convertSpace(ctx, tx, sp, dim); err != nil {
					return err
				}
			}
		} else {
			// Half a set of tables or no recorded dimension: the vectors
			// cannot be trusted; the papers are re-embedded.
			if _, err := tx.ExecContext(ctx, `UPDATE papers SET stale = 1 WHERE status = 'ready'`); err != nil {
				return err
			}
		}
		for _, q := range []string{
			`DROP TRIGGER IF EXISTS nodes_vec_delete`,
			`DROP TABLE IF EXISTS vec_segment`, `DROP TABLE IF EXISTS vec_summary`, `DROP TABLE IF EXISTS vec_section`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("convert vectors: %w", err)
			}
		}
		ok, err := vecTablesExist(ctx, tx)
		if err != nil {
			return err
		}
		if ok {
			if _, err := tx.ExecContext(ctx, vecDeleteTrigger); err != nil {
				return fmt.Errorf("convert vectors: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return papertree.Wrap(err, papertree.EInternal, "The library's vectors could not be converted to the compact format.")
	}
	// Return the freed pages to the file system (best effort: a failure
	// leaves a correct, just larger, file).
	_, _ = s.w.ExecContext(ctx, `VACUUM`)
	return nil
}

func convertSpace(ctx context.Context, tx *sql.Tx, sp Space, dim int) error {
	t, _ := sp.table()
	rows, err := tx.QueryContext(ctx, `SELECT id FROM papers WHERE status = 'ready' ORDER BY id`)
	if err != nil {
		return fmt.Errorf("convert %s vectors: %w", sp, err)
	}
	var papers []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("convert %s vectors: %w", sp, err)
		}
		papers = append(papers, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("convert %s vectors: %w", sp, err)
	}
	// Paper by paper (each is a vec0 partition), so memory stays one paper.
	for _, pid := range papers {
		rows, err := tx.QueryContext(ctx, `SELECT v.rowid, v.embedding FROM `+t+` v
			WHERE v.paper_id = ? ORDER BY v.rowid`, pid)
		if err != nil {
			return fmt.Errorf("convert %s vectors: %w", sp, err)
		}
		var ids []int64
		var vecs [][]float32
		for rows.Next() {
			var id int64
			var b []byte
			if err := rows.Scan(&id, &b); err != nil {
				rows.Close()
				return fmt.Errorf("convert %s vectors: %w", sp, err)
			}
			if len(b) == 4*dim {
				ids = append(ids, id)
				vecs = append(vecs, decodeVector(b))
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("convert %s vectors: %w", sp, err)
		}
		if len(ids) == 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO paper_vectors(paper_id, space, n, dim, format, data) VALUES (?, ?, ?, ?, ?, ?)`,
			pid, string(sp), len(ids), dim, blobSparse, encodeBlob(ids, vecs, dim)); err != nil {
			return fmt.Errorf("convert %s vectors: %w", sp, err)
		}
	}
	return nil
}

// vecDeleteTrigger deletes a root node's paper vector with the node (vec0
// has no foreign keys of its own; paper_vectors rows go with their paper by
// ON DELETE CASCADE).
const vecDeleteTrigger = `CREATE TRIGGER nodes_vec_delete AFTER DELETE ON nodes WHEN old.kind = 'root' BEGIN
	DELETE FROM vec_paper WHERE rowid = old.id;
END`

// ReadyPaperIDs returns the ids of the papers that can be searched, in id
// order: what a library-wide question starts from, without reading and
// decoding every paper's row (ListPapers) at each question.
func (s *Store) ReadyPaperIDs(ctx context.Context) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id FROM papers WHERE status = 'ready' ORDER BY id`)
	if err != nil {
		return nil, UserError(fmt.Errorf("list papers: %w", err))
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, UserError(fmt.Errorf("list papers: %w", err))
		}
		ids = append(ids, id)
	}
	return ids, UserError(rows.Err())
}

// ReadySize is the extent of the library's ready papers: how many, their
// nodes, and the components of their stored node vectors (every space).
// Floats is only counted when countFloats is set (it reads a row per paper
// and space).
type ReadySize struct {
	Papers, Nodes, Floats int64
}

// ReadySize measures the ready papers (see ReadySize); the node vectors'
// components are counted only when countFloats is set.
func (s *Store) ReadySize(ctx context.Context, countFloats bool) (ReadySize, error) {
	var z ReadySize
	if err := s.r.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(node_count), 0) FROM papers WHERE status = 'ready'`).Scan(&z.Papers, &z.Nodes); err != nil {
		return z, fmt.Errorf("library size: %w", err)
	}
	if countFloats {
		if err := s.r.QueryRowContext(ctx, `SELECT coalesce(sum(v.n * v.dim), 0) FROM paper_vectors v JOIN papers p ON p.id = v.paper_id
			WHERE p.status = 'ready'`).Scan(&z.Floats); err != nil {
			return z, fmt.Errorf("library size: %w", err)
		}
	}
	return z, nil
}
