package retrieve

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/store"
)

// paperShortlist is how many papers a library-wide question considers after
// the paper-vector search (and the most the keyword search seeks by range).
const paperShortlist = 32

// namedShortlist bounds the papers a question partly names (identify) that
// join the paper-vector shortlist; with it the shortlist stays within the
// store's per-paper keyword search (store.maxRangedPapers).
const namedShortlist = 8

// scopePapers returns the papers a request searches in depth: the explicit
// set, or for library-wide questions the MaxPapers papers whose best section
// body (vector search) and keyword hits match best.
func scopePapers(ctx context.Context, ix Index, req Request, qv []float32) ([]int64, error) {
	ids, _, err := scopeIdentified(ctx, ix, req, qv, nil)
	return ids, err
}

// textShortlist is how many papers the library-wide full-text ranking
// adds to the shortlist.
const textShortlist = 8

// identityWeight is the weight of a paper's identity score (see identify)
// in the library-wide paper ranking; one clear mention outweighs any
// similarity difference.
const identityWeight = 0.5

// scopeIdentified is scopePapers that also reports the paper the question
// names. A question that clearly names one paper ("In the GloVe paper",
// "Pennington et al.") searches that paper only; weaker identity signals
// lift papers in the ranking.
//
// prefetch, when not nil, is called (before the keyword search, the
// costliest step of a large library's scope) with the papers that rank
// first on the section search and the identity scores alone: most of them
// are among the papers returned, so their first loads can run beside the
// keyword search. It must not block; it changes no result.
func scopeIdentified(ctx context.Context, ix Index, req Request, qv []float32, prefetch func(id int64)) ([]int64, int64, error) {
	if len(req.PaperIDs) > 0 {
		return req.PaperIDs, 0, nil
	}
	all, err := ix.ReadyPapers(ctx)
	if err != nil {
		return nil, 0, errf("list papers", err)
	}
	question := req.Q()
	var idScore map[int64]float64
	var named int64
	var nick map[string]bool
	if !req.Unnamed {
		idScore, named, nick = identify(ctx, ix, question, all)
	}
	if named != 0 && holdsQuestion(ctx, ix, named, question, nick) {
		return []int64{named}, named, nil
	}
	// A name alone never restricts the search: the named paper must also
	// hold what the question asks about. Otherwise it is lifted (its
	// identity score, and first place when the name is unambiguous: what
	// the reply then says is missing is said of that paper), never
	// searched alone.
	if named != 0 && idScore[named] < strongName {
		named = 0
	}
	if len(all) <= req.Params.MaxPapers {
		return all, named, nil
	}
	// Large libraries: shortlist papers by their paper vector first (one
	// vector per paper, a cheap scan), so the section search and the keyword
	// search below only touch the shortlist and cost stays flat as the
	// library grows. Without paper vectors (older index), search everything.
	// The same search scores every paper of a smaller library.
	var shortlist []int64
	whole := map[int64]float64{}
	if hits, err := ix.SearchVectors(ctx, store.SpacePaper, qv, nil, paperShortlist); err == nil {
		for _, h := range hits {
			whole[h.PaperID] = h.Score
			if len(all) > paperShortlist {
				shortlist = append(shortlist, h.PaperID)
			}
		}
	}
	// A paper's score is its best section body (or its whole-paper vector,
	// when that matches better) plus its keyword score.
	// The keyword score is the paper-level BM25 over the whole library
	// (BM25 with the paper as the document), at every library size.
	score := map[int64]float64{}
	var paperBM map[int64]float64
	if pr, ok := ix.(paperRanker); ok {
		if bm, err := pr.PaperBM25(ctx, req.Query); err == nil {
			paperBM = bm
		}
	}
	if len(shortlist) > 0 {
		// The papers the question partly names join the shortlist, at most
		// paperShortlist of them, best first: a word many titles share
		// ("attention", "model") matched thousands of papers at 20,800 and
		// sent the keyword search over all of them (220 ms a question).
		for _, id := range topPapers(idScore, namedShortlist) {
			if !containsID(shortlist, id) {
				shortlist = append(shortlist, id)
			}
		}
		// So do the papers whose full text matches the question best: a
		// paper that holds the question's rare words is a candidate
		// whatever its paper vector says.
		for _, id := range topPapers(paperBM, textShortlist) {
			if !containsID(shortlist, id) {
				shortlist = append(shortlist, id)
			}
		}
	}
	hits, err := ix.SearchVectors(ctx, store.SpaceSection, qv, shortlist, 200)
	if err != nil {
		return nil, 0, errf("search sections", err)
	}
	for _, h := range hits {
		score[h.PaperID] = max(score[h.PaperID], h.Score)
	}
	// A paper's whole-paper vector (title, abstract, headings, the start
	// of its text) stands beside its section bodies: a paper without
	// sections (a book chapter, a scan, slides, whose passages all sit
	// under the root) has no section vector and ranked on its keyword
	// score alone, however well it matched.
	//
	// Such a paper's passages sit under its root, where no section vector
	// covers them, and its whole-paper vector is diluted by everything else
	// it holds (a Science letter whose body has no headings ranked 17th of
	// the shortlist on the question its text answers best). So where the
	// whole-paper vector matches better than every section body (the
	// paper's text is not in its sections), each passage under the root
	// counts as a section of its own: the paper scores at least its best
	// one. Only those papers are read (about 6 of 36 shortlisted).
	searched := shortlist
	if len(searched) == 0 {
		searched = all
	}
	for _, id := range searched {
		if whole[id] < score[id] {
			continue
		}
		if s := rootPassageScore(ctx, ix, id, qv); s > whole[id] {
			whole[id] = s
		}
	}
	for id, s := range whole {
		score[id] = max(score[id], s)
	}
	if prefetch != nil {
		guess := make(map[int64]float64, len(score)+len(idScore))
		for id, s := range score {
			guess[id] = s
		}
		for id, s := range idScore {
			guess[id] += identityWeight * s
		}
		for _, id := range topPapers(guess, req.Params.MaxPapers) {
			prefetch(id)
		}
	}
	// The keyword signal: the paper-level BM25, normalised by the best
	// candidate (the shortlist, or every paper of a library that has none),
	// when the index has it, else the best passage's. Measured equal on both
	// question sets; the paper-level one is already computed, where
	// per-paper passage searches were half of a library-wide question's time
	// at 4,735 papers.
	text := map[int64]float64{}
	if paperBM != nil {
		cands := shortlist
		if len(cands) == 0 {
			cands = all
		}
		top := 0.0
		for _, id := range cands {
			top = max(top, paperBM[id])
		}
		for _, id := range cands {
			if top > 0 && paperBM[id] > 0 {
				text[id] = paperBM[id] / top
			}
		}
	} else {
		text = textScoresByPaper(ctx, ix, req.Query, shortlist)
	}
	limit := req.Params.MaxPapers
	if paperBM != nil && len(text) > 0 && papertree.MostlyCJK(req.Query) {
		limit = 1
		// A question written in a spaceless script (Chinese, Japanese,
		// Korean) is ranked by the full-text signal alone: the stored
		// paper and section vectors were built from whole clauses of such
		// text (DocTerms reads a clause as one word), and the identity
		// scores from title and author words, so both read only the
		// question's Latin words ("LSTM"), while the index holds its
		// character bigrams. A clear name still chose its paper above.
		// Only the first paper is searched in depth: passage relevance,
		// mostly the same vector similarity, cannot compare papers for
		// such a question either (English passages matching its one Latin
		// word outscored the Chinese paper that answers it).
		score = make(map[int64]float64, len(text))
		for id, s := range text {
			score[id] = s
		}
	} else {
		for id, s := range text {
			score[id] += req.Params.TextWeight * s
		}
		for id, s := range idScore {
			score[id] += identityWeight * s
		}
	}
	ids := topPapers(score, limit)
	if len(ids) == 0 {
		return nil, 0, papertree.Errorf(papertree.ENotFound, "The library has no indexed papers to search.")
	}
	if named != 0 && ids[0] != named {
		ids = slices.DeleteFunc(ids, func(id int64) bool { return id == named })
		ids = append([]int64{named}, ids[:min(len(ids), req.Params.MaxPapers-1)]...)
	}
	return ids, named, nil
}

// rootPassageScore is the best similarity between the question and a
// passage of paper id that sits directly under the root (no section holds
// it); 0 when there is none or the paper cannot be read.
func rootPassageScore(ctx context.Context, ix Index, id int64, qv []float32) float64 {
	d, err := ix.Paper(ctx, id)
	if err != nil {
		return 0
	}
	best := 0.0
	for o, n := range d.Nodes {
		if o > 0 && d.Parent[o] == 0 && n.Kind != papertree.KindSection {
			best = max(best, dot(d.Seg[o], qv))
		}
	}
	return best
}

// strongName is the identity score of an unambiguous name: the paper's own
// name ("GloVe"), its first author cited ("Pennington et al.", "Kim
// (2014)"), or most of its title with an author (see identityScores); a
// surname alone (2) may be any co-author's.
const strongName = 3

// topPapers returns the n papers of score with the highest scores, best
// first (ties by id).
func topPapers(score map[int64]float64, n int) []int64 {
	ids := make([]int64, 0, len(score))
	for id := range score {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if score[ids[i]] != score[ids[j]] {
			return score[ids[i]] > score[ids[j]]
		}
		return ids[i] < ids[j]
	})
	if len(ids) > n {
		ids = ids[:n]
	}
	return ids
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// textScores runs the BM25 keyword search over the scope and returns, per
// node, its score divided by the best score of the search (so in [0,1]).
// One normaliser for all papers keeps the signal comparable across papers:
// the best hit of an unrelated paper must not look as good as the best hit
// of the paper that answers. A failing keyword search only removes this
// extra signal.
func textScores(ctx context.Context, ix Index, query string, ids []int64) map[int64]float64 {
	hits, err := ix.SearchText(ctx, query, ids, 100*max(len(ids), 1))
	if err != nil {
		return nil
	}
	best := 0.0
	for _, h := range hits {
		best = max(best, h.Score)
	}
	out := make(map[int64]float64, len(hits))
	for _, h := range hits {
		if best > 0 {
			out[h.NodeID] = h.Score / best
		}
	}
	return out
}

func textScoresByPaper(ctx context.Context, ix Index, query string, ids []int64) map[int64]float64 {
	hits, err := ix.SearchText(ctx, query, ids, 200)
	if err != nil || len(hits) == 0 {
		return nil
	}
	top := hits[0].Score
	for _, h := range hits {
		top = max(top, h.Score)
	}
	out := map[int64]float64{}
	for _, h := range hits {
		out[h.PaperID] = max(out[h.PaperID], h.Score/top)
	}
	return out
}

// titleVectors embeds the section titles of d once (the no-LLM stand-in for
// F_sec compares the query with titles).
func (d *PaperData) titleVectors(ctx context.Context, emb papertree.Embedder) ([][]float32, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.titleVec != nil {
		return d.titleVec, nil
	}
	var titles []string
	for _, n := range d.Nodes {
		if n.Kind == papertree.KindSection {
			titles = append(titles, stripNumber(n.Title))
		}
	}
	if len(titles) == 0 {
		return nil, nil
	}
	vs, err := emb.Embed(ctx, titles)
	if err != nil {
		return nil, err
	}
	d.titleVec = vs
	return vs, nil
}

// stripNumber removes a leading section number ("3.2 ", "IV. ", "A.1 ").
func stripNumber(t string) string {
	f := strings.Fields(t)
	if len(f) > 1 {
		w := strings.TrimRight(f[0], ".")
		num := w != ""
		for _, r := range w {
			if !(r >= '0' && r <= '9' || r == '.' || r >= 'A' && r <= 'Z' && len(w) <= 4) {
				num = false
				break
			}
		}
		if num {
			return strings.Join(f[1:], " ")
		}
	}
	return t
}

// assemble turns selected candidates into evidence, the context text and the
// diagnostics. Evidence keeps the order of cs (paper, then document order).
func assemble(cs []cand, budget int) Result {
	var res Result
	res.Evidence = make([]papertree.Evidence, 0, len(cs))
	var b strings.Builder
	var lastPaper *PaperData
	lastPath := ""
	used := 0
	for i, c := range cs {
		d := c.d
		node := d.Nodes[c.o]
		titles, ids := evidencePath(d, c.o)
		if d != lastPaper {
			fmt.Fprintf(&b, "# %s\n", d.Paper.Title)
			lastPaper, lastPath = d, ""
		}
		if p := strings.Join(titles[1:], " > "); p != lastPath {
			if p == "" {
				p = "(front matter)"
			}
			fmt.Fprintf(&b, "## %s\n", p)
			lastPath = p
		}
		ev := papertree.Evidence{
			PaperID: d.Paper.ID, PaperTitle: d.Paper.Title, NodeID: node.ID, Kind: node.Kind, Role: node.Role,
			Path: titles, PathIDs: ids, SectionID: ids[len(ids)-1], Text: c.text, Summary: node.Summary,
			Pages: pageList(node), Boxes: node.Boxes, Score: round4(c.score), Tokens: c.cost, Order: node.Order,
		}
		res.Evidence = append(res.Evidence, ev)
		if node.Summary != "" {
			fmt.Fprintf(&b, "[%d] (summary) %s\n", i+1, node.Summary)
		}
		fmt.Fprintf(&b, "[%d] %s\n\n", i+1, c.text)
		used += c.cost
	}
	res.Context = b.String()
	res.Diag = papertree.Diagnostics{TokensUsed: used, Budget: budget}
	res.Diag.SectionEntropy, res.Diag.Sections = SectionEntropy(res.Evidence)
	return res
}

func pageList(n *papertree.Node) []int {
	if n.PageStart <= 0 {
		return []int{}
	}
	var ps []int
	for p := n.PageStart; p <= max(n.PageEnd, n.PageStart); p++ {
		ps = append(ps, p)
	}
	return ps
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// SectionShares returns r(s) (PT-RAG sec. 3.6): the share of the context's
// tokens coming from each section (the leaf's own section, keyed by node id),
// weighted by the evidence's relevance score (floored at a small positive
// value so zero-score evidence still counts its tokens) and normalised.
func SectionShares(ev []papertree.Evidence) map[int64]float64 {
	r := map[int64]float64{}
	total := 0.0
	for _, e := range ev {
		w := float64(e.Tokens) * math.Max(e.Score, 0.01)
		r[e.SectionID] += w
		total += w
	}
	if total == 0 {
		return r
	}
	for k := range r {
		r[k] /= total
	}
	return r
}

// SectionEntropy is SE(r) = -sum_s r(s) log r(s) (natural log) and the number
// of distinct sections.
func SectionEntropy(ev []papertree.Evidence) (float64, int) {
	r := SectionShares(ev)
	return round4(Entropy(r)), len(r)
}

// Entropy of a distribution given as shares (natural log).
func Entropy[K comparable](r map[K]float64) float64 {
	h := 0.0
	for _, p := range r {
		if p > 0 {
			h -= p * math.Log(p)
		}
	}
	return h
}

// holdsQuestion reports whether the paper's text holds what the question
// asks about: at least half of the IDF weight of the question's content
// stems, leaving out the words that name the paper (its title, authors and
// names, and the words with which the question refers to it). "the" as an
// all-capitals title's lead, or an author who shares a surname with the one
// cited, then cannot send a question about ViT and Adam to that paper alone.
// nick are further words that name the paper (identify's nicknames: "AlexNet",
// which Krizhevsky et al. never print).
func holdsQuestion(ctx context.Context, ix Index, id int64, q *query.Question, nick map[string]bool) bool {
	d, err := ix.Paper(ctx, id)
	if err != nil {
		return false
	}
	c, x := cardOf(d), extraOf(d)
	naming := map[string]bool{}
	for _, t := range c.title {
		naming[t] = true
	}
	for _, refs := range []map[string]bool{q.Refs, nick} {
		for w := range refs {
			for _, t := range embedding.QueryTerms(w) {
				naming[t] = true
			}
		}
	}
	// Nor is the verb with which the question is put ("What accuracy on
	// ImageNet did ResNeXt reach?"): the paper states it with its own
	// ("achieves"), and a named paper lacking "reach" is still the one asked.
	for _, t := range embedding.QueryTerms(query.DoVerb(q.Text)) {
		naming[t] = true
	}
	for _, set := range []map[string]bool{c.surnames, c.names, c.own} {
		for w := range set {
			for _, t := range embedding.QueryTerms(strings.ToLower(w)) {
				naming[t] = true
			}
		}
	}
	m := embedding.ShippedModel()
	var have, total float64
	var content []string
	for _, t := range q.Terms {
		if naming[t] || query.IsScaffold(t) {
			continue
		}
		content = append(content, t)
		w := 1.0
		if m != nil {
			w = float64(m.IDF(t))
		}
		total += w
		if x.vocab[t] {
			have += w
		}
	}
	if total > 0 && have < total/2 {
		return false
	}
	// ... and its most specific word: the one fewest passages of the
	// library hold (the index's own counts). "Does the original BERT
	// implementation use a character-level BPE vocabulary?" names BERT,
	// whose text holds most of the question but not "BPE": the answer is
	// in a paper that does, so BERT is lifted, not searched alone.
	df := libraryCounts(ctx, ix, content)
	key := -1
	for i, t := range content {
		// A stem the paper holds that the index counts nowhere is one the
		// index spells otherwise: no evidence of rarity.
		if df != nil && !(df[i] == 0 && x.vocab[t]) && (key < 0 || df[i] < df[key]) {
			key = i
		}
	}
	return key < 0 || x.vocab[content[key]]
}

// libraryCounts returns how many passages of the library hold each stem,
// per the full-text index; nil when the index cannot count.
func libraryCounts(ctx context.Context, ix Index, terms []string) []int64 {
	tc, can := ix.(termCounter)
	if !can || len(terms) == 0 {
		return nil
	}
	_, df, err := tc.TermNodeCounts(ctx, terms)
	if err != nil || len(df) != len(terms) {
		return nil
	}
	return df
}

// evidencePath is papertree.EvidencePath of leaf o of d, its first segment
// naming a paper without a title by its file name, as the library list and
// search do (never "Untitled paper" while the file is known).
func evidencePath(d *PaperData, o int) ([]string, []int64) {
	titles, ids := papertree.EvidencePath(d.PathTo(o))
	if len(titles) > 0 && titles[0] == papertree.UntitledPaper && d.Paper != nil {
		titles[0] = papertree.PaperName(d.Paper.Title, d.Paper.Path)
	}
	return titles, ids
}
