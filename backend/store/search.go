package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// Hit is one search result. Score is higher-is-better within one search:
// for SearchText it is -bm25 (positive, unbounded); for SearchVectors it is
// the cosine similarity (1 - cosine distance, in [-1, 1]).
type Hit struct {
	NodeID  int64   `json:"node_id"`
	PaperID int64   `json:"paper_id"`
	Score   float64 `json:"score"`
}

const (
	defaultLimit = 50
	// maxKNN is sqlite-vec's upper bound for k in a vec0 KNN query.
	maxKNN = 4096
	// maxQueryTerms bounds the OR query so a pasted page cannot make a
	// pathological FTS query.
	maxQueryTerms = 64
)

// ftsStopwords are dropped from text queries (unless nothing else is left):
// in an OR query they match nearly every segment and only add cost.
var ftsStopwords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"do": true, "does": true, "for": true, "from": true, "how": true, "in": true, "is": true, "it": true,
	"of": true, "on": true, "or": true, "that": true, "the": true, "this": true, "to": true, "was": true,
	"what": true, "which": true, "with": true, "who": true, "why": true, "were": true, "when": true,
}

// GluedSymbol is the one word papers print for a symbol typed with an
// underscore subscript ("x_max" -> "xmax": PDF extraction glues the
// subscript to its symbol); ok is false for a word that is not one symbol
// and one subscript ("x", "_max", "a_b_c").
func GluedSymbol(w string) (string, bool) {
	if sym, sub, ok := strings.Cut(w, "_"); ok && sym != "" && sub != "" && !strings.Contains(sub, "_") {
		return sym + sub, true
	}
	return "", false
}

// FTSQuery turns free user text into a safe FTS5 query: the text is split
// into words (letters and digits), each word becomes a quoted string
// ("word"), and the words are ORed. Quoting makes FTS5 operators and syntax
// (AND, NOT, NEAR(, *, -, ^, :, quotes) plain words, so no input can cause a
// syntax error or change the query's meaning. Returns "" when the text has no
// words.
func FTSQuery(text string) string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	// A symbol typed with an underscore subscript ("x_max") is printed as
	// one word ("xmax": the subscript is extracted glued to its symbol):
	// that word is searched too.
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		if g, ok := GluedSymbol(w); ok {
			words = append(words, g)
		}
	}
	// A run of Chinese, Japanese or Korean characters is a clause, not a
	// word: it is searched by its character bigrams, the words the index
	// holds for it (papertree.CJKIndexText).
	if papertree.HasCJK(text) {
		var split []string
		for _, w := range words {
			split = append(split, papertree.CJKParts(w)...)
		}
		words = split
	}
	seen := map[string]bool{}
	var keep, stop []string
	for _, w := range words {
		if seen[w] {
			continue
		}
		seen[w] = true
		if ftsStopwords[w] {
			stop = append(stop, w)
		} else {
			keep = append(keep, w)
			// FTS5's Porter stems "corpora" and "corpus" apart: the
			// singular of a classical plural is searched too.
			if s := embedding.Singular(w); s != "" && !seen[s] {
				seen[s] = true
				keep = append(keep, s)
			}
		}
	}
	if len(keep) == 0 {
		keep = stop
	}
	if len(keep) > maxQueryTerms {
		keep = keep[:maxQueryTerms]
	}
	for i, w := range keep {
		// Words hold no quotes after the split; doubling them anyway keeps
		// the quoting correct if the split rule ever changes.
		keep[i] = `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
	}
	return strings.Join(keep, " OR ")
}

// inList returns " AND col IN (?,?,...)" and its arguments, or "" for no ids.
func inList(col string, ids []int64) (string, []any) {
	if len(ids) == 0 {
		return "", nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return " AND " + col + " IN (" + strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",") + ")", args
}

// SearchText ranks nodes (leaf text and section/paper titles) by FTS5 bm25
// against the words of query, ORed (see FTSQuery). Titles weigh twice as much
// as body text. paperIDs restricts the search; empty means every paper.
func (s *Store) SearchText(ctx context.Context, query string, paperIDs []int64, limit int) ([]Hit, error) {
	q := FTSQuery(query)
	if q == "" {
		return nil, nil
	}
	if limit <= 0 {
		limit = defaultLimit
	}
	if len(paperIDs) > 0 && len(paperIDs) <= maxRangedPapers {
		return s.searchTextRanged(ctx, q, paperIDs, limit)
	}
	filter, args := inList("n.paper_id", paperIDs)
	return s.searchText(ctx, q, filter, append(args, limit))
}

// maxRangedPapers bounds the per-paper strategy of SearchText; wider scopes
// use one query with an IN filter, which ranks every match in the library
// first. 40 = retrieve's paper-vector shortlist (32) plus the papers a
// question partly names (8).
const maxRangedPapers = 48

// searchTextRanged searches each paper with a rowid range on the full-text
// index. A paper's nodes are inserted in one transaction by the single
// writer, so their ids form one contiguous range; FTS5 seeks its doclists to
// that range instead of ranking every match in the library and filtering
// afterwards, which made scoped searches grow with the library (about 15x
// slower at 10x the papers). The paper_id filter stays, so correctness never
// depends on contiguity, only speed does.
func (s *Store) searchTextRanged(ctx context.Context, q string, paperIDs []int64, limit int) ([]Hit, error) {
	var hits []Hit
	for _, id := range paperIDs {
		var lo, hi sql.NullInt64
		if err := s.r.QueryRowContext(ctx, `SELECT min(id), max(id) FROM nodes WHERE paper_id = ?`, id).Scan(&lo, &hi); err != nil {
			return nil, fmt.Errorf("text search: %w", err)
		}
		if !lo.Valid {
			continue
		}
		h, err := s.searchTextGo(ctx, q, lo.Int64, hi.Int64, id, limit)
		if err != nil {
			return nil, err
		}
		hits = append(hits, h...)
	}
	if len(paperIDs) > 1 {
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
		if len(hits) > limit {
			hits = hits[:limit]
		}
	}
	return hits, nil
}

// searchText runs one bm25-ranked FTS query; args are the filter's
// arguments followed by the limit.
func (s *Store) searchText(ctx context.Context, q, filter string, args []any) ([]Hit, error) {
	sqlText := `SELECT f.rowid, n.paper_id, bm25(node_fts, 2.0, 1.0) AS r
		FROM node_fts f JOIN nodes n ON n.id = f.rowid
		WHERE node_fts MATCH ?` + filter + ` ORDER BY r LIMIT ?`
	rows, err := s.r.QueryContext(ctx, sqlText, append([]any{q}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("text search: %w", err)
	}
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var h Hit
		var r float64
		if err := rows.Scan(&h.NodeID, &h.PaperID, &r); err != nil {
			return nil, fmt.Errorf("text search: %w", err)
		}
		h.Score = -r
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("text search: %w", err)
	}
	return hits, nil
}

// checkQueryVector validates q against the library's embedder.
func (s *Store) checkQueryVector(q []float32) ([]byte, error) {
	s.vecMu.RLock()
	dim := s.vecDim
	s.vecMu.RUnlock()
	if dim == 0 {
		return nil, papertree.Errorf(papertree.EConflict, "No embedder is set for this library; vector search is unavailable.")
	}
	if len(q) != dim {
		return nil, papertree.Errorf(papertree.EInvalid, "The query vector has %d dimensions; the library's embedder has %d.", len(q), dim)
	}
	if isZero(q) {
		return nil, papertree.Errorf(papertree.EInvalid, "The query vector is all zeros, so it has no direction to search.")
	}
	return encodeVector(q)
}

// SearchVectors returns the k nearest nodes to q in space by cosine distance
// (exact brute-force KNN inside vec0), nearest first, with Score = cosine
// similarity. paperIDs restricts the search; empty means every paper. With
// paperIDs, each paper's partition is searched for its own k nearest and the
// results are merged, all inside one read transaction (one snapshot). k is
// capped at 4096 (sqlite-vec's limit).
func (s *Store) SearchVectors(ctx context.Context, space Space, q []float32, paperIDs []int64, k int) ([]Hit, error) {
	t, err := space.table()
	if err != nil {
		return nil, err
	}
	blob, err := s.checkQueryVector(q)
	if err != nil {
		return nil, err
	}
	if k <= 0 {
		k = defaultLimit
	}
	if k > maxKNN {
		k = maxKNN
	}
	if blobSpace(space) {
		return s.searchBlobs(ctx, space, q, paperIDs, k)
	}
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	defer tx.Rollback()
	knn := func(query string, args ...any) ([]Hit, error) {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return nil, fmt.Errorf("vector search: %w", err)
		}
		defer rows.Close()
		var hits []Hit
		for rows.Next() {
			var h Hit
			var d sql.NullFloat64
			if err := rows.Scan(&h.NodeID, &h.PaperID, &d); err != nil {
				return nil, fmt.Errorf("vector search: %w", err)
			}
			if !d.Valid || math.IsNaN(d.Float64) {
				continue // cannot happen for stored vectors (zeros are skipped); never rank it
			}
			h.Score = 1 - d.Float64
			hits = append(hits, h)
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("vector search: %w", err)
		}
		return hits, nil
	}
	base := `SELECT rowid, paper_id, distance FROM ` + t + ` WHERE embedding MATCH ? AND k = ?`
	if len(paperIDs) == 0 {
		if space == SpacePaper && s.path != ":memory:" && !s.oneQuestion {
			if hits, ok := s.searchPaperCache(ctx, q, k); ok {
				return hits, nil
			}
		}
		return knn(base+` ORDER BY distance`, blob, k)
	}
	st := base + ` AND paper_id = ? ORDER BY distance`
	var all []Hit
	seen := make(map[int64]bool, len(paperIDs))
	for _, pid := range paperIDs {
		if seen[pid] {
			continue
		}
		seen[pid] = true
		hits, err := knn(st, blob, k, pid)
		if err != nil {
			return nil, err
		}
		all = append(all, hits...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Score > all[j].Score })
	if len(all) > k {
		all = all[:k]
	}
	return all, nil
}

// LoadVectors returns every vector of space in the given papers (all papers
// when paperIDs is empty), keyed by node id, for in-memory scoring inside a
// chosen scope (e.g. all segments of the top sections).
func (s *Store) LoadVectors(ctx context.Context, space Space, paperIDs []int64) (map[int64][]float32, error) {
	t, err := space.table()
	if err != nil {
		return nil, err
	}
	if _, dim := s.Embedder(); dim == 0 {
		return nil, papertree.Errorf(papertree.EConflict, "No embedder is set for this library; there are no vectors.")
	}
	if blobSpace(space) {
		return s.loadBlobs(ctx, space, paperIDs)
	}
	query := `SELECT rowid, embedding FROM ` + t
	var args []any
	if len(paperIDs) > 0 {
		// Drive from the nodes index and fetch each vector by rowid: a point
		// lookup per node of the chosen papers instead of a scan of the space.
		var filter string
		filter, args = inList("n.paper_id", paperIDs)
		query = `SELECT v.rowid, v.embedding FROM nodes n CROSS JOIN ` + t + ` v ON v.rowid = n.id
			WHERE 1` + filter
	}
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("load %s vectors: %w", space, err)
	}
	defer rows.Close()
	out := map[int64][]float32{}
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return nil, fmt.Errorf("load %s vectors: %w", space, err)
		}
		out[id] = decodeVector(b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load %s vectors: %w", space, err)
	}
	return out, nil
}

// NodeVectors returns the vectors of space for the given nodes (those that
// have one), keyed by node id: the cheap way to score a chosen scope, e.g.
// the leaves of the top sections. Each vector is a vec0 point lookup (~50 us
// of CPU each; a whole paper of 2000 leaves costs ~100 ms, so prefer this
// over LoadVectors when the scope is smaller than the paper).
func (s *Store) NodeVectors(ctx context.Context, space Space, nodeIDs []int64) (map[int64][]float32, error) {
	t, err := space.table()
	if err != nil {
		return nil, err
	}
	if _, dim := s.Embedder(); dim == 0 {
		return nil, papertree.Errorf(papertree.EConflict, "No embedder is set for this library; there are no vectors.")
	}
	if blobSpace(space) {
		return s.nodeBlobs(ctx, space, nodeIDs)
	}
	out := make(map[int64][]float32, len(nodeIDs))
	if len(nodeIDs) == 0 {
		return out, nil
	}
	ids, err := json.Marshal(nodeIDs)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT v.rowid, v.embedding FROM json_each(?) j
		CROSS JOIN `+t+` v ON v.rowid = j.value`, string(ids))
	if err != nil {
		return nil, fmt.Errorf("load %s vectors: %w", space, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return nil, fmt.Errorf("load %s vectors: %w", space, err)
		}
		out[id] = decodeVector(b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load %s vectors: %w", space, err)
	}
	return out, nil
}

// ftsPhrase is the FTS5 query for the words toks written in a row (a quoted
// phrase), as the index tokenized them (papertree.CJKIndexText): a CJK part
// of a word becomes its character bigrams, followed by its last character
// alone when more words follow (the index writes that character after
// every CJK run); a phrase that ends in a single CJK character matches it
// as a prefix (every CJK character begins one indexed word, a bigram or
// the last character of a run). prefix asks for a prefix match of the last
// word whatever its script. Quotes are doubled.
func ftsPhrase(toks []string, prefix bool) string {
	var parts []string
	for _, t := range toks {
		parts = append(parts, papertree.SplitCJK(t)...)
	}
	var out []string
	for i, p := range parts {
		bi := papertree.CJKBigrams(p)
		if bi == nil {
			out = append(out, p)
			continue
		}
		if len(bi) == 1 && len([]rune(p)) == 1 {
			out = append(out, p)
			if i == len(parts)-1 {
				prefix = true
			}
			continue
		}
		out = append(out, bi...)
		if i < len(parts)-1 {
			r := []rune(p)
			out = append(out, string(r[len(r)-1]))
		}
	}
	q := `"` + strings.ReplaceAll(strings.Join(out, " "), `"`, `""`) + `"`
	if prefix {
		q += "*"
	}
	return q
}
