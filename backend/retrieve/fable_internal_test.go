package retrieve

import (
	"context"
	"math"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// specTree is the worked test vector of specs/fable.md 2.4: r -> {s1 ->
// {l1, l2}, s2 -> {l3}} with cosines r .5, s1 .6, s2 .2, l1 .9, l2 .3,
// l3 .4 and leaf tokens 300, 200, 400.
func specTree() (*fTree, []float32) {
	unit := func(c float64) []float32 { return []float32{float32(c), float32(math.Sqrt(1 - c*c))} }
	leaf := func(id int64, tok int) *papertree.Node {
		return &papertree.Node{ID: id, Kind: papertree.KindSegment, Text: "text", Tokens: tok, PageStart: 1, PageEnd: 1}
	}
	l1, l2, l3 := leaf(3, 300), leaf(4, 200), leaf(6, 400)
	s1 := &papertree.Node{ID: 2, Kind: papertree.KindSection, Title: "s1", Children: []*papertree.Node{l1, l2}}
	s2 := &papertree.Node{ID: 5, Kind: papertree.KindSection, Title: "s2", Children: []*papertree.Node{l3}}
	root := &papertree.Node{ID: 1, Kind: papertree.KindRoot, Title: "r", Children: []*papertree.Node{s1, s2}}
	d := NewPaperData(&papertree.Paper{ID: 7, Title: "r", Root: root}, nil, nil, nil)
	t := &fTree{d: d, depth: make([]int, len(d.Nodes)), tokens: make([]int, len(d.Nodes)), toc: make([]string, len(d.Nodes)), vec: make([][]float32, len(d.Nodes)), kids: make([][]int, len(d.Nodes))}
	cos := map[string]float64{"r": .5, "s1": .6, "s2": .2}
	leafCos := map[int64]float64{3: .9, 4: .3, 6: .4}
	for o, n := range d.Nodes {
		if p := d.Parent[o]; p >= 0 {
			t.depth[o] = t.depth[p] + 1
			t.kids[p] = append(t.kids[p], o)
		} else {
			t.depth[o] = 1
		}
		if n.IsLeaf() {
			t.vec[o] = unit(leafCos[n.ID])
			d.Seg[o] = t.vec[o]
		} else {
			t.vec[o] = unit(cos[n.Title])
		}
	}
	for o := len(d.Nodes) - 1; o >= 0; o-- {
		if d.Nodes[o].IsLeaf() {
			t.tokens[o] = d.Nodes[o].Tokens
		}
		if p := d.Parent[o]; p >= 0 {
			t.tokens[p] += t.tokens[o]
		}
	}
	t.total = t.tokens[0]
	return t, []float32{1, 0}
}

func TestTreeExpansionSpecVector(t *testing.T) {
	tr, qv := specTree()
	S := treeScores(tr, qv)
	want := map[int64]float64{2: 0.344444, 5: 0.270370, 1: 0.269136, 3: 0.266667, 6: 0.211111, 4: 0.200000}
	for o, n := range tr.d.Nodes {
		if math.Abs(S[o]-want[n.ID]) > 1e-5 {
			t.Errorf("S(node %d %q) = %.6f, want %.6f", n.ID, n.Title, S[o], want[n.ID])
		}
	}
	var fb []string
	cs := fableNodes(context.Background(), Request{Query: "q", Budget: 600}, qv, []*fTree{tr}, &fb)
	var got []int64
	for _, c := range cs {
		got = append(got, tr.d.Nodes[c.o].ID)
	}
	if len(got) != 2 || got[0] != 3 || got[1] != 4 {
		t.Errorf("selection with B_max 600 gave leaves %v, want [3 4] (s1's chunks)", got)
	}
	if len(fb) != 1 {
		t.Errorf("fallbacks %v: want the navigation fallback only", fb)
	}
}

func TestRouteRules(t *testing.T) {
	tests := []struct {
		name, q string
		papers  int
		want    string
	}{
		{"compare datasets", "Compare the datasets and metrics of these papers.", 5, StructTable},
		{"which highest", "Which paper reports the highest F1 on SQuAD?", 5, StructTable},
		{"citations", "Which of these papers cite each other?", 5, StructGraph},
		{"builds on", "How does the second method build on the first one?", 3, StructGraph},
		{"recommend", "Which method should I use given a small labelled dataset?", 4, StructAlgorithm},
		{"summarize", "Summarize what these papers say about evaluation.", 4, StructCatalogue},
		{"single fact", "What learning rate was used?", 4, StructChunk},
		{"one paper compare", "Compare the encoder and the decoder.", 1, StructChunk},
		{"one paper summary", "Summarize this paper.", 1, StructCatalogue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why := RouteRules(tt.q, tt.papers)
			if got != tt.want || why == "" {
				t.Errorf("RouteRules(%q) = %s (%s), want %s", tt.q, got, why, tt.want)
			}
		})
	}
}

func TestQuestionAspects(t *testing.T) {
	tests := []struct {
		name, q string
		want    []string
	}{
		{"coordinated", "Compare the datasets and metrics of these papers", []string{"datasets", "metrics"}},
		{"list", "Compare the model, dataset and results across papers", []string{"model", "dataset", "results"}},
		{"plain", "Which papers use dropout?", []string{"dropout"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := QuestionAspects(tt.q)
			if len(got) != len(tt.want) {
				t.Fatalf("QuestionAspects(%q) = %q, want %q", tt.q, got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("QuestionAspects(%q) = %q, want %q", tt.q, got, tt.want)
				}
			}
		})
	}
}

func TestCompareTopic(t *testing.T) {
	tests := []struct{ name, q, want string }{
		{"of", "Compare the datasets and metrics of the sentence classification papers?", "the sentence classification papers"},
		{"across", "Compare the model and results across zero-shot detection papers", "zero-shot detection papers"},
		{"no topic", "Compare the datasets of these papers", ""},
		{"not a comparison", "Which papers use dropout?", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compareTopic(tt.q); got != tt.want {
				t.Errorf("compareTopic(%q) = %q, want %q", tt.q, got, tt.want)
			}
		})
	}
}
