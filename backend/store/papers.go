package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// Paper statuses.
const (
	StatusReady  = "ready"
	StatusFailed = "failed"
)

// PaperInfo is one row of the library listing (no tree).
type PaperInfo struct {
	ID          int64          `json:"id"`
	Path        string         `json:"path"`
	Hash        string         `json:"hash"`
	Title       string         `json:"title"`
	Authors     []string       `json:"authors,omitempty"`
	Year        int            `json:"year,omitempty"`
	Venue       string         `json:"venue,omitempty"`    // extracted from the PDF
	DOI         string         `json:"doi,omitempty"`      // extracted from the PDF
	ArxivID     string         `json:"arxiv_id,omitempty"` // extracted from the PDF
	Pages       int            `json:"pages"`
	Status      string         `json:"status"` // StatusReady or StatusFailed
	ErrCode     papertree.Code `json:"err_code,omitempty"`
	ErrMessage  string         `json:"err_message,omitempty"`
	Fingerprint string         `json:"fingerprint"`
	Embedder    string         `json:"embedder"` // embedder of its vectors; "" when saved without vectors
	IndexedAt   time.Time      `json:"indexed_at"`
	Stale       bool           `json:"stale"` // the embedder changed since: re-embed
	Nodes       int            `json:"nodes"` // number of tree nodes stored

	// OCRPages counts the pages whose text came from OCR (0: none).
	OCRPages int `json:"ocr_pages"`
}

// Vectors holds a paper's embeddings per space, keyed by Node.Order (the
// pre-order index that papertree.Node.Renumber assigns). Segment and Summary
// vectors belong to leaves, Section vectors to sections (or the root).
// Missing keys simply have no vector in that space. All-zero vectors (what some embedders return
// for empty text) are skipped: their cosine is undefined and they would
// surface as NULL distances at the top of every KNN result.
type Vectors struct {
	Segment, Summary, Section map[int][]float32
	// Paper holds the paper-level vector, on the root (key 0).
	Paper map[int][]float32
}

func (v Vectors) bySpace() map[Space]map[int][]float32 {
	return map[Space]map[int][]float32{SpaceSegment: v.Segment, SpaceSummary: v.Summary, SpaceSection: v.Section, SpacePaper: v.Paper}
}

func (v Vectors) empty() bool {
	return len(v.Segment) == 0 && len(v.Summary) == 0 && len(v.Section) == 0 && len(v.Paper) == 0
}

// flatNode is a node in pre-order with the indices of its ancestors.
type flatNode struct {
	n         *papertree.Node
	ancestors []int // indices into the flat slice, root first, excluding self
	boxes     any   // the boxes cell (see boxesCell)
}

// SavePaper stores p with its whole tree and vectors in ONE transaction,
// replacing any paper with the same path atomically. On success it sets p.ID
// and the ID of every node of p.Root and returns the paper id. It renumbers
// the tree (Renumber is deterministic, so Orders computed by the caller stay
// valid). fingerprint records the parse/index settings used.
func (s *Store) SavePaper(ctx context.Context, p *papertree.Paper, v Vectors, fingerprint string) (int64, error) {
	return s.SavePaperWith(ctx, p, v, fingerprint, SaveOptions{})
}

// SavePaperWith is SavePaper with the options of a save that carries
// corrections (see overlay.go). Every save applies the file's metadata
// corrections to the row it writes; a save that reads the file again
// (not o.Keep) first records the new values as what was read.
func (s *Store) SavePaperWith(ctx context.Context, p *papertree.Paper, v Vectors, fingerprint string, o SaveOptions) (int64, error) {
	if p == nil || p.Root == nil {
		return 0, papertree.Errorf(papertree.EInvalid, "The paper has no tree to save.")
	}
	if p.Path == "" {
		return 0, papertree.Errorf(papertree.EInvalid, "The paper has no file path.")
	}
	if p.Root.Kind != papertree.KindRoot {
		return 0, papertree.Errorf(papertree.EInvalid, "The tree of %s does not start at a root node.", p.Path)
	}
	count := p.Root.Renumber()
	flat := make([]flatNode, 0, count)
	var badKind papertree.Kind
	var walkErr error
	p.Root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		switch n.Kind {
		case papertree.KindSection, papertree.KindSegment, papertree.KindCaption:
			if len(path) == 1 {
				badKind = n.Kind
			}
		case papertree.KindRoot:
			if len(path) != 1 {
				badKind = n.Kind
			}
		default:
			badKind = n.Kind
		}
		anc := make([]int, len(path)-1)
		for i, a := range path[:len(path)-1] {
			anc[i] = a.Order
		}
		boxes, err := boxesCell(n.Boxes)
		if err != nil && walkErr == nil {
			walkErr = err
		}
		flat = append(flat, flatNode{n: n, ancestors: anc, boxes: boxes})
		return true
	})
	if badKind != "" {
		return 0, papertree.Errorf(papertree.EInvalid, "The tree of %s has a misplaced or unknown node kind %q.", p.Path, string(badKind))
	}
	if walkErr != nil {
		return 0, papertree.Wrap(walkErr, papertree.EInvalid, "A node's boxes could not be encoded.")
	}

	s.vecMu.RLock()
	defer s.vecMu.RUnlock()
	leaf := make([]bool, count)
	for i, f := range flat {
		leaf[i] = f.n.IsLeaf()
	}
	vecs, err := s.checkVectors(v, leaf)
	if err != nil {
		return 0, err
	}
	embedder := ""
	if !v.empty() {
		embedder = s.vecEmb
	}
	authors, _ := json.Marshal(nonNil(p.Authors))
	sizes, _ := json.Marshal(nonNilSizes(p.PageSizes))
	warnings, _ := json.Marshal(nonNil(p.Warnings))
	affils, _ := json.Marshal(nonNil(p.Affiliations))

	ids := make([]int64, count)
	var paperID int64
	var keepID any // NULL: a new id
	if o.Keep {
		if err := s.refuseReadOnly(); err != nil {
			return 0, err
		}
		keepID = p.ID
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if o.Keep {
			var hash string
			err := tx.QueryRowContext(ctx, `SELECT hash FROM papers WHERE id = ? AND path = ? AND status = 'ready'`, p.ID, p.Path).Scan(&hash)
			if errors.Is(err, sql.ErrNoRows) || err == nil && hash != p.Hash {
				return papertree.Errorf(papertree.EConflict, "%s was indexed again or removed while it was being corrected; open it again and retry.", p.Path)
			}
			if err != nil {
				return fmt.Errorf("read paper %d: %w", p.ID, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM papers WHERE path = ?`, p.Path); err != nil {
			return fmt.Errorf("replace %s: %w", p.Path, err)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO papers(id, path, hash, title, authors, abstract, year, pages,
			page_sizes, outline_used, status, fingerprint, embedder, node_count, indexed_at, warnings,
			venue, doi, arxiv_id, affiliations, ocr_pages)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'ready', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			keepID, p.Path, p.Hash, p.Title, string(authors), p.Abstract, p.Year, p.Pages, string(sizes),
			p.OutlineUsed, fingerprint, embedder, count, time.Now().UnixMilli(), string(warnings),
			p.Venue, p.DOI, p.ArxivID, string(affils), p.OCRPages)
		if err != nil {
			return fmt.Errorf("insert paper: %w", err)
		}
		if paperID, err = res.LastInsertId(); err != nil {
			return err
		}
		if err := insertNodes(ctx, tx, paperID, flat, ids); err != nil {
			return err
		}
		// One statement for the paper's FTS rows: FTS5 flushes its pending
		// terms to disk at every statement boundary, so indexing row by row
		// (a trigger per node insert) writes ~2000 tiny segments and merges
		// them, several times slower.
		if _, err := tx.ExecContext(ctx, `INSERT INTO node_fts(rowid, title, text)
			SELECT id, `+ftsTextFunc+`(title), `+ftsTextFunc+`(text) FROM nodes WHERE paper_id = ? AND (title <> '' OR text <> '')`, paperID); err != nil {
			return fmt.Errorf("index text: %w", err)
		}
		if err := insertClosure(ctx, tx, flat, ids); err != nil {
			return err
		}
		if err := insertBlobs(ctx, tx, paperID, vecs, ids, s.vecDim); err != nil {
			return err
		}
		if err := insertVectors(ctx, tx, paperID, vecs, ids); err != nil {
			return err
		}
		if err := showFields(ctx, tx, paperID, p.Path, !o.Keep); err != nil {
			return err
		}
		if o.Tree != nil {
			return saveTreeChange(ctx, tx, p.Path, o.Tree)
		}
		return nil
	})
	if err != nil {
		return 0, s.explainWriteError(ctx, err)
	}
	p.ID = paperID
	for i, f := range flat {
		f.n.ID = ids[i]
	}
	return paperID, nil
}

// checkVectors checks every vector against the current embedder and the
// node it belongs to (segment and summary vectors belong to leaves, section
// vectors to sections or the root; leaf[ord] says which) and returns them by
// space without the all-zero ones.
func (s *Store) checkVectors(v Vectors, leaf []bool) (map[Space]map[int][]float32, error) {
	count := len(leaf)
	if v.empty() {
		return nil, nil
	}
	if s.vecDim == 0 {
		return nil, papertree.Errorf(papertree.EConflict, "No embedder is set for this library; vectors cannot be stored.")
	}
	out := map[Space]map[int][]float32{}
	for sp, m := range v.bySpace() {
		if len(m) == 0 {
			continue
		}
		enc := make(map[int][]float32, len(m))
		for ord, vec := range m {
			if ord < 0 || ord >= count {
				return nil, papertree.Errorf(papertree.EInvalid, "A %s vector refers to node %d, but the tree has %d nodes.", sp, ord, count)
			}
			if sp == SpacePaper && ord != 0 || sp != SpacePaper && leaf[ord] != (sp != SpaceSection) {
				return nil, papertree.Errorf(papertree.EInvalid, "Node %d cannot have a %s vector (segment and summary vectors are for leaves, section vectors for sections, the paper vector for the root).", ord, sp)
			}
			if len(vec) != s.vecDim {
				return nil, papertree.Errorf(papertree.EInvalid, "A %s vector has %d dimensions; the embedder has %d.", sp, len(vec), s.vecDim)
			}
			if isZero(vec) {
				continue
			}
			if _, err := encodeVector(vec); err != nil {
				return nil, err
			}
			enc[ord] = vec
		}
		out[sp] = enc
	}
	return out, nil
}

func encodeVector(vec []float32) ([]byte, error) {
	b := make([]byte, 4*len(vec))
	for i, f := range vec {
		bits := math.Float32bits(f)
		if bits&0x7f800000 == 0x7f800000 { // exponent all ones: NaN or ±Inf
			return nil, papertree.Errorf(papertree.EInvalid, "A vector contains NaN or infinity.")
		}
		binary.LittleEndian.PutUint32(b[4*i:], bits)
	}
	return b, nil
}

func isZero(vec []float32) bool {
	for _, f := range vec {
		if f != 0 {
			return false
		}
	}
	return true
}

func decodeVector(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func insertNodes(ctx context.Context, tx *sql.Tx, paperID int64, flat []flatNode, ids []int64) error {
	st, err := tx.PrepareContext(ctx, `INSERT INTO nodes(paper_id, parent_id, ord, kind, title, number, level,
		role, text, summary, page_start, page_end, boxes, tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("prepare node insert: %w", err)
	}
	defer st.Close()
	for i, f := range flat {
		n := f.n
		var parent any
		if len(f.ancestors) > 0 {
			parent = ids[f.ancestors[len(f.ancestors)-1]]
		}
		res, err := st.ExecContext(ctx, paperID, parent, i, string(n.Kind), n.Title, n.Number, n.Level,
			string(n.Role), n.Text, summaryCell(n.Text, n.Summary), n.PageStart, n.PageEnd, f.boxes, n.Tokens)
		if err != nil {
			return fmt.Errorf("insert node %d: %w", i, err)
		}
		if ids[i], err = res.LastInsertId(); err != nil {
			return err
		}
	}
	return nil
}

// closureBatch rows go into one multi-row INSERT: fewer cgo round trips
// (3 parameters per row, well under SQLite's 32766 variable limit).
const closureBatch = 256

func insertClosure(ctx context.Context, tx *sql.Tx, flat []flatNode, ids []int64) error {
	args := make([]any, 0, 3*closureBatch)
	var full *sql.Stmt
	defer func() {
		if full != nil {
			full.Close()
		}
	}()
	flush := func() error {
		rows := len(args) / 3
		if rows == 0 {
			return nil
		}
		var err error
		if rows == closureBatch {
			if full == nil {
				if full, err = tx.PrepareContext(ctx, closureInsertSQL(closureBatch)); err != nil {
					return fmt.Errorf("prepare closure insert: %w", err)
				}
			}
			_, err = full.ExecContext(ctx, args...)
		} else {
			_, err = tx.ExecContext(ctx, closureInsertSQL(rows), args...)
		}
		args = args[:0]
		if err != nil {
			return fmt.Errorf("insert closure: %w", err)
		}
		return nil
	}
	for i, f := range flat {
		id := ids[i]
		args = append(args, id, id, 0)
		if len(args) == cap(args) {
			if err := flush(); err != nil {
				return err
			}
		}
		for j, a := range f.ancestors {
			args = append(args, ids[a], id, len(f.ancestors)-j)
			if len(args) == cap(args) {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}

func closureInsertSQL(rows int) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO node_closure(ancestor_id, descendant_id, depth) VALUES `)
	for i := 0; i < rows; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?,?,?)")
	}
	return b.String()
}

// insertVectors writes the paper's vectors of the vec0 spaces.
func insertVectors(ctx context.Context, tx *sql.Tx, paperID int64, vecs map[Space]map[int][]float32, ids []int64) error {
	for _, sp := range vecSpaces {
		m := vecs[sp]
		if len(m) == 0 {
			continue
		}
		t, _ := sp.table()
		st, err := tx.PrepareContext(ctx, `INSERT INTO `+t+`(rowid, paper_id, embedding) VALUES (?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("prepare %s insert: %w", sp, err)
		}
		ords := make([]int, 0, len(m))
		for o := range m {
			ords = append(ords, o)
		}
		sort.Ints(ords) // document order: neighbouring nodes share vec0 chunks
		for _, o := range ords {
			b, err := encodeVector(m[o])
			if err != nil {
				st.Close()
				return err
			}
			if _, err := st.ExecContext(ctx, ids[o], paperID, b); err != nil {
				st.Close()
				return fmt.Errorf("insert %s vector: %w", sp, err)
			}
		}
		st.Close()
	}
	return nil
}

// RecordFailure stores a paper that could not be indexed: status failed with
// the error's code and user-safe message and no nodes, replacing any earlier
// row for path (so a once-good paper that now fails shows the failure).
func (s *Store) RecordFailure(ctx context.Context, path, hash, fingerprint string, cause error) error {
	if path == "" {
		return papertree.Errorf(papertree.EInvalid, "The failed paper has no file path.")
	}
	if cause == nil {
		return papertree.Errorf(papertree.EInvalid, "A failure needs an error to record.")
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM papers WHERE path = ?`, path); err != nil {
			return fmt.Errorf("replace %s: %w", path, err)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO papers(path, hash, status, err_code, err_message, fingerprint, indexed_at)
			VALUES (?, ?, 'failed', ?, ?, ?, ?)`, path, hash, string(papertree.ErrorCode(cause)),
			papertree.ErrorMessage(cause), fingerprint, time.Now().UnixMilli())
		if err != nil {
			return fmt.Errorf("record failure of %s: %w", path, err)
		}
		return nil
	})
}

// damagedRowMsg reports a paper whose stored row cannot be read whole.
const damagedRowMsg = "Part of this paper's record in the library is damaged; run papertree repair, which indexes the file again."

const paperInfoCols = `id, path, hash, title, authors, year, pages, status, err_code, err_message,
	fingerprint, embedder, indexed_at, stale, node_count, venue, doi, arxiv_id, ocr_pages`

type rowScanner interface{ Scan(dest ...any) error }

func scanPaperInfo(r rowScanner) (PaperInfo, error) {
	var pi PaperInfo
	var authors, code string
	var indexed int64
	err := r.Scan(&pi.ID, &pi.Path, &pi.Hash, &pi.Title, &authors, &pi.Year, &pi.Pages, &pi.Status, &code,
		&pi.ErrMessage, &pi.Fingerprint, &pi.Embedder, &indexed, &pi.Stale, &pi.Nodes,
		&pi.Venue, &pi.DOI, &pi.ArxivID, &pi.OCRPages)
	if err != nil {
		return pi, err
	}
	pi.ErrCode = papertree.Code(code)
	pi.IndexedAt = time.UnixMilli(indexed).UTC()
	if err := json.Unmarshal([]byte(authors), &pi.Authors); err != nil {
		// One damaged cell must not hide the whole library: the paper is
		// listed, with what is wrong, and re-indexing it repairs the row.
		pi.Authors = nil
		pi.ErrCode = papertree.ECorrupt
		pi.ErrMessage = damagedRowMsg
	}
	return pi, nil
}

// PaperByPath returns the paper stored for path (ENotFound when none).
func (s *Store) PaperByPath(ctx context.Context, path string) (PaperInfo, error) {
	pi, err := scanPaperInfo(s.r.QueryRowContext(ctx, `SELECT `+paperInfoCols+` FROM papers WHERE path = ?`, path))
	if errors.Is(err, sql.ErrNoRows) {
		return pi, papertree.Errorf(papertree.ENotFound, "No paper is indexed for %s.", path)
	}
	if err != nil {
		return pi, fmt.Errorf("read paper %s: %w", path, err)
	}
	return pi, nil
}

// PaperByID returns the paper with id (ENotFound when none).
func (s *Store) PaperByID(ctx context.Context, id int64) (PaperInfo, error) {
	pi, err := scanPaperInfo(s.r.QueryRowContext(ctx, `SELECT `+paperInfoCols+` FROM papers WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return pi, papertree.Errorf(papertree.ENotFound, "Paper %d does not exist.", id)
	}
	if err != nil {
		return pi, fmt.Errorf("read paper %d: %w", id, err)
	}
	return pi, nil
}

// ListPapers returns every paper, ready and failed, ordered by path.
func (s *Store) ListPapers(ctx context.Context) ([]PaperInfo, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+paperInfoCols+` FROM papers ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("list papers: %w", err)
	}
	defer rows.Close()
	var out []PaperInfo
	for rows.Next() {
		pi, err := scanPaperInfo(rows)
		if err != nil {
			return nil, fmt.Errorf("list papers: %w", err)
		}
		out = append(out, pi)
	}
	return out, rows.Err()
}

// DeletePaper removes a paper with its nodes, closure rows, FTS entries and
// vectors (ENotFound when it does not exist).
func (s *Store) DeletePaper(ctx context.Context, id int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM papers WHERE id = ?`, id)
		if err != nil {
			return fmt.Errorf("delete paper %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return papertree.Errorf(papertree.ENotFound, "Paper %d does not exist.", id)
		}
		return nil
	})
}

// Prune deletes every paper whose path keep rejects (typically: the file is
// gone) and returns the removed paths in path order. keep is called outside
// any transaction, so it may touch the file system freely.
func (s *Store) Prune(ctx context.Context, keep func(path string) bool) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, path FROM papers ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("prune: %w", err)
	}
	type idPath struct {
		id   int64
		path string
	}
	var all []idPath
	for rows.Next() {
		var ip idPath
		if err := rows.Scan(&ip.id, &ip.path); err != nil {
			rows.Close()
			return nil, fmt.Errorf("prune: %w", err)
		}
		all = append(all, ip)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("prune: %w", err)
	}
	var gone []idPath
	for _, ip := range all {
		if err := ctx.Err(); err != nil {
			return nil, papertree.Wrap(err, papertree.ECanceled, "Pruning was cancelled.")
		}
		if !keep(ip.path) {
			gone = append(gone, ip)
		}
	}
	if len(gone) == 0 {
		return nil, nil
	}
	var removed []string
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		removed = removed[:0]
		// Delete by id AND path: a paper replaced since the listing keeps its
		// new row (its id changed).
		for _, ip := range gone {
			res, err := tx.ExecContext(ctx, `DELETE FROM papers WHERE id = ? AND path = ?`, ip.id, ip.path)
			if err != nil {
				return fmt.Errorf("prune %s: %w", ip.path, err)
			}
			if n, _ := res.RowsAffected(); n > 0 {
				removed = append(removed, ip.path)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return removed, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilSizes(s []papertree.Size) []papertree.Size {
	if s == nil {
		return []papertree.Size{}
	}
	return s
}
