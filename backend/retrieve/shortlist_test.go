package retrieve_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
)

// recordingIndex records the papers each keyword search is scoped to.
type recordingIndex struct {
	retrieve.Index
	scopes []int
}

func (r *recordingIndex) SearchText(ctx context.Context, q string, ids []int64, limit int) ([]store.Hit, error) {
	r.scopes = append(r.scopes, len(ids))
	return r.Index.SearchText(ctx, q, ids, limit)
}

// In a large library a word many titles share ("attention") partly names
// many papers; only the best few of them join the paper-vector shortlist,
// so the keyword search stays on a short list (at 20,800 papers the whole
// match set cost 220 ms a question).
func TestShortlistBoundsPartlyNamedPapers(t *testing.T) {
	var papers []*papertree.Paper
	for i := 0; i < 60; i++ {
		title := fmt.Sprintf("Attention Networks for Task %d", i)
		body := fmt.Sprintf("We study task %d with an attention network trained on corpus %d and report accuracy.", i, i)
		leaf := &papertree.Node{Kind: papertree.KindSegment, Text: body, Tokens: papertree.CountTokens(body)}
		papers = append(papers, &papertree.Paper{Title: title, Path: fmt.Sprintf("/p%d.pdf", i), Pages: 1, Root: &papertree.Node{
			Kind: papertree.KindRoot, Title: title, Children: []*papertree.Node{{Kind: papertree.KindSection, Title: "1 Method", Children: []*papertree.Node{leaf}}}}})
	}
	ix, _ := setup(t, papers...)
	rec := &recordingIndex{Index: ix}
	strat, _ := retrieve.Get(retrieve.Default)
	res, err := strat.Retrieve(context.Background(), rec, retrieve.Request{Query: "Which corpus do the attention networks use?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evidence) == 0 {
		t.Fatal("no evidence")
	}
	if len(rec.scopes) == 0 || rec.scopes[0] == 0 || rec.scopes[0] > 40 {
		t.Fatalf("keyword search scoped to %v papers, want a shortlist of 1-40", rec.scopes)
	}
}
