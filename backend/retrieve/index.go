package retrieve

import (
	"context"
	"math"
	"sync"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// Index is what strategies read. StoreIndex implements it over the SQLite
// store with a cache of prepared papers.
type Index interface {
	Embedder() papertree.Embedder
	// ReadyPapers lists the ids of papers that can be searched.
	ReadyPapers(ctx context.Context) ([]int64, error)
	// Paper returns a paper prepared for retrieval.
	Paper(ctx context.Context, id int64) (*PaperData, error)
	// SearchText runs a BM25 keyword search over leaves (and section titles).
	SearchText(ctx context.Context, query string, paperIDs []int64, limit int) ([]store.Hit, error)
	// SearchVectors runs a nearest-neighbour search in one vector space.
	SearchVectors(ctx context.Context, space store.Space, q []float32, paperIDs []int64, k int) ([]store.Hit, error)
}

// PaperData is a paper flattened for scoring: nodes by document order with
// parent links and their vectors.
type PaperData struct {
	Paper  *papertree.Paper
	Nodes  []*papertree.Node // index = Node.Order
	Parent []int             // order of the parent; -1 for the root
	Seg    [][]float32       // by order; nil where absent
	Sum    [][]float32
	Sec    [][]float32
	byID   map[int64]int

	mu       sync.Mutex
	titleVec [][]float32 // section title vectors, built lazily
	chunks   []chunk     // the naive baseline's flat chunks, built lazily
	chunkTok int
	sentVec  sentVecCache // sentence vectors of passages, see sentenceVectors

	abbrOnce sync.Once
	abbr     [][2][]string // abbreviations the paper defines, see abbreviations

	tabOnce sync.Once
	tabs    map[int]*tableGroup // by order of each part, see tableGroups

	extra *extraEntry // sentence signals, see extraOf (guarded by extras)
	// counts are the paper's term frequencies for the not-found signals,
	// see countsOf (guarded by counts).
	counts *termCounts
}

// Order returns the document-order index of node id, or -1.
func (d *PaperData) Order(id int64) int {
	if o, ok := d.byID[id]; ok {
		return o
	}
	return -1
}

// PathTo returns the nodes from the root to order o (inclusive).
func (d *PaperData) PathTo(o int) []*papertree.Node {
	var rev []*papertree.Node
	for i := o; i >= 0; i = d.Parent[i] {
		rev = append(rev, d.Nodes[i])
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// NewPaperData flattens a stored paper (node IDs set) and attaches vectors
// keyed by node id.
func NewPaperData(p *papertree.Paper, seg, sum, sec map[int64][]float32) *PaperData {
	d := &PaperData{Paper: p, byID: map[int64]int{}}
	if p.Root == nil {
		return d
	}
	n := p.Root.Renumber()
	d.Nodes = make([]*papertree.Node, n)
	d.Parent = make([]int, n)
	d.Seg, d.Sum, d.Sec = make([][]float32, n), make([][]float32, n), make([][]float32, n)
	p.Root.Walk(func(path []*papertree.Node) bool {
		node := path[len(path)-1]
		o := node.Order
		d.Nodes[o] = node
		d.Parent[o] = -1
		if len(path) > 1 {
			d.Parent[o] = path[len(path)-2].Order
		}
		d.byID[node.ID] = o
		d.Seg[o], d.Sum[o], d.Sec[o] = seg[node.ID], sum[node.ID], sec[node.ID]
		return true
	})
	return d
}

// StoreIndex reads from a store and caches prepared papers (bounded LRU-ish:
// the cache is cleared when it grows past its limit, which keeps memory
// bounded without bookkeeping on the hot path).
type StoreIndex struct {
	st    *store.Store
	emb   papertree.Embedder
	limit int

	mu      sync.Mutex
	cache   map[int64]*PaperData
	loading map[int64]*paperLoad // first loads under way, see Paper
	// cards are the papers' identity cards (identify.go).
	cards cardCache
	// warming holds a token while WarmPapers runs; questions are those
	// in flight (Asking), for which it pauses.
	warming   chan struct{}
	questions inFlight
}

// paperLoad is one paper's first load, shared by every caller that asks for
// the paper while it runs (a question's prefetch and the question itself,
// or two questions at once): the tree and vectors are read once.
type paperLoad struct {
	done chan struct{} // closed when d and err are set
	d    *PaperData
	err  error
	// stale is set (under StoreIndex.mu) when the paper is invalidated
	// while it loads: what the load read is not cached.
	stale bool
}

// NewStoreIndex wraps a store; cacheLimit bounds cached papers (default 512).
func NewStoreIndex(st *store.Store, emb papertree.Embedder, cacheLimit int) *StoreIndex {
	if cacheLimit <= 0 {
		cacheLimit = 512
	}
	return &StoreIndex{st: st, emb: emb, limit: cacheLimit, cache: map[int64]*PaperData{}, loading: map[int64]*paperLoad{},
		warming: make(chan struct{}, 1)}
}

func (ix *StoreIndex) Embedder() papertree.Embedder { return ix.emb }

// Invalidate drops a paper from the cache (after it was re-indexed or removed).
func (ix *StoreIndex) Invalidate(id int64) {
	ix.mu.Lock()
	delete(ix.cache, id)
	if l, ok := ix.loading[id]; ok {
		l.stale = true
		delete(ix.loading, id)
	}
	ix.mu.Unlock()
}

func (ix *StoreIndex) ReadyPapers(ctx context.Context) ([]int64, error) {
	return ix.st.ReadyPaperIDs(ctx)
}

func (ix *StoreIndex) Paper(ctx context.Context, id int64) (*PaperData, error) {
	ix.mu.Lock()
	if d, ok := ix.cache[id]; ok {
		ix.mu.Unlock()
		return d, nil
	}
	if l, ok := ix.loading[id]; ok {
		ix.mu.Unlock()
		select {
		case <-l.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if l.err == nil {
			return l.d, nil
		}
		// The other caller's load failed (perhaps only its context was
		// cancelled): load for this caller.
		return ix.load(ctx, id)
	}
	l := &paperLoad{done: make(chan struct{})}
	ix.loading[id] = l
	ix.mu.Unlock()
	defer func() {
		ix.mu.Lock()
		if ix.loading[id] == l {
			delete(ix.loading, id)
		}
		if l.err == nil && !l.stale {
			if len(ix.cache) >= ix.limit {
				clear(ix.cache)
			}
			ix.cache[id] = l.d
		}
		ix.mu.Unlock()
		close(l.done)
	}()
	l.d, l.err = ix.load(ctx, id)
	return l.d, l.err
}

// load reads paper id from the store and prepares it (no caching).
func (ix *StoreIndex) load(ctx context.Context, id int64) (*PaperData, error) {
	// The tree and the vectors are read at the same time (the store has a
	// pool of readers): a paper's first load is on the path of the first
	// question that searches it.
	var p *papertree.Paper
	var perr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		p, perr = ix.st.LoadPaper(ctx, id)
	}()
	ids := []int64{id}
	var vecs [3]map[int64][]float32
	var verr error
	for i, sp := range []store.Space{store.SpaceSegment, store.SpaceSummary, store.SpaceSection} {
		if vecs[i], verr = ix.st.LoadVectors(ctx, sp, ids); verr != nil {
			break
		}
	}
	// The signals made at index time, if any (a failed read only means
	// they are computed on first use).
	sigKey, sigData, sigOK, sigErr := ix.st.LoadStructure(ctx, id, SignalsKind)
	<-done
	if perr != nil {
		return nil, perr
	}
	if verr != nil {
		return nil, verr
	}
	d := NewPaperData(p, vecs[0], vecs[1], vecs[2])
	if sigOK && sigErr == nil {
		storedExtra(d, sigKey, sigData)
	}
	return d, nil
}

func (ix *StoreIndex) SearchText(ctx context.Context, query string, paperIDs []int64, limit int) ([]store.Hit, error) {
	return ix.st.SearchText(ctx, query, paperIDs, limit)
}

// NodeTexts returns the stored text of each node, by id, without loading
// its paper (see nodeTexter).
func (ix *StoreIndex) NodeTexts(ctx context.Context, ids []int64) (map[int64]string, error) {
	return ix.st.NodeTexts(ctx, ids)
}

func (ix *StoreIndex) SearchVectors(ctx context.Context, space store.Space, q []float32, paperIDs []int64, k int) ([]store.Hit, error) {
	return ix.st.SearchVectors(ctx, space, q, paperIDs, k)
}

// dot is the cosine of two unit vectors; 0 when either is missing or the
// lengths differ.
func dot(a, b []float32) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}

// normalize scales v to unit length in place (no-op for the zero vector).
func normalize(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return v
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
	return v
}

// PaperText returns paper id prepared for reading its text only: the
// cached paper when there is one, else its tree without its vectors and
// signals (not cached). A which-papers question reads the text
// of hundreds of papers in a large library; their vectors are most of a
// paper's load and it never uses them.
func (ix *StoreIndex) PaperText(ctx context.Context, id int64) (*PaperData, error) {
	ix.mu.Lock()
	d, ok := ix.cache[id]
	ix.mu.Unlock()
	if ok {
		return d, nil
	}
	p, err := ix.st.LoadPaper(ctx, id)
	if err != nil {
		return nil, err
	}
	return NewPaperData(p, nil, nil, nil), nil
}

// textLoader is implemented by indexes that can load a paper's text
// without its vectors.
type textLoader interface {
	PaperText(ctx context.Context, id int64) (*PaperData, error)
}

var _ textLoader = (*StoreIndex)(nil)
