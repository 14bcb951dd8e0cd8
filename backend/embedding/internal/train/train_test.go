package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
)

func TestJacobiEigen(t *testing.T) {
	cases := []struct {
		name string
		k    int
		a    []float64
	}{
		{"diagonal", 2, []float64{3, 0, 0, 1}},
		{"2x2", 2, []float64{2, 1, 1, 2}},
		{"3x3", 3, []float64{4, 1, 2, 1, 3, 0, 2, 0, 5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vals, vecs := jacobiEigen(c.a, c.k)
			for e := 0; e < c.k; e++ {
				for r := 0; r < c.k; r++ {
					var av float64
					for j := 0; j < c.k; j++ {
						av += c.a[r*c.k+j] * vecs[j*c.k+e]
					}
					if math.Abs(av-vals[e]*vecs[r*c.k+e]) > 1e-9 {
						t.Fatalf("A v != λ v for eigenpair %d", e)
					}
				}
			}
		})
	}
}

// TestRSVD checks that randomized SVD recovers the singular values of a
// sparse matrix built with known spectrum.
func TestRSVD(t *testing.T) {
	const n, k = 60, 4
	rng := rand.New(rand.NewPCG(7, 7))
	u := make([]float64, n*k)
	for i := range u {
		u[i] = rng.NormFloat64()
	}
	orth(u, n, k)
	g := gram(u, n, k)
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			want := 0.0
			if a == b {
				want = 1
			}
			if math.Abs(g[a*k+b]-want) > 1e-9 {
				t.Fatalf("orth: QᵀQ[%d,%d] = %v", a, b, g[a*k+b])
			}
		}
	}
	s := []float64{10, 5, 2, 1}
	m := &csr{n: n, cols: n, rowPtr: make([]int, n+1)}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var v float64
			for c := 0; c < k; c++ {
				v += u[i*k+c] * s[c] * u[j*k+c]
			}
			m.col = append(m.col, int32(j))
			m.val = append(m.val, v)
		}
		m.rowPtr[i+1] = len(m.col)
	}
	_, got := rsvd(m, 3, 4, 2, 1)
	for c := 0; c < 3; c++ {
		if math.Abs(got[c]-s[c]) > 1e-6 {
			t.Errorf("singular value %d = %v, want %v", c, got[c], s[c])
		}
	}
}

// corpus makes a deterministic toy corpus with two topics so that word
// vectors have structure to find.
func corpus() []string {
	rng := rand.New(rand.NewPCG(1, 2))
	topics := [][]string{
		{"neural", "network", "training", "gradient", "layer", "encoder", "decoder", "attention", "transformer", "embedding", "loss", "optimizer", "dropout", "batch", "epoch"},
		{"annotator", "agreement", "label", "tweet", "sentiment", "corpus", "guideline", "crowdworker", "kappa", "dispute", "majority", "vote", "polarity", "emoji", "hashtag"},
	}
	var docs []string
	for d := 0; d < 400; d++ {
		words := topics[d%2]
		var b strings.Builder
		for w := 0; w < 40; w++ {
			fmt.Fprintf(&b, "%s%d ", words[rng.IntN(len(words))], rng.IntN(3))
		}
		docs = append(docs, b.String())
	}
	return docs
}

func TestTrainDeterministicAndErrors(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Dim = 8
	docs := corpus()
	a, err := Train(docs, "toy", cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Train(docs, "toy", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if a.Fingerprint() != b.Fingerprint() {
		t.Errorf("two trainings differ: %s vs %s", a.Fingerprint(), b.Fingerprint())
	}
	if a.NVec == 0 || a.VecDim != 8 || len(a.Common) != cfg.Common {
		t.Errorf("model: %d vectors of width %d, %d common components", a.NVec, a.VecDim, len(a.Common))
	}
	for _, c := range []struct {
		name string
		docs []string
	}{
		{"no documents", nil},
		{"too few words", []string{"alpha beta", "alpha beta"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Train(c.docs, "bad", cfg); err == nil {
				t.Error("Train succeeded")
			}
		})
	}
}

func TestTrainFindsTopics(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Dim = 8
	// With two topics the topic axis is itself a top principal direction,
	// so common-component removal would erase what this test looks for.
	cfg.Common = 0
	m, err := Train(corpus(), "toy", cfg)
	if err != nil {
		t.Fatal(err)
	}
	e, err := embedding.NewBuiltinWith(m, embedding.Options{LexDim: 16, SemWeight: 1, SemIDFPower: 1})
	if err != nil {
		t.Fatal(err)
	}
	vec := func(w string) []float32 {
		v := e.SemanticVector([]string{w})
		if v == nil {
			t.Fatalf("no vector for %q", w)
		}
		return v
	}
	cos := func(a, b []float32) float64 {
		var s float64
		for i := range a {
			s += float64(a[i]) * float64(b[i])
		}
		return s
	}
	cases := []struct{ name, word, near, far string }{
		{"model words", "encoder0", "attention2", "tweet1"},
		{"annotation words", "kappa1", "annotator0", "gradient2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := vec(c.word)
			if n, f := cos(w, vec(c.near)), cos(w, vec(c.far)); n <= f {
				t.Errorf("cos(%s,%s)=%.3f <= cos(%s,%s)=%.3f", c.word, c.near, n, c.word, c.far, f)
			}
		})
	}
}
