package retrieve

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// fable is FABLE (Sun et al., "Forest-Based Adaptive Bi-Path LLM-Enhanced
// Retrieval for Multi-Document Reasoning", specs/fable.md) over the
// library's PaperTrees:
//
//   - The forest is one tree per paper: the root is the paper (title and
//     abstract), internal nodes are its headings (the ToC) and leaves are its
//     segments. An internal node is embedded as toc_path ⊕ summary (Eq. 5),
//     where the summary is extractive: the first stored segment summaries
//     under it (the paper's trees are LLM-written; ours come from the PDF's
//     headings, spec 3.1 [PROD]). Leaves use their stored segment vectors
//     (Eq. 6). Depth: root = 1.
//   - Document level, bi-path (Algorithm 1): path A is the LLM reading the
//     ToC entries of depth <= L of every paper (MultiDocLLM.SelectDocs);
//     offline, or when it fails, its stand-in scores each paper by its best
//     ToC entry (cosine of the query with toc_path ⊕ summary, plus the
//     keyword overlap of the query with the heading path) and keeps the
//     papers within fableRelKeep of the best. Path B is dense top-K over all
//     node vectors (segments and sections), walking the hits in score order
//     until K_doc distinct papers are found. D_fusion is their union.
//   - Budget-adaptive routing: when the papers of D_fusion fit the token
//     budget together, they are returned whole (branch "docs").
//   - Node level: the LLM navigates the non-leaf nodes of D_fusion
//     (MultiDocLLM.Navigate; offline it is dropped, the paper's
//     treeexp-nodes preset), TreeExpansion scores every node with Eq. 7
//     (S = the mean of S_sim, S_inh and S_child, over the signals the node
//     has: leaves have no children, the root no ancestors) and takes nodes
//     in score order while they fit, ancestors absorbing descendants; a
//     paper's first misfit ends that paper's share (treeScores and
//     fableNodes say why); NodeFusion (Algorithm 2) removes descendants,
//     puts LLM papers first and keeps reading order; budget control (Eq. 8)
//     keeps the longest prefix that fits.
//
// Departure [I]: under Eq. 8 a first chunk larger than the whole budget
// would leave nothing; the chunk that crosses the budget is cut to its
// sentences that best match the question instead of being dropped, and the
// prefix stops there.
type fable struct{}

func (fable) Name() string { return "fable" }
func (fable) Description() string {
	return "FABLE: picks papers by their table of contents and by dense search (bi-path), returns whole papers when they fit the budget, else TreeExpansion over the paper trees."
}

func init() { Register(fable{}) }

// FABLE settings the paper leaves open (spec 2.7 [X]); our defaults [I].
const (
	fableL       = 2    // depth threshold of the document-selection ToC context (root + top-level sections)
	fableKDoc    = 3    // papers the dense path contributes
	fableKToC    = 3    // most papers the offline ToC path keeps
	fableRelKeep = 0.85 // the offline ToC path keeps papers scoring >= this share of the best
	fableSumSegs = 2    // segment summaries that make an internal node's extractive summary
)

// MultiDocLLM holds the LLM steps of the multi-paper strategies (FABLE's
// document selection and node navigation, StructRAG's router,
// structurizer and utilizer). They are plain functions so that this package
// never talks to a model: the caller (library) wraps llm.Ops and records
// their outcomes. A nil function, or one returning an error, means the
// strategy uses its offline fallback and lists it in the diagnostics.
type MultiDocLLM struct {
	// SelectDocs chooses the papers whose ToC entries show they hold what the
	// question needs (FABLE path A). It returns paper ids (unknown ids are
	// dropped by the caller) and the model's one-line reason.
	SelectDocs func(ctx context.Context, query string, docs []DocToC) ([]int64, string, error)
	// Navigate chooses non-leaf nodes (node ids) of the given ToC.
	Navigate func(ctx context.Context, query string, docs []DocToC) ([]int64, error)
	// Route returns the structure type (table, graph, algorithm, catalogue or
	// chunk) for the question given the papers' titles, and the reason.
	Route func(ctx context.Context, query string, titles []string) (string, string, error)
	// AutoRoute is the default strategy's router (StructRAG's router prompt
	// over the app's answer structures): "table", "list" or "chunk" for the
	// question given the papers' titles, and the reason. It runs within
	// RouteDeadline (0 = DefaultRouteDeadline).
	AutoRoute     func(ctx context.Context, query string, titles []string) (string, string, error)
	RouteDeadline time.Duration
	// Structurize rewrites one paper's sources into items of the structure
	// type; every item must name the sources (tags) it came from.
	Structurize func(ctx context.Context, query, typ string, doc StructDoc) (StructOut, error)
	// Decompose splits the question into sub-questions, given the
	// descriptions of the structured knowledge.
	Decompose func(ctx context.Context, query string, descriptions []string) ([]string, error)
	// Extract returns the indexes of the items that help answer subQuery.
	Extract func(ctx context.Context, subQuery, typ string, items []string) ([]int, error)
}

// DocToC is one paper's ToC entries as the LLM sees them.
type DocToC struct {
	PaperID int64
	Title   string
	Entries []ToCEntry
}

// ToCEntry is one internal node: its heading path and extractive summary.
type ToCEntry struct {
	NodeID  int64
	Depth   int // root = 1
	Path    string
	Summary string
}

type multiDocKey struct{}

// WithMultiDocLLM returns ctx carrying the LLM steps of the multi-paper
// strategies (nil = offline).
func WithMultiDocLLM(ctx context.Context, h *MultiDocLLM) context.Context {
	return context.WithValue(ctx, multiDocKey{}, h)
}

func multiDocLLM(ctx context.Context) *MultiDocLLM {
	h, _ := ctx.Value(multiDocKey{}).(*MultiDocLLM)
	if h == nil {
		return &MultiDocLLM{}
	}
	return h
}

// fTree is one paper of the forest.
type fTree struct {
	d      *PaperData
	depth  []int       // root = 1
	tokens []int       // subtree tokens (leaves: their own)
	toc    []string    // toc_path ⊕ summary of internal nodes ("" for leaves)
	vec    [][]float32 // e_v: ToC embedding for internal nodes, segment vector for leaves
	kids   [][]int
	total  int
}

// forestCache keeps the ToC embeddings of papers (keyed by paper id, file
// hash and embedder), so the forest is embedded once, not per question.
var forestCache = struct {
	sync.Mutex
	m map[string][][]float32
}{m: map[string][][]float32{}}

const forestCacheLimit = 4096

func buildTree(ctx context.Context, emb papertree.Embedder, d *PaperData) (*fTree, error) {
	n := len(d.Nodes)
	t := &fTree{d: d, depth: make([]int, n), tokens: make([]int, n), toc: make([]string, n), vec: make([][]float32, n), kids: make([][]int, n)}
	for o := 0; o < n; o++ {
		if p := d.Parent[o]; p >= 0 {
			t.depth[o] = t.depth[p] + 1
			t.kids[p] = append(t.kids[p], o)
		} else {
			t.depth[o] = 1
		}
	}
	for o := n - 1; o >= 0; o-- {
		if d.Nodes[o].IsLeaf() {
			t.tokens[o] = max(d.Nodes[o].Tokens, 1)
			t.vec[o] = d.Seg[o]
		}
		if p := d.Parent[o]; p >= 0 {
			t.tokens[p] += t.tokens[o]
		}
	}
	if n > 0 {
		t.total = t.tokens[0]
	}
	var texts []string
	var at []int
	for o := 0; o < n; o++ {
		if d.Nodes[o].IsLeaf() {
			continue
		}
		t.toc[o] = t.tocPath(o) + "\n" + t.summary(o)
		texts = append(texts, t.toc[o])
		at = append(at, o)
	}
	if len(texts) == 0 {
		return t, nil
	}
	key := fmt.Sprintf("%d/%s/%s/%d", d.Paper.ID, d.Paper.Hash, emb.Name(), len(texts))
	forestCache.Lock()
	vs, ok := forestCache.m[key]
	forestCache.Unlock()
	if !ok {
		var err error
		if vs, err = emb.Embed(ctx, texts); err != nil {
			return nil, errf("embed table of contents", err)
		}
		forestCache.Lock()
		if len(forestCache.m) >= forestCacheLimit {
			clear(forestCache.m)
		}
		forestCache.m[key] = vs
		forestCache.Unlock()
	}
	for i, o := range at {
		t.vec[o] = vs[i]
	}
	return t, nil
}

// tocPath is the heading path from the paper title to node o.
func (t *fTree) tocPath(o int) string {
	var ts []string
	for _, n := range t.d.PathTo(o) {
		if n.Title != "" {
			ts = append(ts, n.Title)
		}
	}
	return strings.Join(ts, " > ")
}

// summary is node o's extractive summary: the abstract for the root, else
// the first stored segment summaries (or first sentences) under it.
func (t *fTree) summary(o int) string {
	if o == 0 && strings.TrimSpace(t.d.Paper.Abstract) != "" {
		return firstWords(t.d.Paper.Abstract, 80)
	}
	var parts []string
	var walk func(int) bool
	walk = func(x int) bool {
		n := t.d.Nodes[x]
		if n.IsLeaf() {
			s := n.Summary
			if s == "" {
				if ss := papertree.SplitSentences(n.Text); len(ss) > 0 {
					s = ss[0]
				}
			}
			if s = strings.TrimSpace(s); s != "" {
				parts = append(parts, s)
			}
			return len(parts) < fableSumSegs
		}
		for _, k := range t.kids[x] {
			if !walk(k) {
				return false
			}
		}
		return true
	}
	walk(o)
	return firstWords(strings.Join(parts, " "), 80)
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

// docToC lists the internal nodes of t with depth <= maxDepth (0 = all).
func (t *fTree) docToC(maxDepth int) DocToC {
	dt := DocToC{PaperID: t.d.Paper.ID, Title: t.d.Paper.Title}
	for o, n := range t.d.Nodes {
		if n.IsLeaf() || (maxDepth > 0 && t.depth[o] > maxDepth) {
			continue
		}
		dt.Entries = append(dt.Entries, ToCEntry{NodeID: n.ID, Depth: t.depth[o], Path: t.tocPath(o), Summary: t.summary(o)})
	}
	return dt
}

// docChoice is one paper's document-level signals.
type docChoice struct {
	t      *fTree
	toc    float64 // offline path A score
	vec    float64 // best dense hit (path B)
	vecHit bool
	llm    int // rank in the LLM's choice, -1 if not chosen
	tocHit bool
	score  float64
}

// loadForest loads the papers in scope (all ready papers for library-wide
// questions; shortlisted by the paper vectors in large libraries).
func loadForest(ctx context.Context, ix Index, req Request, qv []float32) ([]*fTree, error) {
	ids := req.PaperIDs
	if len(ids) == 0 {
		all, err := ix.ReadyPapers(ctx)
		if err != nil {
			return nil, errf("list papers", err)
		}
		ids = all
		if len(all) > paperShortlist {
			if hits, err := ix.SearchVectors(ctx, store.SpacePaper, qv, nil, paperShortlist); err == nil && len(hits) > 0 {
				ids = ids[:0:0]
				for _, h := range hits {
					ids = append(ids, h.PaperID)
				}
			}
		}
	}
	if len(ids) == 0 {
		return nil, papertree.Errorf(papertree.ENotFound, "The library has no indexed papers to search.")
	}
	var out []*fTree
	for _, id := range ids {
		d, err := ix.Paper(ctx, id)
		if err != nil {
			return nil, errf("load paper", err)
		}
		if len(d.Nodes) == 0 {
			continue
		}
		t, err := buildTree(ctx, ix.Embedder(), d)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// selectDocs runs FABLE's document level (both paths and their fusion) and
// returns the chosen trees in fused order plus every paper's signals.
func selectDocs(ctx context.Context, ix Index, req Request, qv []float32, forest []*fTree, fallbacks *[]string) ([]*fTree, []*docChoice, string) {
	h := multiDocLLM(ctx)
	byID := map[int64]*docChoice{}
	var all []*docChoice
	qTerms := contentTerms(req.Query)
	for _, t := range forest {
		c := &docChoice{t: t, llm: -1}
		for o, n := range t.d.Nodes {
			if n.IsLeaf() || t.depth[o] > fableL {
				continue
			}
			s := dot(qv, t.vec[o]) + 0.1*termOverlap(qTerms, t.tocPath(o))
			c.toc = max(c.toc, s)
		}
		byID[t.d.Paper.ID] = c
		all = append(all, c)
	}
	// Path A: the LLM reads the ToC, or the offline ToC match.
	llmReason := ""
	if h.SelectDocs != nil && len(forest) > 0 {
		docs := make([]DocToC, len(forest))
		for i, t := range forest {
			docs[i] = t.docToC(fableL)
		}
		ids, reason, err := h.SelectDocs(ctx, req.Query, docs)
		if err == nil {
			rank := 0
			for _, id := range ids {
				if c, ok := byID[id]; ok && c.llm < 0 {
					c.llm = rank
					rank++
				}
			}
			llmReason = reason
			if rank == 0 && len(ids) > 0 {
				*fallbacks = append(*fallbacks, "fable document selection: the LLM named no known paper; using the dense path only")
			}
		} else {
			*fallbacks = append(*fallbacks, "fable document selection: title/ToC match ("+papertree.ErrorMessage(err)+")")
			h = &MultiDocLLM{}
		}
	} else {
		*fallbacks = append(*fallbacks, "fable document selection: title/ToC match (no LLM)")
	}
	if h.SelectDocs == nil {
		sorted := append([]*docChoice(nil), all...)
		sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].toc > sorted[j].toc })
		for i, c := range sorted {
			if i >= fableKToC || len(sorted) == 0 || c.toc < fableRelKeep*sorted[0].toc || c.toc <= 0 {
				break
			}
			c.tocHit = true
		}
	}
	// Path B: dense top-K over all node vectors, distinct papers in hit order.
	ids := make([]int64, len(forest))
	for i, t := range forest {
		ids[i] = t.d.Paper.ID
	}
	var hits []store.Hit
	for _, sp := range []store.Space{store.SpaceSegment, store.SpaceSection} {
		hs, err := ix.SearchVectors(ctx, sp, qv, ids, 40)
		if err == nil {
			hits = append(hits, hs...)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
	found := 0
	for _, hh := range hits {
		c, ok := byID[hh.PaperID]
		if !ok {
			continue
		}
		if !c.vecHit {
			if found == fableKDoc {
				continue
			}
			c.vecHit, c.vec = true, hh.Score
			found++
		}
	}
	// Fusion: LLM papers in the LLM's order, then the others by score.
	var chosen []*docChoice
	for _, c := range all {
		c.score = round4(c.toc + c.vec)
		if c.llm >= 0 || c.tocHit || c.vecHit {
			chosen = append(chosen, c)
		}
	}
	sort.SliceStable(chosen, func(i, j int) bool {
		a, b := chosen[i], chosen[j]
		if (a.llm >= 0) != (b.llm >= 0) {
			return a.llm >= 0
		}
		if a.llm >= 0 && a.llm != b.llm {
			return a.llm < b.llm
		}
		return a.score > b.score
	})
	out := make([]*fTree, len(chosen))
	for i, c := range chosen {
		out[i] = c.t
	}
	sort.SliceStable(all, func(i, j int) bool {
		ci, cj := all[i].llm >= 0 || all[i].tocHit || all[i].vecHit, all[j].llm >= 0 || all[j].tocHit || all[j].vecHit
		if ci != cj {
			return ci
		}
		return all[i].score > all[j].score
	})
	return out, all, llmReason
}

// paperChoices renders the document-level signals for the diagnostics.
func paperChoices(all []*docChoice, llmReason string, limit int) []papertree.PaperChoice {
	var out []papertree.PaperChoice
	for _, c := range all {
		var by []string
		var why []string
		if c.llm >= 0 {
			by = append(by, "llm")
			r := fmt.Sprintf("LLM chose it from the ToC (#%d)", c.llm+1)
			if llmReason != "" {
				r += ": " + llmReason
			}
			why = append(why, r)
		}
		if c.tocHit {
			by = append(by, "toc")
		}
		if c.vecHit {
			by = append(by, "vector")
		}
		why = append(why, fmt.Sprintf("title/ToC match %.3f", c.toc))
		if c.vecHit {
			why = append(why, fmt.Sprintf("dense top-%d hit %.3f", fableKDoc, c.vec))
		}
		chosen := len(by) > 0
		if !chosen && len(out) >= limit {
			continue
		}
		out = append(out, papertree.PaperChoice{PaperID: c.t.d.Paper.ID, PaperTitle: c.t.d.Paper.Title, Chosen: chosen,
			By: strings.Join(by, "+"), Reason: strings.Join(why, "; "), Score: c.score})
	}
	return out
}

func (fable) Retrieve(ctx context.Context, ix Index, req Request) (Result, error) {
	if err := checkRequest(&req); err != nil {
		return Result{}, err
	}
	t0 := time.Now()
	timings := map[string]float64{}
	qv, err := ix.Embedder().EmbedQuery(ctx, req.Query)
	if err != nil {
		return Result{}, errf("embed query", err)
	}
	forest, err := loadForest(ctx, ix, req, qv)
	if err != nil {
		return Result{}, err
	}
	timings["forest"] = ms(time.Since(t0))
	t1 := time.Now()
	var fallbacks []string
	var sel *papertree.Selection
	docs := forest
	if len(req.PaperIDs) == 1 && len(forest) == 1 {
		// One paper in scope: there is nothing to select.
		sel = &papertree.Selection{Papers: []papertree.PaperChoice{{PaperID: forest[0].d.Paper.ID, PaperTitle: forest[0].d.Paper.Title, Chosen: true, By: "scope", Reason: "the only paper in scope"}}}
	} else {
		var all []*docChoice
		var reason string
		docs, all, reason = selectDocs(ctx, ix, req, qv, forest, &fallbacks)
		sel = &papertree.Selection{Papers: paperChoices(all, reason, len(docs)+3)}
	}
	timings["documents"] = ms(time.Since(t1))
	t2 := time.Now()
	var cs []cand
	total := 0
	for _, t := range docs {
		total += t.total
	}
	if total <= req.Budget && len(docs) > 0 {
		// Budget-adaptive routing: the chosen papers fit whole.
		sel.Branch = "docs"
		for _, t := range docs {
			for o, n := range t.d.Nodes {
				if n.IsLeaf() {
					cs = append(cs, leafCand(t, qv, o))
				}
			}
		}
	} else {
		sel.Branch = "nodes"
		cs = fableNodes(ctx, req, qv, docs, &fallbacks)
	}
	timings["nodes"] = ms(time.Since(t2))
	res := assemble(dropReferenceLeaves(req, cs), req.Budget)
	res.Diag.Selection = sel
	res.Diag.Timings = timings
	res.Diag.Fallbacks = dedupe(fallbacks)
	res.Diag.Timings["total"] = ms(time.Since(t0))
	return res, nil
}

// leafCand is leaf o of t as evidence; its score is PT-RAG's segment score
// (segment and summary similarity), comparable with the other strategies'.
func leafCand(t *fTree, qv []float32, o int) cand {
	n := t.d.Nodes[o]
	s := dot(qv, t.d.Seg[o])
	if t.d.Sum[o] != nil {
		s = 0.5*s + 0.5*dot(qv, t.d.Sum[o])
	}
	return cand{d: t.d, o: o, S: s, rel: s, cost: max(n.Tokens, 1), text: n.Text, score: s}
}

// fableNodes is Algorithm 1's node level: LLM navigation and TreeExpansion,
// NodeFusion, then budget control.
func fableNodes(ctx context.Context, req Request, qv []float32, docs []*fTree, fallbacks *[]string) []cand {
	h := multiDocLLM(ctx)
	type key struct {
		t *fTree
		o int
	}
	llmSel := map[key]bool{}
	llmDoc := map[*fTree]int{}
	if h.Navigate != nil && len(docs) > 0 {
		toc := make([]DocToC, len(docs))
		byNode := map[int64]key{}
		for i, t := range docs {
			toc[i] = t.docToC(0)
			for o, n := range t.d.Nodes {
				if !n.IsLeaf() {
					byNode[n.ID] = key{t, o}
				}
			}
		}
		ids, err := h.Navigate(ctx, req.Query, toc)
		if err != nil {
			*fallbacks = append(*fallbacks, "fable node navigation: TreeExpansion only ("+papertree.ErrorMessage(err)+")")
		}
		for _, id := range ids {
			if k, ok := byNode[id]; ok && !llmSel[k] {
				llmSel[k] = true
				if _, seen := llmDoc[k.t]; !seen {
					llmDoc[k.t] = len(llmDoc)
				}
			}
		}
	} else {
		*fallbacks = append(*fallbacks, "fable node navigation: TreeExpansion only (no LLM)")
	}
	// TreeExpansion (Eq. 7) over all chosen trees. A node's cost is the
	// text it would bring: its subtree's leaves, without reference-list
	// entries when the question is not about citations (they are never
	// cited, so they must not take budget either).
	type scored struct {
		t *fTree
		o int
		S float64
	}
	cost := map[*fTree][]int{}
	var pool []scored
	for _, t := range docs {
		c := usableTokens(req, t)
		cost[t] = c
		S := treeScores(t, qv)
		for o := range t.d.Nodes {
			if c[o] > 0 {
				pool = append(pool, scored{t, o, S[o]})
			}
		}
	}
	sort.SliceStable(pool, func(i, j int) bool {
		a, b := pool[i], pool[j]
		if a.S != b.S {
			return a.S > b.S
		}
		if a.t.depth[a.o] != b.t.depth[b.o] {
			return a.t.depth[a.o] < b.t.depth[b.o]
		}
		return a.o < b.o
	})
	// Greedy selection "until budget B_max is exhausted": nodes are taken
	// in score order while they fit, ancestors absorbing their selected
	// descendants. Within a paper, the first node that no longer fits ends
	// that paper's selection, as Eq. 8 keeps the longest fitting prefix:
	// a better node is never dropped for a worse one that happens to be
	// smaller (filling the rest of the budget that way took formula stubs
	// and captions from the bottom of the ranking). Other papers go on:
	// NodeFusion (Algorithm 2) orders and keeps evidence per paper. A node
	// larger than B_max alone can never be taken at this budget and is
	// passed over; its descendants are candidates in their own right.
	selected := map[key]bool{}
	full := map[*fTree]bool{}
	left := req.Budget
	for _, p := range pool {
		if left <= 0 {
			break
		}
		if cost[p.t][p.o] > req.Budget || full[p.t] {
			continue
		}
		k := key{p.t, p.o}
		anc := false
		for a := p.t.d.Parent[p.o]; a >= 0; a = p.t.d.Parent[a] {
			if selected[key{p.t, a}] {
				anc = true
				break
			}
		}
		if anc {
			continue
		}
		desc := 0
		var descs []key
		for s := range selected {
			if s.t == p.t && isAncestor(p.t.d, p.o, s.o) {
				desc += cost[s.t][s.o]
				descs = append(descs, s)
			}
		}
		c := cost[p.t][p.o] - desc
		if c > left {
			full[p.t] = true
			continue
		}
		for _, s := range descs {
			delete(selected, s)
		}
		selected[k] = true
		left -= c
	}
	// NodeFusion (Algorithm 2).
	union := map[key]bool{}
	for k := range llmSel {
		union[k] = true
	}
	for k := range selected {
		union[k] = true
	}
	for k := range union {
		for a := k.t.d.Parent[k.o]; a >= 0; a = k.t.d.Parent[a] {
			if union[key{k.t, a}] {
				delete(union, k)
				break
			}
		}
	}
	var order []*fTree
	seen := map[*fTree]bool{}
	for _, t := range docs { // LLM papers first, in the LLM's order
		if _, ok := llmDoc[t]; ok {
			order = append(order, t)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return llmDoc[order[i]] < llmDoc[order[j]] })
	for _, t := range order {
		seen[t] = true
	}
	for _, t := range docs {
		if !seen[t] {
			order = append(order, t)
		}
	}
	var chunks []cand
	for _, t := range order {
		for o, n := range t.d.Nodes { // document order
			if !n.IsLeaf() || cost[t][o] == 0 {
				continue
			}
			for x := o; x >= 0; x = t.d.Parent[x] {
				if union[key{t, x}] {
					chunks = append(chunks, leafCand(t, qv, o))
					break
				}
			}
		}
	}
	// Budget control (Eq. 8): the longest prefix that fits.
	var out []cand
	used := 0
	for _, c := range chunks {
		if used+c.cost <= req.Budget {
			out = append(out, c)
			used += c.cost
			continue
		}
		if rest := req.Budget - used; rest >= 16 {
			c = c.trimmedTo(rest, req.Q())
			if c.cost > 0 && c.cost <= rest {
				out = append(out, c)
			}
		}
		break
	}
	return out
}

// treeScores computes Eq. 7 for every node of t: S_sim = cos/depth,
// S_inh = max over proper ancestors of S_sim, S_child = mean S of the
// children, and S = the mean of the signals the node has. The paper weighs
// its three signals 1/3 each; a leaf has no children and the root no
// ancestors, and counting the missing signal as 0 (the spec's literal
// reading, 2.4 [I]) would scale every leaf's score by 2/3 against a
// section's, so that any small section outranked the best paragraph (QASPER
// tune, budget 512: 502 of 725 questions got a whole section, 318 of them
// without any gold evidence in it). Averaging the defined signals keeps S a
// mean of comparable quantities for every node type.
func treeScores(t *fTree, qv []float32) []float64 {
	n := len(t.d.Nodes)
	sim := make([]float64, n)
	inh := make([]float64, n)
	S := make([]float64, n)
	for o := 0; o < n; o++ {
		sim[o] = dot(qv, t.vec[o]) / float64(t.depth[o])
		if p := t.d.Parent[o]; p >= 0 {
			inh[o] = sim[p]
			if t.d.Parent[p] >= 0 {
				inh[o] = math.Max(inh[p], sim[p])
			}
		}
	}
	for o := n - 1; o >= 0; o-- { // children come after parents in pre-order
		sum, terms := sim[o], 1.0
		if t.d.Parent[o] >= 0 {
			sum, terms = sum+inh[o], terms+1
		}
		if k := t.kids[o]; len(k) > 0 {
			child := 0.0
			for _, c := range k {
				child += S[c]
			}
			sum, terms = sum+child/float64(len(k)), terms+1
		}
		S[o] = sum / terms
	}
	return S
}

// usableTokens is the token cost of every node of t as evidence: its
// subtree's leaves, leaving out reference-list and acknowledgement entries
// unless the question asks about citations (dropReferenceLeaves).
func usableTokens(req Request, t *fTree) []int {
	var refs []bool
	if !req.Q().Citations {
		refs = extraOf(t.d).refs
	}
	c := make([]int, len(t.d.Nodes))
	for o := len(t.d.Nodes) - 1; o >= 0; o-- {
		if t.d.Nodes[o].IsLeaf() && (o >= len(refs) || !refs[o]) {
			c[o] = t.tokens[o]
		}
		if p := t.d.Parent[o]; p >= 0 {
			c[p] += c[o]
		}
	}
	return c
}

// contentTerms returns the query's lower-cased words of 4+ letters that are
// not question scaffolding, cut to a 6-letter prefix (a crude stem).
func contentTerms(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	}) {
		if len(w) < 4 || stopWords[w] {
			continue
		}
		if len(w) > 6 {
			w = w[:6]
		}
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// termOverlap is the share of terms that occur (as prefixes of words) in text.
func termOverlap(terms []string, text string) float64 {
	if len(terms) == 0 {
		return 0
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	})
	hit := 0
	for _, t := range terms {
		for _, w := range words {
			if strings.HasPrefix(w, t) {
				hit++
				break
			}
		}
	}
	return float64(hit) / float64(len(terms))
}

var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`what which when where does that this these those with from have were they their them
	there been being about into than then also each such many much more most other some only used uses using
	paper papers work works method methods approach show shows shown report reports reported propose proposed
	library question answer find describe explain give list compare compared comparison between across both
	does doing done make made would could should will shall your ours ourselves whose whom how why who
	any all per over under same different`) {
		stopWords[w] = true
	}
}
