package retrieve

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// A paragraph whose one sentence answers the question must gain on a
// paragraph that is about the same topic throughout: the answering
// sentence's own vector is not diluted by its neighbours.
func TestSentenceVectorsLiftTheAnsweringSentence(t *testing.T) {
	ctx := context.Background()
	emb := embedding.NewBuiltin()
	leaf := func(text string) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Text: text, Tokens: papertree.CountTokens(text)}
	}
	answer := "Our corpus is described in the appendix. The tables list the scores of every run. " +
		"We trained the model with AdaGrad and an initial learning rate of 0.05. The figures show the loss curves."
	topic := "Training neural models needs care. Models trained longer are better models. " +
		"The model is trained on the training data, and the training of the model uses a schedule."
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{
		{Kind: papertree.KindSection, Title: "Training", Children: []*papertree.Node{leaf(answer), leaf(topic)}},
	}}
	d := NewPaperData(&papertree.Paper{ID: 1, Title: "P", Root: root}, nil, nil, nil)
	qv, err := emb.EmbedQuery(ctx, "What initial learning rate was used with AdaGrad to train the model?")
	if err != nil {
		t.Fatal(err)
	}
	leaves := []int{2, 3}
	if d.Nodes[2].Text != answer || d.Nodes[3].Text != topic {
		t.Fatalf("unexpected document order")
	}
	tests := []struct {
		name string
		w    float64
		gain bool // the answering paragraph gains more than the topical one
	}{
		{"weighted", 0.6, true},
		{"off", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			S := make([]float64, len(d.Nodes))
			if tc.w > 0 {
				sentenceVectors(ctx, emb, d, qv, S, leaves, tc.w, nil)
			}
			if got := S[2] > S[3]; got != tc.gain {
				t.Errorf("answer %.3f, topic %.3f: answering paragraph ahead = %v, want %v", S[2], S[3], got, tc.gain)
			}
		})
	}
}

func TestCutoffByPaper(t *testing.T) {
	a, b, c := &PaperData{}, &PaperData{}, &PaperData{}
	cs := []cand{
		{d: a, o: 1, S: 0.80}, {d: a, o: 2, S: 0.70}, {d: a, o: 3, S: 0.60},
		{d: b, o: 1, S: 0.55}, {d: b, o: 2, S: 0.30},
		{d: c, o: 1, S: 0.20},
	}
	tests := []struct {
		name        string
		margin, pm  float64
		wantPerPapr map[*PaperData]int
	}{
		{"second paper kept with its own best", 0.16, 0.48, map[*PaperData]int{a: 2, b: 1}},
		{"one margin for all drops the second paper", 0.16, 0.16, map[*PaperData]int{a: 2}},
		{"no cut-off", 0, 0.48, map[*PaperData]int{a: 3, b: 2, c: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := map[*PaperData]int{}
			for _, x := range cutoffByPaper(cs, tc.margin, tc.pm) {
				got[x.d]++
			}
			if len(got) != len(tc.wantPerPapr) {
				t.Fatalf("papers kept %d, want %d (%v)", len(got), len(tc.wantPerPapr), got)
			}
			for d, n := range tc.wantPerPapr {
				if got[d] != n {
					t.Errorf("passages kept %d, want %d", got[d], n)
				}
			}
		})
	}
}

// countingEmbedder counts the texts it embeds and can pose as another model.
type countingEmbedder struct {
	papertree.Embedder
	name  string
	texts int
}

func (c *countingEmbedder) Name() string { return c.name }
func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.texts += len(texts)
	return c.Embedder.Embed(ctx, texts)
}

// Sentence vectors are embedded once per passage and embedder: a follow-up
// question scores the same as a first one without embedding again; another
// embedder, or more passages than the cache holds, starts afresh.
func TestSentenceVectorCache(t *testing.T) {
	ctx := context.Background()
	base := embedding.NewBuiltin()
	var kids []*papertree.Node
	for i := 0; i < sentVecCacheLeaves+8; i++ {
		text := fmt.Sprintf("Passage %d reports a learning rate of 0.0%d. The model trains for %d epochs.", i, i%9+1, i+2)
		kids = append(kids, &papertree.Node{Kind: papertree.KindSegment, Text: text, Tokens: papertree.CountTokens(text)})
	}
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{{Kind: papertree.KindSection, Title: "Training", Children: kids}}}
	qv, _ := base.EmbedQuery(ctx, "What learning rate was used?")
	leavesOf := func(d *PaperData, from, n int) []int {
		var ls []int
		for o, nd := range d.Nodes {
			if nd.IsLeaf() && len(ls) < from+n {
				ls = append(ls, o)
			}
		}
		return ls[from:]
	}
	fresh := func() []float64 {
		d := NewPaperData(&papertree.Paper{ID: 1, Root: root}, nil, nil, nil)
		S := make([]float64, len(d.Nodes))
		sentenceVectors(ctx, &countingEmbedder{Embedder: base, name: base.Name()}, d, qv, S, leavesOf(d, 0, 10), 1, nil)
		return S
	}
	want := fresh()
	d := NewPaperData(&papertree.Paper{ID: 1, Root: root}, nil, nil, nil)
	emb := &countingEmbedder{Embedder: base, name: base.Name()}
	steps := []struct {
		name      string
		emb       *countingEmbedder
		from, n   int
		wantTexts int // texts embedded by this step
	}{
		{"first question embeds the top passages", emb, 0, 10, 20},
		{"follow-up on the same passages embeds nothing", emb, 0, 10, 0},
		{"two new passages", emb, 5, 7, 4},
		{"another embedder starts afresh", &countingEmbedder{Embedder: base, name: "other"}, 0, 10, 20},
		{"back to the first embedder: its vectors were dropped (15 best passages)", emb, 0, sentVecCacheLeaves + 8, 2 * sentVecTop},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			before := st.emb.texts
			S := make([]float64, len(d.Nodes))
			ls := leavesOf(d, st.from, st.n)
			sentenceVectors(ctx, st.emb, d, qv, S, ls, 1, nil)
			if got := st.emb.texts - before; got != st.wantTexts {
				t.Errorf("embedded %d texts, want %d", got, st.wantTexts)
			}
			for _, o := range ls {
				if st.from == 0 && st.n == 10 && math.Abs(S[o]-want[o]) > 1e-4 {
					t.Errorf("passage %d scores %.6f, uncached %.6f", o, S[o], want[o])
				}
			}
		})
	}
	// Past the bound the cache starts afresh instead of growing.
	all := leavesOf(d, 0, sentVecCacheLeaves+8)
	d.sentenceVecs(ctx, emb, all[:sentVecCacheLeaves])
	if n := len(d.sentVec.vecs); n != sentVecCacheLeaves {
		t.Fatalf("cache holds %d passages, want %d", n, sentVecCacheLeaves)
	}
	d.sentenceVecs(ctx, emb, all[sentVecCacheLeaves:])
	if n := len(d.sentVec.vecs); n != 8 {
		t.Fatalf("cache holds %d passages after overflowing, want 8", n)
	}
}

// quantizeVec's codes are those of rounding every component with
// math.Round (zeros, negative zeros, halves and extremes included), on
// random vectors and on the built-in embedder's sentence vectors.
func TestQuantizeVecMatchesRounding(t *testing.T) {
	plain := func(v []float32) qvec {
		m := float32(0)
		for _, x := range v {
			m = max(m, x, -x)
		}
		q := qvec{code: make([]int16, len(v))}
		if m == 0 {
			return q
		}
		q.scale = m / 32767
		for i, x := range v {
			q.code[i] = int16(math.Round(float64(x / q.scale)))
		}
		return q
	}
	negZero := float32(math.Copysign(0, -1))
	cases := []struct {
		name string
		v    []float32
	}{
		{"all zero", []float32{0, 0, negZero}},
		{"sparse", []float32{0, 0.25, 0, -0.5, negZero, 1e-9, 0}},
		{"dense", []float32{0.1, -0.2, 0.3, -0.4, 0.5}},
		{"extremes", []float32{-1, 1, 0.5e-4, -0.5e-4, 0}},
		// scale 1: every half rounds away from zero, as math.Round does
		{"halves", []float32{32767, 0.5, 1.5, 2.5, -0.5, -2.5, 32766.5, -32766.5, 0.49999997, -0.49999997}},
		{"tiny", []float32{1e-38, -1e-30, 3e-39, 1e-45}},
	}
	// Random vectors shaped like sentence vectors (two thirds zeros) and
	// the built-in embedder's own sentence vectors.
	rng := rand.New(rand.NewPCG(7, 19))
	for i := 0; i < 300; i++ {
		v := make([]float32, 768)
		for j := range v {
			if rng.IntN(3) == 0 {
				v[j] = float32(rng.NormFloat64() * math.Pow(10, -float64(rng.IntN(8))))
			}
		}
		cases = append(cases, struct {
			name string
			v    []float32
		}{fmt.Sprintf("random %d", i), v})
	}
	vecs, err := embedding.NewBuiltin().Embed(context.Background(), []string{"Transformers replace recurrence with attention.",
		"We train on 4.5 million sentence pairs of WMT 2014 English-German.", "", "Table 3: BLEU 28.4"})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vecs {
		cases = append(cases, struct {
			name string
			v    []float32
		}{fmt.Sprintf("sentence %d", i), v})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got, want := quantizeVec(tc.v), plain(tc.v); !reflect.DeepEqual(got, want) {
				t.Fatalf("got %+v, want %+v", got, want)
			}
		})
	}
}

// The passages the sentence keyword signal rates best get sentence vector
// scores even when the fused score ranks them below the best sentVecTop;
// the other passages below them do not.
func TestSentenceVectorsReachKeywordPassages(t *testing.T) {
	ctx := context.Background()
	emb := embedding.NewBuiltin()
	var kids []*papertree.Node
	for i := 0; i < sentVecTop+4; i++ {
		text := fmt.Sprintf("Passage %d describes the pre-training set-up with a batch size of %d and a weight decay of 0.%d.", i, 512*(i+1), i%9+1)
		kids = append(kids, &papertree.Node{Kind: papertree.KindSegment, Text: text, Tokens: papertree.CountTokens(text)})
	}
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{{Kind: papertree.KindSection, Title: "Setup", Children: kids}}}
	d := NewPaperData(&papertree.Paper{ID: 1, Root: root}, nil, nil, nil)
	qv, err := emb.EmbedQuery(ctx, "What batch size and weight decay were used for pre-training?")
	if err != nil {
		t.Fatal(err)
	}
	var leaves []int
	for o, n := range d.Nodes {
		if n.IsLeaf() {
			leaves = append(leaves, o)
		}
	}
	// The fused score ranks the passages in document order; the keyword
	// signal rates only the last one (below the best sentVecTop).
	base := make([]float64, len(d.Nodes))
	for i, o := range leaves {
		base[o] = 10 - 0.1*float64(i)
	}
	last, below := leaves[len(leaves)-1], leaves[len(leaves)-2]
	kwv := make([]float64, len(d.Nodes))
	kwv[last] = 0.8
	for _, tc := range []struct {
		name     string
		kwv      []float64
		lastGain bool
	}{
		{"with the keyword signal", kwv, true},
		{"without it", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			S := append([]float64(nil), base...)
			sentenceVectors(ctx, emb, d, qv, S, leaves, 1, tc.kwv)
			if got := S[last] != base[last]; got != tc.lastGain {
				t.Errorf("keyword passage re-scored = %v, want %v", got, tc.lastGain)
			}
			if S[below] != base[below] {
				t.Errorf("a passage below the best %d with no keyword score was re-scored", sentVecTop)
			}
			if S[leaves[0]] == base[leaves[0]] {
				t.Errorf("the best passage was not re-scored")
			}
		})
	}
}

// embedOnly hides the built-in embedder's EmbedEach: the plain Embed path.
type embedOnly struct{ papertree.Embedder }

// Sentence vectors quantized as the built-in embedder hands them over one
// at a time (EmbedEach) are those of quantizing Embed's vectors.
func TestEmbedQuantizedEachEqualsBatch(t *testing.T) {
	ctx := context.Background()
	emb := embedding.NewBuiltin()
	var texts []string
	for _, d := range []*PaperData{bigPaper(1), bigPaper(2)} {
		for _, n := range d.Nodes {
			texts = append(texts, papertree.SplitSentences(n.Text)...)
		}
	}
	texts = append(texts, "", "Table 3: BLEU 28.4 on WMT 2014", "What?")
	got, ok := embedQuantized(ctx, emb, texts)
	want, wantOK := embedQuantized(ctx, embedOnly{emb}, texts)
	if !ok || !wantOK || len(got) != len(texts) {
		t.Fatalf("ok %v/%v, %d vectors for %d texts", ok, wantOK, len(got), len(texts))
	}
	if !reflect.DeepEqual(got, want) {
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("text %d (%.40q): EmbedEach codes differ from Embed's", i, texts[i])
			}
		}
	}
	if _, ok := embedQuantized(ctx, emb, nil); !ok {
		t.Fatal("an empty batch failed")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, ok := embedQuantized(cancelled, emb, texts); ok {
		t.Fatal("a cancelled batch reported success")
	}
}

// BenchmarkSentenceVectors embeds and quantizes, with an empty cache, the
// sentences of the first sentVecTop+sentVecKeyword passages of each paper
// (what a cold question does for each paper it searches): the papers of
// $PAPERTREE_BENCH_DB (its first 10), else two generated ones.
func BenchmarkSentenceVectors(b *testing.B) {
	ctx := context.Background()
	emb := embedding.NewBuiltin()
	ds := benchPapers(b)
	leaves := make([][]int, len(ds))
	for i, d := range ds {
		for o, n := range d.Nodes {
			if n.IsLeaf() && len(leaves[i]) < sentVecTop+sentVecKeyword {
				leaves[i] = append(leaves[i], o)
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, d := range ds {
			d.sentVec = sentVecCache{}
			d.sentenceVecs(ctx, emb, leaves[j])
		}
	}
}
