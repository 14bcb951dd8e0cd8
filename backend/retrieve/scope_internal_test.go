package retrieve

import (
	"context"
	"slices"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// With one paper searched, a section whose subsection was chosen first can
// still be chosen for its own passages (the text before its first
// subsection); over several papers it stays blocked by its subsection.
func TestParentSectionKeepsItsOwnPassages(t *testing.T) {
	leaf := func(text string) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Text: text, Tokens: papertree.CountTokens(text)}
	}
	sub := &papertree.Node{Kind: papertree.KindSection, Title: "3.1 Relationship to other models", Children: []*papertree.Node{leaf("Skip-gram relates to our model.")}}
	parent := &papertree.Node{Kind: papertree.KindSection, Title: "3 The model", Children: []*papertree.Node{leaf("We fix the cutoff to 100 in all experiments."), sub}}
	other := &papertree.Node{Kind: papertree.KindSection, Title: "4 Experiments", Children: []*papertree.Node{leaf("We train on Wikipedia.")}}
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{parent, other}}
	d := NewPaperData(&papertree.Paper{ID: 1, Title: "P", Root: root}, nil, nil, nil)
	qv := []float32{1, 0}
	// Section vectors: the subsection scores best, then its parent, then the other section.
	d.Sec[sub.Order], d.Sec[parent.Order], d.Sec[other.Order] = []float32{1, 0}, []float32{0.8, 0.6}, []float32{0.5, 0.87}
	var leaves []int
	S := make([]float64, len(d.Nodes))
	for o, n := range d.Nodes {
		if n.IsLeaf() {
			leaves = append(leaves, o)
			S[o] = 0.5
		}
	}
	own := parent.Children[0].Order
	for _, one := range []bool{true, false} {
		req := Request{Params: Params{Sections: 2, Paths: 8}, onePaper: one}
		scope, _, owner, _, err := pathScope(context.Background(), nil, d, req, qv, S, 0, leaves, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(scope, own); got != one {
			t.Fatalf("one paper %v: the parent's own passage in scope = %v (scope %v)", one, got, scope)
		}
		if one && (owner[own] != 1 || owner[sub.Children[0].Order] != 0) {
			t.Fatalf("owners %v: want the subsection's passage in the first share, the parent's own in the second", owner)
		}
		if dup := len(scope) - len(slices.Compact(slices.Clone(scope))); dup != 0 {
			t.Fatalf("scope %v repeats %d passages", scope, dup)
		}
	}
}
