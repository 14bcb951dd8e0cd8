package retrieve

import (
	"context"
	"sort"

	"github.com/papertree/papertree/backend/papertree"
)

// sentVecTop is how many of a paper's best passages get sentence vectors:
// the re-scoring only reorders passages that can be chosen at all, and on
// QASPER tune scoring every passage of the paper instead gave the same
// evidence F1 (0.328) at three times the latency.
const sentVecTop = 15

// sentenceVectors adds to the scores S of a paper's best passages the
// cosine between the question and the passage's best-matching sentence
// (each sentence embedded at question time), weighted by w. A passage
// vector averages every sentence of a paragraph, so the one sentence that
// answers is diluted among those about the same topic; its own vector is
// not. Errors leave S as it was (the passage vectors still rank).
func sentenceVectors(ctx context.Context, emb papertree.Embedder, d *PaperData, qv []float32, S []float64, leaves []int, w float64) {
	top := append([]int(nil), leaves...)
	sort.SliceStable(top, func(i, j int) bool { return S[top[i]] > S[top[j]] })
	if len(top) > sentVecTop {
		top = top[:sentVecTop]
	}
	var texts []string
	var owner []int
	for _, o := range top {
		for _, sen := range papertree.SplitSentences(d.Nodes[o].Text) {
			texts = append(texts, sen)
			owner = append(owner, o)
		}
	}
	if len(texts) == 0 {
		return
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil || len(vecs) != len(texts) {
		return
	}
	best := map[int]float64{}
	for i, o := range owner {
		c := dot(qv, vecs[i])
		if b, ok := best[o]; !ok || c > b {
			best[o] = c
		}
	}
	for o, b := range best {
		S[o] += w * b
	}
}
