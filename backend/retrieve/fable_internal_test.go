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

// TestTreeExpansionSpecVector checks Eq. 7 on the spec's worked vector with
// S the mean of the signals each node has: leaves have no S_child, the root
// no S_inh. By hand: S_sim r .5, s1 .3, s2 .1, l1 .3, l2 .1, l3 .4/3;
// S_inh .5 below the root; l1 (.3+.5)/2 = .4, l2 .3, l3 .316667;
// s1 (.3+.5+.35)/3 = .383333, s2 (.1+.5+.316667)/3 = .305556;
// r (.5+.344444)/2 = .422222. (The spec's literal reading counts the
// missing signal as 0 and gives s1 .344, l1 .267: every leaf is scaled by
// 2/3 against a section.)
func TestTreeExpansionSpecVector(t *testing.T) {
	tr, qv := specTree()
	S := treeScores(tr, qv)
	want := map[int64]float64{1: 0.422222, 2: 0.383333, 3: 0.4, 4: 0.3, 5: 0.305556, 6: 0.316667}
	for o, n := range tr.d.Nodes {
		if math.Abs(S[o]-want[n.ID]) > 1e-5 {
			t.Errorf("S(node %d %q) = %.6f, want %.6f", n.ID, n.Title, S[o], want[n.ID])
		}
	}
	// B_max 600: r (900 tokens) can never fit and is passed over; l1 (300)
	// is taken, s1 absorbs it for 200 more, and l3 (400 > 100 left) ends
	// the selection: s1's chunks l1, l2.
	var fb []string
	cs := fableNodes(context.Background(), Request{Query: "q", Budget: 600}, qv, []*fTree{tr}, &fb)
	if got := leafIDs(tr, cs); len(got) != 2 || got[0] != 3 || got[1] != 4 {
		t.Errorf("selection with B_max 600 gave leaves %v, want [3 4] (s1's chunks)", got)
	}
	if len(fb) != 1 {
		t.Errorf("fallbacks %v: want the navigation fallback only", fb)
	}
}

// TestTreeExpansionStopsAtFirstMisfit: once a paper's next-best node does
// not fit, smaller and worse nodes of that paper do not fill the rest of
// the budget (Eq. 8's prefix), while another paper's nodes still compete.
func TestTreeExpansionStopsAtFirstMisfit(t *testing.T) {
	// The spec tree with cos(s1) = 0 (S(s1) = (0+.5+.35)/3 = .283, below
	// l2's .3) and leaves l1 300, l2 100, l3 200 tokens. B_max 450: r (600)
	// never fits; l1 (.4) is taken, 150 left; l3 (.317, 200) does not fit,
	// so the paper is done: l2 (.3, 100) would fit but is ranked below l3.
	tr, qv := specTree()
	tr.vec[tr.d.Order(2)] = []float32{0, 1}
	setLeafTokens(tr, map[int64]int{4: 100, 6: 200})
	var fb []string
	cs := fableNodes(context.Background(), Request{Query: "q", Budget: 450}, qv, []*fTree{tr}, &fb)
	if got := leafIDs(tr, cs); len(got) != 1 || got[0] != 3 {
		t.Errorf("selection with B_max 450 gave leaves %v, want [3]: l3 does not fit the 150 left, so l2 (ranked below it) must not fill the rest", got)
	}
	// A second paper (spec scores; l1 100, l2 40, l3 500 tokens) goes on
	// after the first is done: l1 of paper 7 (300), l1 of paper 8 (100),
	// s1 of paper 8 (+40), then l3 of paper 7 does not fit the 10 left.
	tr2, _ := specTree()
	tr2.d.Paper.ID = 8
	setLeafTokens(tr2, map[int64]int{3: 100, 4: 40, 6: 500})
	cs = fableNodes(context.Background(), Request{Query: "q", Budget: 450}, qv, []*fTree{tr, tr2}, &fb)
	papers := map[int64]int{}
	for _, c := range cs {
		papers[c.d.Paper.ID]++
	}
	if papers[7] != 1 || papers[8] != 2 {
		t.Errorf("two papers, B_max 450: evidence per paper %v, want 1 from paper 7 (l1) and 2 from paper 8 (l1, l2)", papers)
	}
}

// setLeafTokens sets leaf token counts by node id and recomputes the
// subtree totals.
func setLeafTokens(tr *fTree, tok map[int64]int) {
	for o := len(tr.d.Nodes) - 1; o >= 0; o-- {
		n := tr.d.Nodes[o]
		if n.IsLeaf() {
			if v, ok := tok[n.ID]; ok {
				n.Tokens = v
			}
			tr.tokens[o] = n.Tokens
		} else {
			tr.tokens[o] = 0
			for _, k := range tr.kids[o] {
				tr.tokens[o] += tr.tokens[k]
			}
		}
	}
	tr.total = tr.tokens[0]
}

func leafIDs(tr *fTree, cs []cand) []int64 {
	var got []int64
	for _, c := range cs {
		got = append(got, tr.d.Nodes[c.o].ID)
	}
	return got
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
