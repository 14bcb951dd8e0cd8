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
// a single-paper question. The route is read from the question's form
// (offline rules); with an LLM, structrag's own steps use the model.
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
	route, why := AutoRoute(ctx, req)
	return RetrieveRoute(ctx, ix, req, route, why)
}

// AutoRoute is auto's choice for req: the route the question's form asks
// for (query.Question.Route), single when one paper is in scope. The rules
// decide, with or without an LLM: asking StructRAG's router prompt for every
// question would add a model call to each single-paper answer.
func AutoRoute(ctx context.Context, req Request) (route, why string) {
	q := req.Q()
	route, why = q.Route, q.RouteWhy
	if route == "" {
		route, why = query.RouteOf(q.Text)
	}
	if len(req.PaperIDs) == 1 && route != query.RouteSingle {
		return query.RouteSingle, "one paper in scope: " + why + ", answered from its passages"
	}
	return route, why
}

// RetrieveRoute retrieves for req along route (AutoRoute) and records the
// route and why in the result's diagnostics.
func RetrieveRoute(ctx context.Context, ix Index, req Request, route, why string) (Result, error) {
	if err := checkRequest(&req); err != nil {
		return Result{}, err
	}
	req.Question = req.Q()
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
