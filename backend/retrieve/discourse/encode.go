package discourse

import (
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"fmt"
	"io"
	"math"
)

// wire is the stored form of a DiscourseTree: sentence offsets (not their
// text, which the paragraphs hold), nodes with their condensed texts, and
// node vectors quantised to int8 with one scale per vector (cosine ranking
// is unchanged to about 1e-2, a quarter of the float32 bytes).
type wire struct {
	Version   string
	Sentences []Sentence
	Nodes     []Node
	Root      int
	Dim       int
	Q         []int8
	Scale     []float32
	Summaries int
	Fallbacks int
}

// Encode serialises t (gzip'd gob).
func Encode(t *DiscourseTree) ([]byte, error) {
	w := wire{Version: Version, Sentences: t.Sentences, Nodes: t.Nodes, Root: t.Root, Summaries: t.Summaries, Fallbacks: t.Fallbacks}
	if len(t.Vecs) > 0 {
		w.Dim = len(t.Vecs[0])
	}
	w.Q = make([]int8, 0, len(t.Vecs)*w.Dim)
	for _, v := range t.Vecs {
		m := float32(0)
		for _, x := range v {
			m = max(m, float32(math.Abs(float64(x))))
		}
		sc := m / 127
		w.Scale = append(w.Scale, sc)
		for k := 0; k < w.Dim; k++ {
			q := int8(0)
			if sc > 0 && k < len(v) {
				q = int8(math.Round(float64(v[k] / sc)))
			}
			w.Q = append(w.Q, q)
		}
	}
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	if err := gob.NewEncoder(z).Encode(&w); err != nil {
		return nil, err
	}
	if err := z.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Decode restores a tree stored by Encode; paras are the paragraph texts
// (by index) its sentences point into. A tree of another Version, or one
// whose offsets do not fit the paragraphs, is an error (rebuild it).
func Decode(data []byte, paras []string) (*DiscourseTree, error) {
	z, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(z)
	if err != nil {
		return nil, err
	}
	var w wire
	if err := gob.NewDecoder(bytes.NewReader(raw)).Decode(&w); err != nil {
		return nil, err
	}
	if w.Version != Version {
		return nil, fmt.Errorf("discourse tree version %q, want %q", w.Version, Version)
	}
	t := &DiscourseTree{Sentences: w.Sentences, Nodes: w.Nodes, Root: w.Root, Summaries: w.Summaries, Fallbacks: w.Fallbacks}
	for i := range t.Sentences {
		s := &t.Sentences[i]
		if s.Para < 0 || s.Para >= len(paras) || s.Start < 0 || s.End > len(paras[s.Para]) || s.Start > s.End {
			return nil, fmt.Errorf("discourse tree sentence %d does not fit its paragraph", i)
		}
		s.Text = paras[s.Para][s.Start:s.End]
	}
	if len(w.Scale)*w.Dim != len(w.Q) || len(w.Scale) != len(w.Nodes) {
		return nil, fmt.Errorf("discourse tree vectors do not match its nodes")
	}
	t.Vecs = make([][]float32, len(w.Scale))
	for i, sc := range w.Scale {
		v := make([]float32, w.Dim)
		var n float64
		for k := range v {
			v[k] = float32(w.Q[i*w.Dim+k]) * sc
			n += float64(v[k]) * float64(v[k])
		}
		if n > 0 {
			inv := float32(1 / math.Sqrt(n))
			for k := range v {
				v[k] *= inv
			}
		}
		t.Vecs[i] = v
	}
	return t, nil
}
