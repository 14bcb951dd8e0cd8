package query

import (
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, q   string
		kind      string
		names     []string
		refs      []string
		focus     []string
		citations bool
	}{
		{"multi-word name", "How many GPUs were used to train Stable Diffusion?", KindFactual, []string{"GPUs", "Stable Diffusion"}, nil, []string{}, false},
		{"citation of authors is a reference, not a name", "Do Khan and Thomas (2008) find that nonconvex adjustment costs cause lumpy investment?", KindYesNo, nil, []string{"thomas"}, nil, false},
		{"et al. and a name", "According to Vaswani et al., does the Transformer use recurrence?", KindYesNo, nil, []string{"vaswani"}, nil, false},
		{"name-like word and a name run", "What top-1 accuracy does Ring Attention reach on ImageNet classification?", KindFactual, []string{"top-1", "Ring Attention", "ImageNet"}, nil, []string{"top", "accuracy"}, false},
		{"the paper's nickname", "In the GloVe paper, what dropout rate is applied?", KindFactual, nil, []string{"glove"}, []string{"dropout", "rate"}, false},
		{"how/why", "Why does one-hot encoding break down for categorical features?", KindHowWhy, nil, nil, nil, false},
		{"citations", "Which papers cite the Adam optimizer?", KindFactual, []string{}, nil, nil, true},
		{"first word is no name", "Stable training of GANs: what helps?", KindFactual, []string{"GANs"}, nil, nil, false},
		{"a lead-in clause before the auxiliary", "After training, does the distilled model keep the high temperature?", KindYesNo, nil, nil, nil, false},
		{"a lead-in with commas of its own", "In Hinton, Vinyals and Dean's paper, is the same temperature used for the small model?", KindYesNo, nil, []string{"hinton", "vinyals", "dean"}, nil, false},
		{"a wh-question with a comma before an auxiliary", "Which model, is it the larger one, wins?", KindFactual, nil, nil, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := Parse(tc.q)
			if q.Kind != tc.kind {
				t.Errorf("kind %q, want %q", q.Kind, tc.kind)
			}
			if tc.names != nil && !slices.Equal(q.Names, tc.names) && !(len(tc.names) == 0 && len(q.Names) == 0) {
				t.Errorf("names %q, want %q", q.Names, tc.names)
			}
			for _, r := range tc.refs {
				if !q.Refs[r] {
					t.Errorf("refs %v lack %q", q.Refs, r)
				}
			}
			if tc.focus != nil && !slices.Equal(q.Focus, tc.focus) && !(len(tc.focus) == 0 && len(q.Focus) == 0) {
				t.Errorf("focus %q, want %q", q.Focus, tc.focus)
			}
			if q.Citations != tc.citations {
				t.Errorf("citations %v, want %v", q.Citations, tc.citations)
			}
			if len(q.Terms) == 0 {
				t.Error("no content terms")
			}
		})
	}
}
