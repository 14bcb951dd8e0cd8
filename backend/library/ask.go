package library

import (
	"context"
	"time"

	"github.com/papertree/papertree/backend/answer"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// AskRequest is one question to the library.
type AskRequest struct {
	Question string
	PaperIDs []int64 // empty = whole library
	Strategy string  // "" = pt-rag
	Budget   int     // tokens; 0 = default
	Params   retrieve.Params
}

// index returns the retrieval index over this library (cached papers).
func (l *Library) index() *retrieve.StoreIndex {
	l.ixOnce.Do(func() { l.ix = retrieve.NewStoreIndex(l.store, l.emb, 0) })
	return l.ix
}

// Ask retrieves evidence and answers. Without an LLM the answer is
// extractive and labelled so (Mode "extractive").
func (l *Library) Ask(ctx context.Context, req AskRequest) (*papertree.Answer, error) {
	t0 := time.Now()
	strat, err := retrieve.Get(req.Strategy)
	if err != nil {
		return nil, err
	}
	res, err := strat.Retrieve(ctx, l.index(), retrieve.Request{Query: req.Question, PaperIDs: req.PaperIDs, Budget: req.Budget, Params: req.Params})
	if err != nil {
		return nil, err
	}
	tr := time.Since(t0)
	text, notFound, _, err := answer.Extractive(ctx, l.emb, req.Question, res.Evidence, answer.DefaultOptions())
	if err != nil {
		return nil, err
	}
	diag := res.Diag
	if diag.Timings == nil {
		diag.Timings = map[string]float64{}
	}
	diag.Timings["retrieve"] = float64(tr.Microseconds()) / 1000
	diag.Timings["answer"] = float64((time.Since(t0) - tr).Microseconds()) / 1000
	return &papertree.Answer{
		Question: req.Question, Text: text, Mode: "extractive", Strategy: strat.Name(), NotFound: notFound,
		Evidence: res.Evidence, Diag: diag, PaperIDs: req.PaperIDs, CreatedAt: time.Now().UTC(),
	}, nil
}
