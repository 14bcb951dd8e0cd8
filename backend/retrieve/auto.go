package retrieve

import (
	"context"

	"github.com/papertree/papertree/backend/query"
)

// auto is the default strategy: a router over the question's reading
// (query.Question.Route). A question about what the papers say goes to
// pt-rag; "Which papers ..." gets the list of every paper whose own text
// states the property (which.go); "Compare ..." goes to structrag, whose
// router builds a table for it. With one paper in scope every question is
// a single-paper question. With an LLM, StructRAG's router prompt may turn
// a question the rules read as single-paper into a comparison (a "table");
// the rules decide everything else, offline or when the model fails.
type auto struct{}

func init() { Register(auto{}) }

func (auto) Name() string { return "auto" }
func (auto) Description() string {
	return "Router (default): pt-rag for questions about what papers say, a verified list of papers for \"Which papers ...\", structrag's table for comparisons."
}

func (auto) Retrieve(ctx context.Context, ix Index, req Request) (Result, error) {
	if err := checkRequest(&req); err != nil {
		return Result{}, err
	}
	q := req.Q()
	req.Question = q
	route, why := q.Route, q.RouteWhy
	if route == "" {
		route, why = query.RouteOf(q.Text)
	}
	if len(req.PaperIDs) == 1 && route != query.RouteSingle {
		route, why = query.RouteSingle, "one paper in scope: "+why+", answered from its passages"
	}
	if route == query.RouteSingle && len(req.PaperIDs) != 1 {
		if h := multiDocLLM(ctx); h.Route != nil {
			if typ, r, err := h.Route(ctx, req.Query, nil); err == nil && typ == StructTable {
				route, why = query.RouteCompare, "the LLM router chose a table: "+r
			}
		}
	}
	var res Result
	var err error
	switch route {
	case query.RouteList:
		res, err = whichPapers(ctx, ix, req)
		res.List = true
	case query.RouteCompare:
		res, err = structrag{}.Retrieve(ctx, ix, req)
	default:
		res, err = ptrag{}.Retrieve(ctx, ix, req)
	}
	if err != nil {
		return Result{}, err
	}
	res.Diag.Route, res.Diag.RouteWhy = route, why
	return res, nil
}
