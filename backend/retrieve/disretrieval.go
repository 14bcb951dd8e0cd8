package retrieve

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve/discourse"
)

// disretrieval is DISRetrieval ("Beyond Chunking: Discourse-Aware
// Hierarchical Retrieval for Long Document QA", ../shared/specs/discourse.md):
// every paper gets a DiscourseTree (package discourse: sentence leaves,
// paragraph trees condensed bottom-up, a document-level tree over paragraph
// units, integrated, every node embedded), built once per paper and stored
// (migration 0003). A question scores every node by cosine similarity (Eq. 6)
// and Algorithm 1's dual selection walks the ranking: a leaf adds its
// sentence, an internal node adds the top-k (k = 5) not yet used sentences of
// its subtree, until the token budget is spent. Only original sentences are
// ever evidence; node texts (summaries or extractive condensations) serve
// only for matching. Sentences are cited inside their segment (Evidence.Span)
// and contiguous sentences of one segment become one evidence item.
//
// Departures, all measured or forced (README): the budget is in tokens, not
// words, and is never exceeded (the paper cuts the last sentence mid-way; we
// skip a sentence that does not fit and keep filling with later ones); the
// evidence is emitted in document order per paper like every strategy here
// (the paper keeps the order of the triggering nodes, and sorts only inside
// a group); the discourse parser is the offline one of package discourse,
// not the paper's trained XLNet parser; the document-level tree respects
// section boundaries by default (--disc-no-sections gives the paper's
// setting).
type disretrieval struct{}

func (disretrieval) Name() string { return "disretrieval" }
func (disretrieval) Description() string {
	return "DISRetrieval: a discourse tree over each paper's sentences and paragraphs; the best-matching tree nodes pull in their most relevant original sentences, within the token budget."
}

func init() { Register(disretrieval{}) }

// DiscParams are disretrieval's settings (zero values = defaults).
type DiscParams struct {
	LeafTopK int  `json:"leaf_top_k,omitempty" desc:"disretrieval: sentences a matching discourse-tree node may add (0 = the paper's 5)."`
	LeafOnly bool `json:"leaf_only,omitempty" desc:"disretrieval ablation: rank single sentences only (flatten-sentence)."`
	// Tree options (changing them rebuilds the stored trees).
	Tree discourse.Options `json:"tree"` // changing these rebuilds the stored trees
}

func (p DiscParams) leafTopK() int {
	if p.LeafTopK <= 0 {
		return 5
	}
	return p.LeafTopK
}

// DiscParamDocs describe DiscParams for help texts.
var DiscParamDocs = map[string]string{
	"leaf_top_k": "disretrieval: sentences an internal discourse node may add (paper: 5).",
	"leaf_only":  "disretrieval ablation: rank sentences only (no internal nodes).",
}

// StructureStore is implemented by indexes that persist index-time
// structures (StoreIndex does, over migration 0003). Without it, structures
// are built per process and kept in memory.
type StructureStore interface {
	LoadStructure(ctx context.Context, paperID int64, kind string) (key string, data []byte, ok bool, err error)
	SaveStructure(ctx context.Context, paperID int64, kind, key string, data []byte, build time.Duration) error
}

// LoadStructure implements StructureStore.
func (ix *StoreIndex) LoadStructure(ctx context.Context, paperID int64, kind string) (string, []byte, bool, error) {
	return ix.st.LoadStructure(ctx, paperID, kind)
}

// SaveStructure implements StructureStore.
func (ix *StoreIndex) SaveStructure(ctx context.Context, paperID int64, kind, key string, data []byte, build time.Duration) error {
	return ix.st.SaveStructure(ctx, paperID, kind, key, data, build)
}

// DiscourseKind is the structures row kind of discourse trees.
const DiscourseKind = "discourse"

// discTree is a loaded discourse tree with what retrieval needs.
type discTree struct {
	t     *discourse.DiscourseTree
	paras []int // paragraph index -> leaf order in PaperData
	llm   bool  // node texts came from an LLM
}

// discKey identifies a cached tree: the index it came from (two libraries
// in one process may both have a paper 1), the paper and the settings.
type discKey struct {
	ix   Index
	id   int64
	base string
}

var (
	discMu    sync.Mutex
	discCache = map[discKey]*discTree{}
)

const discCacheLimit = 512

// DiscourseKey is the settings key of a paper's discourse tree: paper (hash,
// or id when there is none), builder version and options, embedder, and what
// condensed the nodes ("extractive" or "llm:<model>").
func DiscourseKey(d *PaperData, o discourse.Options, embedder, summarizer string) string {
	return discourseBase(d, o, embedder) + "|" + summarizer
}

func discourseBase(d *PaperData, o discourse.Options, embedder string) string {
	h := d.Paper.Hash
	if h == "" {
		h = "id" + itoa64(d.Paper.ID) + "/" + itoa64(int64(len(d.Nodes)))
	}
	return h + "|" + o.Key() + "|" + embedder
}

// discourseParagraphs lists the paragraphs a discourse tree covers: every
// leaf in document order except those of the references and
// acknowledgements (running text only, as in the paper).
func discourseParagraphs(d *PaperData) ([]discourse.Paragraph, []int) {
	var paras []discourse.Paragraph
	var orders []int
	for o, n := range d.Nodes {
		if !n.IsLeaf() || strings.TrimSpace(n.Text) == "" {
			continue
		}
		skip := false
		for a := d.Parent[o]; a >= 0; a = d.Parent[a] {
			if r := d.Nodes[a].Role; r == papertree.RoleReferences || r == papertree.RoleAcks {
				skip = true
			}
		}
		if skip {
			continue
		}
		paras = append(paras, discourse.Paragraph{Ref: o, Section: d.Parent[o], Text: n.Text})
		orders = append(orders, o)
	}
	return paras, orders
}

// discourseTree returns d's tree: from the memory cache, else from the
// store when its key matches (an LLM-condensed tree of the same base is
// preferred and kept), else built offline now and stored (the lazy build of
// papers indexed before this strategy existed).
func discourseTree(ctx context.Context, ix Index, d *PaperData, p DiscParams) (*discTree, error) {
	emb := ix.Embedder()
	base := discourseBase(d, p.Tree, emb.Name())
	ck := discKey{ix, d.Paper.ID, base}
	discMu.Lock()
	dt := discCache[ck]
	discMu.Unlock()
	if dt != nil {
		return dt, nil
	}
	paras, orders := discourseParagraphs(d)
	texts := make([]string, len(paras))
	for i, pa := range paras {
		texts[i] = pa.Text
	}
	ss, _ := ix.(StructureStore)
	if ss != nil {
		if key, data, ok, err := ss.LoadStructure(ctx, d.Paper.ID, DiscourseKind); err == nil && ok && strings.HasPrefix(key, base+"|") {
			if t, err := discourse.Decode(data, texts); err == nil {
				dt = &discTree{t: t, paras: orders, llm: !strings.HasSuffix(key, "|extractive")}
			}
		}
	}
	if dt == nil {
		t0 := time.Now()
		t, err := discourse.Build(ctx, paras, emb, nil, p.Tree)
		if err != nil {
			return nil, errf("build discourse tree", err)
		}
		// Questions always see the stored (quantised) form, so a restart
		// gives the same evidence as the first question did.
		if data, err := discourse.Encode(t); err == nil {
			if q, err := discourse.Decode(data, texts); err == nil {
				t = q
			}
			if ss != nil {
				// A failed save only costs a rebuild next time.
				_ = ss.SaveStructure(ctx, d.Paper.ID, DiscourseKind, base+"|extractive", data, time.Since(t0))
			}
		}
		dt = &discTree{t: t, paras: orders}
	}
	discMu.Lock()
	if len(discCache) >= discCacheLimit {
		clear(discCache)
	}
	discCache[ck] = dt
	discMu.Unlock()
	return dt, nil
}

// BuildDiscourse builds and stores paper id's discourse tree with sum as
// DISRetrieval's f_LLM (nil = extractive; summarizer names it, e.g.
// "llm:qwen2.5"). It is what the library's background job runs; it returns
// the tree's LLM summary and fallback counts.
func BuildDiscourse(ctx context.Context, ix Index, id int64, p DiscParams, sum discourse.Summarizer, summarizer string) (summaries, fallbacks int, err error) {
	d, err := ix.Paper(ctx, id)
	if err != nil {
		return 0, 0, err
	}
	paras, orders := discourseParagraphs(d)
	t0 := time.Now()
	t, err := discourse.Build(ctx, paras, ix.Embedder(), sum, p.Tree)
	if err != nil {
		return 0, 0, err
	}
	if sum == nil || t.Summaries == 0 {
		summarizer = "extractive"
	}
	base := discourseBase(d, p.Tree, ix.Embedder().Name())
	data, err := discourse.Encode(t)
	if err != nil {
		return 0, 0, err
	}
	texts := make([]string, len(paras))
	for i, pa := range paras {
		texts[i] = pa.Text
	}
	if q, err := discourse.Decode(data, texts); err == nil {
		t = q // the stored form, as later questions will load it
	}
	if ss, ok := ix.(StructureStore); ok {
		// A tree with fallbacks is stored as extractive-keyed only when
		// nothing was summarised; partial trees keep the LLM key (their
		// fallback nodes are extractive, which retrieval handles alike).
		if err := ss.SaveStructure(ctx, id, DiscourseKind, base+"|"+summarizer, data, time.Since(t0)); err != nil {
			return 0, 0, err
		}
	}
	discMu.Lock()
	discCache[discKey{ix, id, base}] = &discTree{t: t, paras: orders, llm: summarizer != "extractive"}
	discMu.Unlock()
	return t.Summaries, t.Fallbacks, nil
}

// discHit is one ranked node.
type discHit struct {
	dt    *discTree
	d     *PaperData
	node  int
	score float64
}

// discSent is one selected sentence.
type discSent struct {
	dt    *discTree
	d     *PaperData
	sent  int
	score float64
}

func (disretrieval) Retrieve(ctx context.Context, ix Index, req Request) (Result, error) {
	if err := checkRequest(&req); err != nil {
		return Result{}, err
	}
	t0 := time.Now()
	timings := map[string]float64{}
	qv, err := ix.Embedder().EmbedQuery(ctx, req.Query)
	if err != nil {
		return Result{}, errf("embed query", err)
	}
	ids, err := scopePapers(ctx, ix, req, qv)
	if err != nil {
		return Result{}, err
	}
	timings["scope"] = ms(time.Since(t0))
	t1 := time.Now()
	p := req.Params.Disc
	var hits []discHit
	leafScore := map[*discTree][]float64{}
	extractive := 0
	var partial []string
	for _, id := range ids {
		d, err := ix.Paper(ctx, id)
		if err != nil {
			return Result{}, errf("load paper", err)
		}
		dt, err := discourseTree(ctx, ix, d, p)
		if err != nil {
			return Result{}, err
		}
		if !dt.llm {
			extractive++
		} else if dt.t.Fallbacks > 0 {
			partial = append(partial, fmt.Sprintf("disretrieval node summaries: %d of %d in %q fell back to extractive condensation when the tree was built",
				dt.t.Fallbacks, dt.t.Fallbacks+dt.t.Summaries, d.Paper.Title))
		}
		t := dt.t
		ls := make([]float64, len(t.Sentences))
		for i := range t.Nodes {
			s := dot(qv, t.Vecs[i])
			if t.Nodes[i].Leaf >= 0 {
				ls[t.Nodes[i].Leaf] = s
			} else if p.LeafOnly {
				continue
			}
			hits = append(hits, discHit{dt: dt, d: d, node: i, score: s})
		}
		leafScore[dt] = ls
	}
	timings["trees"] = ms(time.Since(t1))
	// Eq. 6 ranking; ties by paper, then document position, then the
	// smaller node (deterministic). The walk below rarely goes past the
	// first few hundred nodes, so only the best rankHead are sorted first
	// (a long paper has tens of thousands of nodes); the rest is sorted
	// only if the walk gets there.
	less := func(x, y discHit) int {
		switch {
		case x.score != y.score:
			if x.score > y.score {
				return -1
			}
			return 1
		case x.d.Paper.ID != y.d.Paper.ID:
			return cmpInt64(x.d.Paper.ID, y.d.Paper.ID)
		}
		nx, ny := x.dt.t.Nodes[x.node], y.dt.t.Nodes[y.node]
		if nx.Lo != ny.Lo {
			return nx.Lo - ny.Lo
		}
		return nx.Height - ny.Height
	}
	head, tail := rankHeadSort(hits, less)
	// Algorithm 1, dual selection under the token budget.
	k := p.leafTopK()
	used := map[*discTree]map[int]bool{}
	var sel []discSent
	spent := 0
	// visit handles one ranked node; it returns true when the walk is over.
	visit := func(h discHit) bool {
		if req.Budget-spent < minSentenceTokens || h.score <= 0 {
			return true // budget spent, or no signal at all: never evidence
		}
		t := h.dt.t
		u := used[h.dt]
		if u == nil {
			u = map[int]bool{}
			used[h.dt] = u
		}
		n := t.Nodes[h.node]
		var group []int
		if n.Leaf >= 0 {
			if !u[n.Leaf] {
				group = []int{n.Leaf}
			}
		} else {
			group = topUnused(leafScore[h.dt], u, n.Lo, n.Hi, k)
			sort.Ints(group) // "Top-K with original order"
		}
		for _, s := range group {
			tok := t.Sentences[s].Tokens
			if spent+tok > req.Budget {
				continue // only whole sentences; a later, shorter one may fit
			}
			u[s] = true
			spent += tok
			sel = append(sel, discSent{dt: h.dt, d: h.d, sent: s, score: leafScore[h.dt][s]})
		}
		return false
	}
	done := false
	for _, h := range head {
		if done = visit(h); done {
			break
		}
	}
	if !done && len(tail) > 0 {
		sortTail(tail, less)
		for _, h := range tail {
			if visit(h) {
				break
			}
		}
		head = append(head, tail...)
	}
	cs := discCands(sel, req.Budget, head)
	plain := make([]cand, len(cs))
	for i, c := range cs {
		plain[i] = c.cand
	}
	res := assemble(plain, req.Budget)
	for i := range res.Evidence {
		res.Evidence[i].Span = cs[i].span
	}
	res.Diag.Fallbacks = append(res.Diag.Fallbacks, partial...)
	if extractive > 0 && req.Route != nil {
		res.Diag.Fallbacks = append(res.Diag.Fallbacks, "disretrieval node summaries: extractive condensation (LLM summaries not built yet for "+itoa64(int64(extractive))+" paper(s))")
	}
	timings["select"] = ms(time.Since(t1))
	timings["total"] = ms(time.Since(t0))
	res.Diag.Timings = timings
	return res, nil
}

// rankHead is how many nodes are ranked before the walk starts.
const rankHead = 1024

// rankHeadSort splits hits into the best min(rankHead, len) in ranking
// order (head) and the rest, unsorted (tail; sortTail orders it when the
// walk needs it).
func rankHeadSort(hits []discHit, less func(x, y discHit) int) (head, tail []discHit) {
	if len(hits) <= rankHead {
		slices.SortStableFunc(hits, less)
		return hits, nil
	}
	scores := make([]float64, len(hits))
	for i, h := range hits {
		scores[i] = h.score
	}
	cut := nthLargest(scores, rankHead)
	head = make([]discHit, 0, rankHead+16)
	tail = make([]discHit, 0, len(hits)-rankHead)
	for _, h := range hits {
		if h.score >= cut {
			head = append(head, h)
		} else {
			tail = append(tail, h)
		}
	}
	slices.SortStableFunc(head, less)
	return head, tail
}

func sortTail(tail []discHit, less func(x, y discHit) int) { slices.SortStableFunc(tail, less) }

// topUnused returns the (at most) k sentences of [lo, hi) not in used with
// the highest scores (ties: earlier first), in no particular order. Linear
// in the span: an internal node near the root spans thousands of sentences.
func topUnused(score []float64, used map[int]bool, lo, hi, k int) []int {
	out := make([]int, 0, k)
	for s := lo; s < hi; s++ {
		if used[s] {
			continue
		}
		if len(out) < k {
			out = append(out, s)
			continue
		}
		worst := 0
		for i := 1; i < len(out); i++ {
			if score[out[i]] < score[out[worst]] || score[out[i]] == score[out[worst]] && out[i] > out[worst] {
				worst = i
			}
		}
		if score[s] > score[out[worst]] {
			out[worst] = s
		}
	}
	return out
}

// nthLargest returns the n-th largest value of xs (1-based; xs is reordered).
func nthLargest(xs []float64, n int) float64 {
	k := n - 1
	lo, hi := 0, len(xs)-1
	for lo < hi {
		p := xs[(lo+hi)/2]
		i, j := lo, hi
		for i <= j {
			for xs[i] > p {
				i++
			}
			for xs[j] < p {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return xs[k]
		}
	}
	return xs[k]
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// minSentenceTokens: below this much budget left no sentence fits usefully.
const minSentenceTokens = 6

// spanCand is a candidate with the span of its node text it cites.
type spanCand struct {
	cand
	span *papertree.TextSpan
}

// discCands turns selected sentences into evidence candidates: contiguous
// sentences of one segment become one item citing the exact substring.
// When nothing fits (every relevant sentence is longer than the budget),
// the best sentence is cut to the budget at a word boundary, so an answer
// is still possible and the budget still holds.
func discCands(sel []discSent, budget int, hits []discHit) []spanCand {
	if len(sel) == 0 {
		for _, h := range hits {
			if h.score <= 0 {
				break
			}
			n := h.dt.t.Nodes[h.node]
			if n.Leaf < 0 {
				continue
			}
			s := h.dt.t.Sentences[n.Leaf]
			text := cutTokens(s.Text, budget)
			if text == "" {
				break
			}
			o := h.dt.paras[s.Para]
			return []spanCand{{cand: cand{d: h.d, o: o, S: h.score, rel: h.score, cost: papertree.CountTokens(text), text: text, score: h.score, trim: true},
				span: &papertree.TextSpan{Start: s.Start, End: s.Start + len(text)}}}
		}
		return nil
	}
	sort.SliceStable(sel, func(a, b int) bool {
		if sel[a].d.Paper.ID != sel[b].d.Paper.ID {
			return sel[a].d.Paper.ID < sel[b].d.Paper.ID
		}
		return sel[a].sent < sel[b].sent
	})
	var out []spanCand
	for i := 0; i < len(sel); {
		j := i + 1
		t := sel[i].dt.t
		for j < len(sel) && sel[j].dt == sel[i].dt && sel[j].sent == sel[j-1].sent+1 && t.Sentences[sel[j].sent].Para == t.Sentences[sel[i].sent].Para {
			j++
		}
		first, last := t.Sentences[sel[i].sent], t.Sentences[sel[j-1].sent]
		o := sel[i].dt.paras[first.Para]
		node := sel[i].d.Nodes[o]
		text := node.Text[first.Start:last.End]
		best, cost := 0.0, 0
		for _, s := range sel[i:j] {
			best = max(best, s.score)
			cost += t.Sentences[s.sent].Tokens
		}
		c := spanCand{cand: cand{d: sel[i].d, o: o, S: best, rel: best, cost: cost, text: text, score: best}}
		if first.Start != 0 || last.End != len(node.Text) {
			c.span = &papertree.TextSpan{Start: first.Start, End: last.End}
		}
		out = append(out, c)
		i = j
	}
	return out
}

// cutTokens keeps the longest word prefix of s within budget tokens
// (CountTokens is additive over whitespace-separated words).
func cutTokens(s string, budget int) string {
	if papertree.CountTokens(s) <= budget {
		return s
	}
	used, end := 0, 0
	for i := 0; i < len(s); {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' {
			j++
		}
		if j == i {
			break
		}
		w := papertree.CountTokens(s[i:j])
		if used+w > budget {
			break
		}
		used += w
		end = j
		i = j
	}
	return strings.TrimSpace(s[:end])
}

func itoa64(n int64) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}
