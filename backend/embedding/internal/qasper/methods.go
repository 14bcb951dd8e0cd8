package qasper

import (
	"context"
	"math"

	"github.com/papertree/papertree/backend/papertree"
)

// Embedder ranks paragraphs by cosine between EmbedQuery(question) and
// Embed(paragraph).
type Embedder struct {
	Label string
	E     papertree.Embedder
}

func (m Embedder) Name() string { return m.Label }

func (m Embedder) Prepare(paras []string) (func(string) ([]float64, error), error) {
	vecs, err := m.E.Embed(context.Background(), paras)
	if err != nil {
		return nil, err
	}
	return func(q string) ([]float64, error) {
		qv, err := m.E.EmbedQuery(context.Background(), q)
		if err != nil {
			return nil, err
		}
		s := make([]float64, len(vecs))
		for i, v := range vecs {
			var d float64
			for j, x := range v {
				d += float64(x) * float64(qv[j])
			}
			s[i] = d
		}
		return s, nil
	}, nil
}

// Fusion combines two methods. With RRF set it is reciprocal rank fusion
// (k=60); otherwise Weight*A + (1-Weight)*B after min-max normalising each
// per question.
type Fusion struct {
	Label  string
	A, B   Method
	Weight float64
	RRF    bool
}

func (m Fusion) Name() string { return m.Label }

func (m Fusion) Prepare(paras []string) (func(string) ([]float64, error), error) {
	fa, err := m.A.Prepare(paras)
	if err != nil {
		return nil, err
	}
	fb, err := m.B.Prepare(paras)
	if err != nil {
		return nil, err
	}
	return func(q string) ([]float64, error) {
		sa, err := fa(q)
		if err != nil {
			return nil, err
		}
		sb, err := fb(q)
		if err != nil {
			return nil, err
		}
		out := make([]float64, len(sa))
		if m.RRF {
			ra, rb := Rank(sa), Rank(sb)
			for r, i := range ra {
				out[i] += 1 / float64(60+r+1)
			}
			for r, i := range rb {
				out[i] += 1 / float64(60+r+1)
			}
			return out, nil
		}
		na, nb := minMax(sa), minMax(sb)
		for i := range out {
			out[i] = m.Weight*na[i] + (1-m.Weight)*nb[i]
		}
		return out, nil
	}, nil
}

func minMax(s []float64) []float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range s {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	out := make([]float64, len(s))
	if hi > lo {
		for i, x := range s {
			out[i] = (x - lo) / (hi - lo)
		}
	}
	return out
}
