package retrieve

import (
	"context"
	"math"
	"sort"

	"github.com/papertree/papertree/backend/papertree"
)

// sentVecTop is how many of a paper's best passages get sentence vectors:
// the re-scoring only reorders passages that can be chosen at all. On
// QASPER tune scoring every passage of the paper gave the same evidence F1
// as the best 15 at three times the latency; the best 10 score as well as
// 15 or better (support hit, scoped / library-wide: own set 0.734/0.641 ->
// 0.750/0.656, held-out 0.695/0.621 both; QASPER text F1 0.302 -> 0.304)
// and embed a third fewer sentences on a cold question.
const sentVecTop = 10

// sentVecKeyword is how many of a paper's best passages by the sentence
// keyword signal (kwv) also get sentence vectors when the fused score puts
// them below the best sentVecTop. A passage whose sentence holds the
// question's rare terms but whose passage vector is about something else
// (ViT's "Training & Fine-tuning" paragraph: "... a batch size of 4096 and
// apply a high weight decay of 0.1", among the baselines' set-up) ranked
// below the ten best and so got no sentence vector score at all, while they
// got 0.15-0.3 each: a cliff, not a judgment. See docs/measurements.md (issue 19).
const sentVecKeyword = 3

// sentenceVectors adds to the scores S of a paper's best passages the
// cosine between the question and the passage's best-matching sentence
// (each sentence embedded at question time), weighted by w. A passage
// vector averages every sentence of a paragraph, so the one sentence that
// answers is diluted among those about the same topic; its own vector is
// not. Errors leave S as it was (the passage vectors still rank).
//
// The passages re-scored are the best sentVecTop by S and, when kwv (the
// sentence keyword score by leaf order; may be nil) is given, the best
// sentVecKeyword by kwv that are not among them.
func sentenceVectors(ctx context.Context, emb papertree.Embedder, d *PaperData, qv []float32, S []float64, leaves []int, w float64, kwv []float64) {
	top := append([]int(nil), leaves...)
	sort.SliceStable(top, func(i, j int) bool { return S[top[i]] > S[top[j]] })
	if len(top) > sentVecTop {
		in := make(map[int]bool, sentVecTop)
		for _, o := range top[:sentVecTop] {
			in[o] = true
		}
		top = top[:sentVecTop:sentVecTop]
		if kwv != nil {
			byKW := append([]int(nil), leaves...)
			sort.SliceStable(byKW, func(i, j int) bool { return kwv[byKW[i]] > kwv[byKW[j]] })
			for _, o := range byKW[:min(sentVecKeyword, len(byKW))] {
				if kwv[o] > 0 && !in[o] {
					top = append(top, o)
				}
			}
		}
	}
	vecs := d.sentenceVecs(ctx, emb, top)
	for _, o := range top {
		best, ok := 0.0, false
		for _, v := range vecs[o] {
			if c := v.dot(qv); !ok || c > best {
				best, ok = c, true
			}
		}
		if ok {
			S[o] += w * best
		}
	}
}

// sentVecCacheLeaves bounds the passages whose sentence vectors a cached
// paper keeps (int16, 1.5 KB per sentence at 768 dimensions): enough for a
// conversation about one paper, about 0.4 MB per paper at most, as much as
// the paper's own passage vectors.
const sentVecCacheLeaves = 48

// sentVecCache holds the sentence vectors of a paper's passages, embedded
// by the embedder named emb; follow-up questions about the same passages
// (a conversation about one paper, a library whose few best papers recur)
// do not embed them again.
type sentVecCache struct {
	emb  string
	vecs map[int][]qvec
}

// qvec is an int16 vector with its scale: half the memory of float32 and
// the same rankings (int8 moved a few near-ties: one question of our set
// and 0.002 QASPER evidence F1).
type qvec struct {
	scale float32
	code  []int16
}

func quantizeVec(v []float32) qvec {
	return quantizeInto(v, make([]int16, len(v)))
}

// quantizeInto is quantizeVec writing the codes into code (len(v) zeros).
// It is on the path of every sentence a cold question embeds, so it reads
// magnitudes as bits and rounds without math.Round or branches; the codes
// are those of int16(math.Round(float64(x / scale))) for every component
// (TestQuantizeVecMatchesRounding compares it with that formula).
func quantizeInto(v []float32, code []int16) qvec {
	// The largest magnitude: the bits of |x| order as the values do
	// (a NaN's bits exceed every number's, as max would return NaN).
	var mb uint32
	for _, x := range v {
		mb = max(mb, math.Float32bits(x)&0x7fffffff)
	}
	m := math.Float32frombits(mb)
	q := qvec{code: code}
	if m == 0 {
		return q
	}
	q.scale = m / 32767
	// Every component, zeros too (their code is 0): about two thirds of a
	// sentence vector's components are 0, in no order a branch predicts.
	for i, x := range v {
		q.code[i] = roundCode(float64(x / q.scale))
	}
	return q
}

// roundCode is int16(math.Round(f)) for f a float32 value of magnitude at
// most about 32767 (a component over its vector's scale), without branches:
// f±0.5 is exact in float64 whenever it matters (float32 has 24 significant
// bits, so the sum needs at most 53 unless |f| < 2^-29, which rounds to 0
// either way), and truncating it rounds half away from zero as math.Round
// does.
func roundCode(f float64) int16 {
	return int16(int32(f + math.Copysign(0.5, f)))
}

// eachEmbedder embeds texts one after another into reused memory
// (embedding.Builtin.EmbedEach).
type eachEmbedder interface {
	EmbedEach(ctx context.Context, texts []string, fn func(i int, v []float32)) error
}

// embedQuantized returns the quantized vectors of texts, ok false when
// the embedder failed. The codes of the batch share one allocation (they
// are cached and dropped together, with their paper's cache); an embedder
// that can (the built-in one) hands each vector over as it is made, so the
// batch's float vectors are never all held at once.
func embedQuantized(ctx context.Context, emb papertree.Embedder, texts []string) ([]qvec, bool) {
	out := make([]qvec, len(texts))
	if ee, isEach := emb.(eachEmbedder); isEach {
		dim := emb.Dim()
		codes := make([]int16, len(texts)*dim)
		ok := true
		err := ee.EmbedEach(ctx, texts, func(i int, v []float32) {
			if len(v) != dim {
				ok = false
				return
			}
			out[i] = quantizeInto(v, codes[i*dim:(i+1)*dim:(i+1)*dim])
		})
		return out, err == nil && ok
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil || len(vecs) != len(texts) {
		return nil, false
	}
	size := 0
	for _, v := range vecs {
		size += len(v)
	}
	codes := make([]int16, size)
	for i, v := range vecs {
		n := len(v)
		out[i] = quantizeInto(v, codes[:n:n])
		codes = codes[n:]
	}
	return out, true
}

func (q qvec) dot(v []float32) float64 {
	s := float32(0)
	for i, c := range q.code[:min(len(q.code), len(v))] {
		s += float32(c) * v[i]
	}
	return float64(s * q.scale)
}

// sentenceVecs returns the sentence vectors of the passages at orders os,
// embedding (in one batch) those not cached. An embedding error leaves
// the missing ones out.
func (d *PaperData) sentenceVecs(ctx context.Context, emb papertree.Embedder, os []int) map[int][]qvec {
	out := make(map[int][]qvec, len(os))
	var miss []int
	d.mu.Lock()
	if d.sentVec.emb != emb.Name() {
		d.sentVec = sentVecCache{emb: emb.Name()}
	}
	for _, o := range os {
		if v, ok := d.sentVec.vecs[o]; ok {
			out[o] = v
		} else {
			miss = append(miss, o)
		}
	}
	d.mu.Unlock()
	if len(miss) == 0 {
		return out
	}
	var texts []string
	var owner []int
	for _, o := range miss {
		for _, sen := range papertree.SplitSentences(d.Nodes[o].Text) {
			texts = append(texts, sen)
			owner = append(owner, o)
		}
	}
	if len(texts) == 0 {
		return out
	}
	qs, ok := embedQuantized(ctx, emb, texts)
	if !ok {
		return out
	}
	for i, o := range owner {
		out[o] = append(out[o], qs[i])
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sentVec.emb != emb.Name() {
		return out
	}
	if d.sentVec.vecs == nil || len(d.sentVec.vecs)+len(miss) > sentVecCacheLeaves {
		d.sentVec.vecs = map[int][]qvec{}
	}
	for _, o := range miss {
		d.sentVec.vecs[o] = out[o]
	}
	return out
}
