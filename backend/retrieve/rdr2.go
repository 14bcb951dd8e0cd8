package retrieve

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// rdr2 is RDR² (Retrieve-DocumentRoute-Read, "Equipping Retrieval-Augmented
// LLMs with Document Structure Awareness", ../shared/specs/rdr2.md) on a
// PaperTree: the tree is the Document Structure Tree (structure nodes = the
// root and the paper's headings; content nodes = segments and captions;
// references and acknowledgements are skipped like the wiki builder's skip
// list). The top-k retrieved leaves are anchors; for each anchor a fresh
// RetrievalSubtree shows every heading plus the content lit by Algorithm 1
// (LightNodes); a router answers with [ANSWER] (visible content that answers),
// [EXPAND] (a collapsed heading that may hold the answer) or "Cannot answer";
// expansions replace the visible content with the heading's own content and
// are routed again, FIFO, at most expand-iter times per paper. The union of
// [ANSWER] nodes, per paper in document order, is the routed evidence.
//
// Routers: with an LLM (Request.Route), the paper's router prompt (C.2) and
// its output format, parsed and validated exactly as the spec's
// post-processing (invalid ids are expelled, an output with nothing valid is
// "collapsed" and falls back to the offline router for that step, listed in
// the diagnostics). Offline (the default), a router of our design makes the
// same three decisions from the signals we have: the leaf score of pt-rag
// (segment + summary similarity + BM25) normalised within the paper for
// [ANSWER]; a heading score (its body and best passage, its title
// similarity, keywords, and a bonus when a sibling section already
// answered) for [EXPAND]; and "Cannot answer" when neither clears its
// threshold. Thresholds were calibrated on QASPER tune (README). The
// offline router writes its decisions in the router's own output format so
// both routers share one parser, one validation and one trace.
//
// Budget: the paper has no budget (the router's decisions govern length);
// we keep the routed nodes by relevance per token within the token budget,
// trimming the best one to its best sentences if it alone does not fit.
// When every route refuses, the top-k anchors are used (the paper's
// "w/o router"), and the diagnostics say so.
type rdr2 struct{}

func (rdr2) Name() string { return "rdr2" }
func (rdr2) Description() string {
	return "RDR²: starts from the best-matching passages and routes through the paper's headings like a reader, opening promising sections and keeping only passages judged to answer (LLM router when configured, else an offline router)."
}

func init() { Register(rdr2{}) }

// RDR2Params are rdr2's settings (zero values = defaults).
type RDR2Params struct {
	TopK       int     `json:"top_k,omitempty" desc:"rdr2: retrieved passages that start a route (0 = the paper's 5)."`
	ExpandIter int     `json:"expand_iter,omitempty" desc:"rdr2: most headings expanded per paper (0 = the paper's 5)."`
	NoExpand   bool    `json:"no_expand,omitempty" desc:"rdr2 ablation: never expand a heading (the paper's w/o [EXP])."`
	NoRefuse   bool    `json:"no_refuse,omitempty" desc:"rdr2 ablation: every route answers its best passage (the paper's w/o [REF])."`
	NoRouter   bool    `json:"no_router,omitempty" desc:"rdr2 ablation: no router, the retrieved passages as they are (the paper's w/o router)."`
	AnsThresh  float64 `json:"ans_threshold,omitempty" desc:"rdr2 offline router: normalised passage score an answer needs (0 = calibrated default 0.55)."`
	ExpThresh  float64 `json:"exp_threshold,omitempty" desc:"rdr2 offline router: normalised heading score an expansion needs (0 = calibrated default 0.7)."`
	// Offline router signal ablations.
	NoHeadings bool `json:"no_headings,omitempty" desc:"rdr2 offline router ablation: ignore heading-title similarity."`
	NoKeywords bool `json:"no_bm25,omitempty" desc:"rdr2 offline router ablation: ignore exact word matches (BM25)."`
	NoSibling  bool `json:"no_sibling,omitempty" desc:"rdr2 offline router ablation: no expansion bonus for a sibling section that answered."`
	NoSummary  bool `json:"no_summary,omitempty" desc:"rdr2 offline router ablation: ignore segment summaries."`
}

// Offline router defaults, calibrated on QASPER tune (README, rdr2 section).
const (
	rdr2TopK       = 5
	rdr2ExpandIter = 5
	rdr2AnsThresh  = 0.55 // normalised leaf score an [ANSWER] needs
	rdr2ExpThresh  = 0.7  // normalised heading score an [EXPAND] needs
	rdr2MaxAns     = 3    // answers per step
	rdr2MaxExp     = 2    // expansions per step
	rdr2Sibling    = 0.1  // expand bonus when a sibling section answered
	rdr2PrefixLen  = 3    // words of text_prefix in router output lines
)

func (p RDR2Params) withDefaults() RDR2Params {
	if p.TopK <= 0 {
		p.TopK = rdr2TopK
	}
	if p.ExpandIter <= 0 {
		p.ExpandIter = rdr2ExpandIter
	}
	if p.NoExpand {
		p.ExpandIter = 0
	}
	if p.AnsThresh == 0 {
		p.AnsThresh = rdr2AnsThresh
	}
	if p.ExpThresh == 0 {
		p.ExpThresh = rdr2ExpThresh
	}
	return p
}

// RDR2ParamDocs describe RDR2Params for help texts.
var RDR2ParamDocs = map[string]string{
	"top_k":         "rdr2: retrieved passages that start a route (paper: 5).",
	"expand_iter":   "rdr2: most headings expanded per paper (paper: 5).",
	"ans_threshold": "rdr2 offline router: normalised passage score an answer needs.",
	"exp_threshold": "rdr2 offline router: normalised heading score an expansion needs.",
}

// dst is a PaperTree seen as RDR²'s Document Structure Tree.
type dst struct {
	d        *PaperData
	children [][]int
	skip     []bool // in a skipped section (references, acknowledgements)
	depth    []int
}

func newDST(d *PaperData) *dst {
	n := len(d.Nodes)
	t := &dst{d: d, children: make([][]int, n), skip: make([]bool, n), depth: make([]int, n)}
	for o := 1; o < n; o++ {
		p := d.Parent[o]
		t.children[p] = append(t.children[p], o)
		t.depth[o] = t.depth[p] + 1
		r := d.Nodes[o].Role
		t.skip[o] = t.skip[p] || (!d.Nodes[o].IsLeaf() && (r == papertree.RoleReferences || r == papertree.RoleAcks))
	}
	return t
}

func (t *dst) content(o int) bool { return t.d.Nodes[o].IsLeaf() }

// RetrievalSubtree is RDR²'s view of a DST: every structure node (heading)
// is visible; content nodes are visible only when lit.
type RetrievalSubtree struct {
	t   *dst
	lit []bool
}

func (t *dst) subtree() *RetrievalSubtree {
	return &RetrievalSubtree{t: t, lit: make([]bool, len(t.d.Nodes))}
}

// LightNodes is Algorithm 1: for each node, light its content siblings, its
// content ancestors up to the first structure ancestor, and every content
// descendant of those siblings.
func (s *RetrievalSubtree) LightNodes(nodes []int) {
	t := s.t
	for _, n := range nodes {
		sibs := []int{n}
		if p := t.d.Parent[n]; p >= 0 {
			sibs = t.children[p]
		}
		for _, x := range sibs {
			if t.content(x) && !t.skip[x] {
				s.lit[x] = true
			}
		}
		for cur := t.d.Parent[n]; cur >= 0; cur = t.d.Parent[cur] {
			if !t.content(cur) {
				break
			}
			s.lit[cur] = true
		}
		for _, x := range sibs {
			if t.content(x) {
				s.lightDescendants(x)
			}
		}
	}
}

func (s *RetrievalSubtree) lightDescendants(n int) {
	for _, c := range s.t.children[n] {
		if s.t.content(c) && !s.t.skip[c] {
			s.lit[c] = true
		}
		s.lightDescendants(c)
	}
}

// Visible reports whether node o is shown.
func (s *RetrievalSubtree) Visible(o int) bool {
	if o < 0 || o >= len(s.lit) || s.t.skip[o] {
		return false
	}
	return !s.t.content(o) || s.lit[o]
}

// Collapsed reports whether structure node o has no visible content
// descendant.
func (s *RetrievalSubtree) Collapsed(o int) bool {
	for _, c := range s.t.children[o] {
		if (s.t.content(c) && s.lit[c]) || s.lit[c] {
			return false
		}
		if !s.Collapsed(c) {
			return false
		}
	}
	return true
}

// Lit returns the lit content nodes in document order.
func (s *RetrievalSubtree) Lit() []int {
	var out []int
	for o, l := range s.lit {
		if l {
			out = append(out, o)
		}
	}
	return out
}

func (s *RetrievalSubtree) key() string {
	var b strings.Builder
	for _, o := range s.Lit() {
		b.WriteString(strconv.Itoa(o))
		b.WriteByte(',')
	}
	return b.String()
}

// Serialize renders the subtree for the router: one visible node per line
// in document order, "id: text", one tab per depth; headings print their
// title, lit content its full text.
func (s *RetrievalSubtree) Serialize() string {
	var b strings.Builder
	for o, n := range s.t.d.Nodes {
		if !s.Visible(o) {
			continue
		}
		text := n.Title
		if s.t.content(o) {
			text = n.Text
		}
		b.WriteString(strings.Repeat("\t", s.t.depth[o]))
		fmt.Fprintf(&b, "%d: %s\n", o, oneLine(text))
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// RouteActions is one router output after post-processing.
type RouteActions struct {
	Answer    []int `json:"answer,omitempty"`
	Expand    []int `json:"expand,omitempty"`
	Expelled  []int `json:"expelled,omitempty"` // ids of actions that failed validation
	Malformed int   `json:"malformed,omitempty"`
	Refused   bool  `json:"refused,omitempty"`
	Collapsed bool  `json:"collapsed,omitempty"` // not a refusal and nothing usable
}

var (
	actionRE  = regexp.MustCompile(`(?i)\[\s*(answer|ans|expand|exp|refuse|ref)\s*\]\s*((?:-?\d+\s*(?::[^\n\[]*)?[,;]?\s*)*)`)
	idRE      = regexp.MustCompile(`-?\d+`)
	refusalRE = regexp.MustCompile(`(?i)cannot\s+answer`)
)

// parseRoute parses a router output against the subtree it was given and
// applies the spec's validation: [ANSWER] ids must be visible content nodes,
// [EXPAND] ids visible collapsed headings; everything else is expelled. A
// response containing "Cannot answer" (or a lone [REFUSE]) is a refusal
// with no actions.
func parseRoute(raw string, s *RetrievalSubtree) RouteActions {
	var a RouteActions
	raw = stripThinkBlock(raw)
	if refusalRE.MatchString(raw) {
		a.Refused = true
		return a
	}
	seen := map[int]bool{}
	matched := false
	for _, m := range actionRE.FindAllStringSubmatch(raw, -1) {
		tag := strings.ToLower(m[1])
		if tag == "refuse" || tag == "ref" {
			matched = true
			continue
		}
		// Ids: the number before each ':' prefix, or every number of a
		// comma list ("[ANSWER] 41, 44").
		for _, part := range strings.FieldsFunc(m[2], func(r rune) bool { return r == ',' || r == ';' || r == '\n' }) {
			num := idRE.FindString(strings.SplitN(part, ":", 2)[0])
			if num == "" {
				continue
			}
			matched = true
			id, err := strconv.Atoi(num)
			if err != nil || seen[id] {
				continue
			}
			seen[id] = true
			switch {
			case (tag == "answer" || tag == "ans") && s.Visible(id) && s.t.content(id):
				a.Answer = append(a.Answer, id)
			case (tag == "expand" || tag == "exp") && s.Visible(id) && !s.t.content(id) && s.Collapsed(id):
				a.Expand = append(a.Expand, id)
			default:
				a.Expelled = append(a.Expelled, id)
			}
		}
	}
	for _, line := range strings.Split(raw, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "[") && !actionRE.MatchString(l) {
			a.Malformed++
		}
	}
	if len(a.Answer) == 0 && len(a.Expand) == 0 && len(a.Expelled) == 0 {
		// A lone [REFUSE] (the paper's demo notation) is a refusal;
		// nothing usable at all is a collapsed output.
		a.Refused, a.Collapsed = matched, !matched
	}
	return a
}

// stripThinkBlock removes a reasoning model's <think>...</think> preamble.
func stripThinkBlock(s string) string {
	if i := strings.Index(s, "</think>"); i >= 0 && strings.Contains(s[:i], "<think>") {
		return s[i+len("</think>"):]
	}
	return s
}

// rdr2Paper holds one paper's routing state and signals.
type rdr2Paper struct {
	t       *dst
	S       []float64 // pt-rag leaf score per node (leaves only)
	z       []float64 // leaf score normalised within the paper: (S - median) / (max - median)
	h       []float64 // heading score normalised within the paper
	hasDir  []bool    // heading with direct content children
	answers map[int]bool
}

// RouteStep is one routed subtree, for the trace (Result.Route).
type RouteStep struct {
	PaperID int64        `json:"paper_id"`
	Lit     []int        `json:"lit"`
	Raw     string       `json:"raw"`
	Actions RouteActions `json:"actions"`
	Router  string       `json:"router"` // "llm" or "offline"
}

func (rdr2) Retrieve(ctx context.Context, ix Index, req Request) (Result, error) {
	if err := checkRequest(&req); err != nil {
		return Result{}, err
	}
	t0 := time.Now()
	timings := map[string]float64{}
	p := req.Params.RDR2.withDefaults()
	qv, err := ix.Embedder().EmbedQuery(ctx, req.Query)
	if err != nil {
		return Result{}, errf("embed query", err)
	}
	ids, err := scopePapers(ctx, ix, req, qv)
	if err != nil {
		return Result{}, err
	}
	text := map[int64]float64{}
	if !p.NoKeywords {
		text = textScores(ctx, ix, req.Query, ids)
	}
	timings["scope"] = ms(time.Since(t0))
	t1 := time.Now()
	// Retrieve: leaf scores per paper, top-k anchors across the scope.
	type anchor struct {
		rp *rdr2Paper
		o  int
		s  float64
	}
	var anchors []anchor
	var papers []*rdr2Paper
	for _, id := range ids {
		d, err := ix.Paper(ctx, id)
		if err != nil {
			return Result{}, errf("load paper", err)
		}
		rp := rdr2Signals(ctx, ix, d, req, p, qv, text)
		if rp == nil {
			continue
		}
		papers = append(papers, rp)
		for o, node := range d.Nodes {
			if node.IsLeaf() && !rp.t.skip[o] && rp.S[o] > 0 {
				anchors = append(anchors, anchor{rp, o, rp.S[o]})
			}
		}
	}
	sort.SliceStable(anchors, func(i, j int) bool { return anchors[i].s > anchors[j].s })
	if len(anchors) > p.TopK {
		anchors = anchors[:p.TopK]
	}
	timings["retrieve"] = ms(time.Since(t1))
	t2 := time.Now()
	var fallbacks []string
	var steps []RouteStep
	expelled, collapsed := 0, 0
	if !p.NoRouter {
		route := func(rp *rdr2Paper, s *RetrievalSubtree) RouteActions {
			step := RouteStep{PaperID: rp.t.d.Paper.ID, Lit: s.Lit(), Router: "offline"}
			var a RouteActions
			llmOK := false
			if req.Route != nil {
				raw, err := req.Route(ctx, req.Query, s.Serialize())
				switch {
				case err != nil:
					fallbacks = append(fallbacks, "rdr2 router: offline router (the LLM router failed: "+papertree.ErrorMessage(err)+")")
				default:
					a = parseRoute(raw, s)
					expelled += len(a.Expelled)
					if a.Collapsed {
						collapsed++
						fallbacks = append(fallbacks, "rdr2 router: offline router for a step whose LLM output had no valid action")
					} else {
						llmOK, step.Raw, step.Router = true, raw, "llm"
					}
				}
			}
			if !llmOK {
				raw := rp.offlineRoute(s, p)
				a = parseRoute(raw, s)
				step.Raw = raw
			}
			if p.NoRefuse && len(a.Answer) == 0 && len(a.Expand) == 0 {
				// "w/o [REF]": the best visible passage is answered.
				best, bz := -1, 0.0
				for _, o := range s.Lit() {
					if best < 0 || rp.z[o] > bz {
						best, bz = o, rp.z[o]
					}
				}
				if best >= 0 {
					a.Answer, a.Refused = []int{best}, false
				}
			}
			step.Actions = a
			steps = append(steps, step)
			return a
		}
		// One trajectory set per paper, anchors in retrieval-rank order.
		byPaper := map[*rdr2Paper][]int{}
		var order []*rdr2Paper
		for _, a := range anchors {
			if byPaper[a.rp] == nil {
				order = append(order, a.rp)
			}
			byPaper[a.rp] = append(byPaper[a.rp], a.o)
		}
		for _, rp := range order {
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
			rp.routeDocument(byPaper[rp], p, route)
		}
	}
	var cands []cand
	for _, rp := range papers {
		base := 0.0
		for o := range rp.answers {
			node := rp.t.d.Nodes[o]
			cands = append(cands, cand{d: rp.t.d, o: o, S: rp.S[o], rel: rp.S[o] - base + 1e-6, cost: max(node.Tokens, 1), text: node.Text, score: rp.S[o]})
		}
	}
	if len(cands) == 0 {
		if len(steps) > 0 {
			fallbacks = append(fallbacks, "rdr2: every route refused; the top retrieved passages are used (the paper's \"w/o router\")")
		}
		for _, a := range anchors {
			node := a.rp.t.d.Nodes[a.o]
			cands = append(cands, cand{d: a.rp.t.d, o: a.o, S: a.s, rel: a.s, cost: max(node.Tokens, 1), text: node.Text, score: a.s})
		}
	}
	sel := selectBudgetTrim(cands, req.Budget, req.Q())
	timings["route"] = ms(time.Since(t2))
	res := assemble(sel, req.Budget)
	if expelled > 0 {
		fallbacks = append(fallbacks, fmt.Sprintf("rdr2 router: %d action(s) named ids that were not valid in their subtree and were dropped", expelled))
	}
	res.Diag.Fallbacks = dedupe(fallbacks)
	res.Route = steps
	timings["total"] = ms(time.Since(t0))
	res.Diag.Timings = timings
	return res, nil
}

// rdr2Signals computes one paper's offline router signals.
func rdr2Signals(ctx context.Context, ix Index, d *PaperData, req Request, p RDR2Params, qv []float32, text map[int64]float64) *rdr2Paper {
	n := len(d.Nodes)
	if n == 0 {
		return nil
	}
	prm := req.Params
	rp := &rdr2Paper{t: newDST(d), S: make([]float64, n), z: make([]float64, n), h: make([]float64, n), hasDir: make([]bool, n), answers: map[int]bool{}}
	var leaves []int
	for o, node := range d.Nodes {
		if !node.IsLeaf() || rp.t.skip[o] {
			continue
		}
		sSeg := dot(qv, d.Seg[o])
		sSum := sSeg
		if !p.NoSummary && !prm.NoSummaries && d.Sum[o] != nil {
			sSum = dot(qv, d.Sum[o])
		}
		rp.S[o] = prm.SegmentWeight*sSeg + (1-prm.SegmentWeight)*sSum + prm.TextWeight*text[node.ID]
		leaves = append(leaves, o)
		rp.hasDir[d.Parent[o]] = true
	}
	if len(leaves) == 0 {
		return rp
	}
	med, top := median(rp.S, leaves), maxOf(rp.S, leaves)
	for _, o := range leaves {
		if top > med {
			rp.z[o] = (rp.S[o] - med) / (top - med)
		}
	}
	// Heading scores: body similarity blended with its best direct passage,
	// plus title similarity and keywords (pt-rag's stage-1 signals), for
	// headings that hold content of their own.
	var tv [][]float32
	if !p.NoHeadings && prm.TitleWeight > 0 {
		tv, _ = d.titleVectors(ctx, ix.Embedder())
	}
	var heads []int
	raw := make([]float64, n)
	si := 0
	for o, node := range d.Nodes {
		if node.Kind != papertree.KindSection {
			continue
		}
		k := si
		si++
		if rp.t.skip[o] || !rp.hasDir[o] {
			continue
		}
		best, kw := 0.0, 0.0
		for _, c := range rp.t.children[o] {
			if d.Nodes[c].IsLeaf() {
				best = max(best, rp.S[c])
				kw = max(kw, text[d.Nodes[c].ID])
			}
		}
		e := best
		if d.Sec[o] != nil {
			e = prm.LeafWeight*best + (1-prm.LeafWeight)*dot(qv, d.Sec[o])
		}
		r := e + prm.TextWeight*kw
		if tv != nil && k < len(tv) {
			r += prm.TitleWeight * dot(qv, tv[k])
		}
		raw[o] = r
		heads = append(heads, o)
	}
	if len(heads) > 0 {
		hm, ht := median(raw, heads), maxOf(raw, heads)
		for _, o := range heads {
			if ht > hm {
				rp.h[o] = (raw[o] - hm) / (ht - hm)
			}
		}
	}
	return rp
}

// offlineRoute makes the router's three decisions for one subtree and
// writes them in the router's output format.
func (rp *rdr2Paper) offlineRoute(s *RetrievalSubtree, p RDR2Params) string {
	t := rp.t
	lit := s.Lit()
	sort.SliceStable(lit, func(i, j int) bool { return rp.z[lit[i]] > rp.z[lit[j]] })
	var ans []int
	for _, o := range lit {
		if len(ans) == rdr2MaxAns || rp.z[o] < p.AnsThresh {
			break
		}
		ans = append(ans, o)
	}
	// Parents of visible content that answered now or earlier: their
	// sibling headings get the bonus ("expanded sibling sections under the
	// same parent contain answers").
	answered := map[int]bool{}
	for _, o := range ans {
		answered[t.d.Parent[o]] = true
	}
	for o := range rp.answers {
		answered[t.d.Parent[o]] = true
	}
	type hs struct {
		o int
		s float64
	}
	var cands []hs
	for o := range t.d.Nodes {
		if t.content(o) || o == 0 || !rp.hasDir[o] || !s.Visible(o) || !s.Collapsed(o) {
			continue
		}
		sc := rp.h[o]
		if !p.NoSibling {
			if par := t.d.Parent[o]; par >= 0 {
				for _, sib := range t.children[par] {
					if sib != o && answered[sib] {
						sc += rdr2Sibling
						break
					}
				}
			}
		}
		if sc >= p.ExpThresh {
			cands = append(cands, hs{o, sc})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].s > cands[j].s })
	if len(cands) > rdr2MaxExp {
		cands = cands[:rdr2MaxExp]
	}
	if len(ans) == 0 && len(cands) == 0 {
		return "Cannot answer"
	}
	var b strings.Builder
	for _, o := range ans {
		fmt.Fprintf(&b, "[ANSWER] %d: %s\n", o, prefixWords(t.d.Nodes[o].Text, rdr2PrefixLen))
	}
	for _, c := range cands {
		fmt.Fprintf(&b, "[EXPAND] %d: %s\n", c.o, prefixWords(t.d.Nodes[c.o].Title, rdr2PrefixLen))
	}
	return b.String()
}

func prefixWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

// routeDocument is the spec's ROUTE_DOCUMENT: one subtree per anchor, then
// FIFO expansions of headings whose content was never shown, at most
// ExpandIter, never routing the same subtree twice.
func (rp *rdr2Paper) routeDocument(anchors []int, p RDR2Params, route func(*rdr2Paper, *RetrievalSubtree) RouteActions) {
	t := rp.t
	viewed := map[int]bool{}
	routed := map[string]bool{}
	var queue []int
	queued := map[int]bool{}
	enqueue := func(hs []int) {
		for _, h := range hs {
			if queued[h] || rp.anyViewed(h, viewed) {
				continue
			}
			queued[h] = true
			queue = append(queue, h)
		}
	}
	var initial []RouteActions
	for _, a := range anchors {
		s := t.subtree()
		s.LightNodes([]int{a})
		k := s.key()
		if routed[k] {
			continue
		}
		routed[k] = true
		for _, o := range s.Lit() {
			viewed[o] = true
		}
		initial = append(initial, route(rp, s))
	}
	for _, r := range initial {
		for _, o := range r.Answer {
			rp.answers[o] = true
		}
		enqueue(r.Expand)
	}
	for iter := 0; len(queue) > 0 && iter < p.ExpandIter; iter++ {
		h := queue[0]
		queue = queue[1:]
		var kids []int
		for _, c := range t.children[h] {
			if t.content(c) && !t.skip[c] {
				kids = append(kids, c)
			}
		}
		if len(kids) == 0 {
			continue
		}
		s := t.subtree()
		s.LightNodes(kids)
		k := s.key()
		if routed[k] {
			continue
		}
		routed[k] = true
		for _, o := range kids {
			viewed[o] = true
		}
		r := route(rp, s)
		for _, o := range r.Answer {
			rp.answers[o] = true
		}
		enqueue(r.Expand)
	}
}

// anyViewed reports whether a content descendant of h was shown already.
func (rp *rdr2Paper) anyViewed(h int, viewed map[int]bool) bool {
	for _, c := range rp.t.children[h] {
		if viewed[c] || rp.anyViewed(c, viewed) {
			return true
		}
	}
	return false
}
