package store

import (
	"context"
	"math"
	"sort"
	"sync"
)

// paperCache keeps the paper space (one vector per paper) in memory as int8,
// for long-lived processes (the app): a library-wide question scans every
// paper vector to shortlist papers, which vec0 does in about 40 ms of CPU
// at 20,000 papers and this cache in about a third of that.
//
// The cache is filled in the background after the first library-wide
// search, which itself still runs in vec0: a one-question process (the
// CLI) never waits for the fill, and the first question of the app costs
// what it cost before (a cold question stays within 2x of a warm one). It
// is used only while it matches the table: each search compares the count
// and highest rowid of vec_paper (one small read), so papers written by
// another process are seen at once (the cache is then refilled).
type paperCache struct {
	mu      sync.Mutex
	loading bool
	filled  chan struct{} // closed when the fill under way ends
	version [2]int64      // count and max rowid of vec_paper when filled
	dim     int
	nodes   []int64
	papers  []int64
	codes   []int8
}

func (s *Store) paperVersion(ctx context.Context) ([2]int64, error) {
	var v [2]int64
	err := s.r.QueryRowContext(ctx, `SELECT count(*), coalesce(max(rowid), 0) FROM vec_paper_rowids`).Scan(&v[0], &v[1])
	return v, err
}

// searchPaperCache answers a whole-library paper-space search from the
// cache when it is current; ok is false otherwise (and a fill is started).
func (s *Store) searchPaperCache(ctx context.Context, q []float32, k int) (hits []Hit, ok bool) {
	v, err := s.paperVersion(ctx)
	if err != nil {
		return nil, false
	}
	c := &s.papers
	c.mu.Lock()
	_, dim := s.Embedder()
	current := c.dim == dim && c.version == v && c.nodes != nil
	if !current {
		if !c.loading {
			c.loading, c.filled = true, make(chan struct{})
			if !s.goBackground(func(ctx context.Context) { s.fillPaperCache(ctx, v, dim) }) {
				c.loading = false // closing: no fill, and nobody waits for one
				close(c.filled)
			}
		}
		c.mu.Unlock()
		return nil, false
	}
	nodes, papers, codes := c.nodes, c.papers, c.codes
	c.mu.Unlock()

	qn := make([]float32, len(q))
	var norm float64
	for _, x := range q {
		norm += float64(x) * float64(x)
	}
	inv := float32(1 / math.Sqrt(norm))
	for i, x := range q {
		qn[i] = x * inv
	}
	hits = make([]Hit, 0, len(nodes))
	for i := range nodes {
		cv := codes[i*dim : (i+1)*dim]
		var dot float32
		var nn int32
		for j, x := range cv {
			dot += float32(x) * qn[j]
			nn += int32(x) * int32(x)
		}
		if nn == 0 {
			continue
		}
		hits = append(hits, Hit{NodeID: nodes[i], PaperID: papers[i], Score: float64(dot) / math.Sqrt(float64(nn))})
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
	return hits, true
}

// fillPaperCache reads every paper vector into the cache (in the
// background; a failure leaves the cache empty and searches in vec0).
func (s *Store) fillPaperCache(ctx context.Context, v [2]int64, dim int) {
	c := &s.papers
	defer func() {
		c.mu.Lock()
		c.loading = false
		close(c.filled)
		c.mu.Unlock()
	}()
	rows, err := s.r.QueryContext(ctx, `SELECT rowid, paper_id, embedding FROM vec_paper`)
	if err != nil {
		return
	}
	defer rows.Close()
	var nodes, papers []int64
	var codes []int8
	buf := make([]byte, dim)
	for rows.Next() {
		var id, pid int64
		var b []byte
		if err := rows.Scan(&id, &pid, &b); err != nil || len(b) != 4*dim {
			return
		}
		quantize(decodeVector(b), buf)
		for _, x := range buf {
			codes = append(codes, int8(x))
		}
		nodes, papers = append(nodes, id), append(papers, pid)
	}
	if rows.Err() != nil {
		return
	}
	c.mu.Lock()
	c.version, c.dim, c.nodes, c.papers, c.codes = v, dim, nodes, papers, codes
	c.mu.Unlock()
}

// WarmPaperCache fills the paper-vector cache now (and the BM25 statistics
// of the full-text index), so that the first library-wide question costs
// what a warm one does. Libraries call it in the background when they open;
// a fill already under way is not repeated: the call waits for it (or for
// ctx), so that when it returns the warm-up is done.
func (s *Store) WarmPaperCache(ctx context.Context) {
	_, _, _, _ = s.stats(ctx, nil)
	_, _ = s.paperRanges(ctx) // the node id ranges of the library-wide full-text ranking (terms.go)
	if s.oneQuestion {
		return
	}
	v, err := s.paperVersion(ctx)
	if err != nil {
		return
	}
	c := &s.papers
	c.mu.Lock()
	_, dim := s.Embedder()
	if c.dim == dim && c.version == v && c.nodes != nil {
		c.mu.Unlock()
		return
	}
	if c.loading {
		filled := c.filled
		c.mu.Unlock()
		select {
		case <-filled:
		case <-ctx.Done():
		}
		return
	}
	c.loading, c.filled = true, make(chan struct{})
	c.mu.Unlock()
	s.fillPaperCache(ctx, v, dim)
}
