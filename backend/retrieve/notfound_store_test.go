package retrieve_test

import (
	"context"
	"github.com/papertree/papertree/backend/query"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// QuestionTermUse reads the papers from a real store: a word only in the
// bibliography has no body use; an unknown paper is skipped.
func TestQuestionTermUse(t *testing.T) {
	leaf := func(s string) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Text: s, Tokens: papertree.CountTokens(s)}
	}
	refs := &papertree.Node{Kind: papertree.KindSection, Title: "References", Role: papertree.RoleReferences, Children: []*papertree.Node{
		leaf("N. Srivastava, G. Hinton. 2014. Dropout: a simple way to prevent neural networks from overfitting. JMLR 15.")}}
	p := &papertree.Paper{Title: "Word vectors", Path: "/w.pdf", Pages: 2, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Word vectors",
		Children: []*papertree.Node{
			{Kind: papertree.KindSection, Title: "1 Method", Children: []*papertree.Node{leaf("We train word vectors with a learning rate of 0.05 on a large corpus.")}},
			refs,
		}}}
	ix, ids := setup(t, p)
	uses, err := retrieve.QuestionTermUse(context.Background(), ix, query.Parse("What dropout rate does the encoder apply?"), []int64{ids[0], ids[0] + 99})
	if err != nil {
		t.Fatal(err)
	}
	byStem := map[string]retrieve.TermUse{}
	for _, u := range uses {
		byStem[u.Stem] = u
	}
	tests := []struct {
		name, stem string
		body, refs int
	}{
		{"only in the bibliography", "dropout", 0, 1},
		{"in the body", "rate", 1, 0},
		{"nowhere", "encod", 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, ok := byStem[tc.stem]
			if !ok || u.Body != tc.body || u.Refs != tc.refs {
				t.Errorf("use of %q = %+v (found %v), want body %d refs %d; all %+v", tc.stem, u, ok, tc.body, tc.refs, uses)
			}
		})
	}
}
