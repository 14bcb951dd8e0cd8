package retrieve

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/papertree/papertree/backend/papertree"
)

// naive is the flat-chunk baseline the PT-RAG paper compares against: the
// paper's text in reading order is cut into fixed-size chunks that ignore the
// structure; the chunks most similar to the question (same embedder) are
// taken until the token budget is spent. Evidence still resolves to nodes:
// a chunk is reported as the pieces of the leaves it overlaps.
type naive struct{}

func (naive) Name() string { return "naive" }
func (naive) Description() string {
	return "Baseline: flat fixed-size chunks ranked by embedding similarity, ignoring the paper's structure."
}

// chunk is a run of words from consecutive leaves.
type chunk struct {
	pieces []piece
	tokens int
	vec    []float32
}

// piece is the part of one leaf inside a chunk.
type piece struct {
	o    int
	text string
	tok  int
}

// buildChunks cuts the paper's leaves (document order) into chunks of about
// size tokens, word-aligned, and embeds them.
func (d *PaperData) buildChunks(ctx context.Context, emb papertree.Embedder, size int) ([]chunk, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.chunks != nil && d.chunkTok == size {
		return d.chunks, nil
	}
	var out []chunk
	var cur chunk
	var words []string
	flushPiece := func(o int) {
		if len(words) == 0 {
			return
		}
		t := strings.Join(words, " ")
		tok := papertree.CountTokens(t)
		cur.pieces = append(cur.pieces, piece{o: o, text: t, tok: tok})
		cur.tokens += tok
		words = words[:0]
	}
	for o, n := range d.Nodes {
		if !n.IsLeaf() {
			continue
		}
		acc := cur.tokens
		for _, w := range strings.Fields(n.Text) {
			wt := papertree.CountTokens(w)
			if acc+wt > size && acc > 0 {
				flushPiece(o)
				out = append(out, cur)
				cur = chunk{}
				acc = 0
			}
			words = append(words, w)
			acc += wt
		}
		flushPiece(o)
	}
	if cur.tokens > 0 {
		out = append(out, cur)
	}
	texts := make([]string, len(out))
	for i, c := range out {
		var b strings.Builder
		for _, p := range c.pieces {
			b.WriteString(p.text)
			b.WriteByte(' ')
		}
		texts[i] = b.String()
	}
	if len(texts) > 0 {
		vs, err := emb.Embed(ctx, texts)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i].vec = vs[i]
		}
	}
	d.chunks, d.chunkTok = out, size
	return out, nil
}

func (naive) Retrieve(ctx context.Context, ix Index, req Request) (Result, error) {
	if err := checkRequest(&req); err != nil {
		return Result{}, err
	}
	t0 := time.Now()
	qv, err := ix.Embedder().EmbedQuery(ctx, req.Query)
	if err != nil {
		return Result{}, errf("embed query", err)
	}
	ids, err := scopePapers(ctx, ix, req, qv)
	if err != nil {
		return Result{}, err
	}
	type scored struct {
		d *PaperData
		c *chunk
		s float64
	}
	var all []scored
	for _, id := range ids {
		d, err := ix.Paper(ctx, id)
		if skipPaper(req, err) {
			continue
		}
		if err != nil {
			return Result{}, errf("load paper", err)
		}
		cs, err := d.buildChunks(ctx, ix.Embedder(), req.Params.ChunkTokens)
		if err != nil {
			return Result{}, errf("embed chunks", err)
		}
		// Reference lists and acknowledgements are never evidence unless
		// the question asks about citations or funding (as in pt-rag).
		var refs []bool
		if !req.Q().Citations {
			refs = extraOf(d).refs
		}
	chunks:
		for i := range cs {
			if refs != nil {
				for _, p := range cs[i].pieces {
					if refs[p.o] {
						continue chunks
					}
				}
			}
			all = append(all, scored{d, &cs[i], dot(qv, cs[i].vec)})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].s > all[j].s })
	used := 0
	var sel []cand
	for _, s := range all {
		if used+s.c.tokens > req.Budget {
			continue
		}
		used += s.c.tokens
		for _, p := range s.c.pieces {
			sel = append(sel, cand{d: s.d, o: p.o, S: s.s, rel: s.s, cost: p.tok, text: p.text, score: s.s})
		}
	}
	sortDocOrder(sel)
	// Adjacent pieces of the same leaf (from neighbouring chunks) become one
	// evidence item.
	var merged []cand
	for _, c := range sel {
		if k := len(merged) - 1; k >= 0 && merged[k].d == c.d && merged[k].o == c.o {
			merged[k].text += " " + c.text
			merged[k].cost += c.cost
			merged[k].score = max(merged[k].score, c.score)
			continue
		}
		merged = append(merged, c)
	}
	res := assemble(merged, req.Budget)
	res.Diag.Timings = map[string]float64{"total": ms(time.Since(t0))}
	return res, nil
}
