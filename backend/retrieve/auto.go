package retrieve

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/store"
)

// auto is the default strategy: a router over the question's reading
// (query.Question.Route). A question about what the papers say goes to
// pt-rag; "Which papers ..." gets the list of every paper whose own text
// states the property (which.go); "Compare ..." goes to structrag, whose
// router builds a table for it. With one paper in scope every question is
// a single-paper question. With an LLM, StructRAG's router prompt chooses
// the route (AutoRoute), with the question's form (offline rules) as its
// fallback; structrag's own steps use the model too.
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
	r := AutoRoute(ctx, ix, req)
	res, err := RetrieveRoute(ctx, ix, req, r.Route, r.Why)
	if err != nil {
		return Result{}, err
	}
	r.Apply(&res.Diag)
	return res, nil
}

// Routing is auto's choice: the route, why, who chose it ("llm" or
// "rules") and, when the LLM router was asked but not followed, why not.
type Routing struct {
	Route, Why, By string
	Fallback       string
}

// Apply records the routing in d.
func (r Routing) Apply(d *papertree.Diagnostics) {
	d.Route, d.RouteWhy, d.RouteBy = r.Route, r.Why, r.By
	if r.Fallback != "" {
		d.Fallbacks = append(d.Fallbacks, r.Fallback)
	}
}

// autoRouteTitles is how many paper titles the LLM router reads as the
// documents' core content (StructRAG's C): the papers in scope, or the
// library's papers nearest to the question.
const autoRouteTitles = 20

// DefaultRouteDeadline bounds the LLM router when the caller sets none
// (MultiDocLLM.RouteDeadline): past it, the rules decide.
const DefaultRouteDeadline = 10 * time.Second

// AutoRoute is auto's choice for req. With one paper in scope every
// question is a single-paper question. Otherwise, with an LLM
// (MultiDocLLM.AutoRoute), StructRAG's router prompt chooses between a
// comparison table, a list of papers and passages (chunks) from the
// question and the titles of the papers, within the router deadline; when
// the model fails, times out or names no structure, or without an LLM, the
// route the question's form asks for decides (query.Question.Route).
func AutoRoute(ctx context.Context, ix Index, req Request) Routing {
	q := req.Q()
	route, why := q.Route, q.RouteWhy
	if route == "" {
		route, why = query.RouteOf(q.Text)
	}
	if len(req.PaperIDs) == 1 {
		if route != query.RouteSingle {
			return Routing{Route: query.RouteSingle, Why: "one paper in scope: " + why + ", answered from its passages", By: "rules"}
		}
		return Routing{Route: route, Why: why, By: "rules"}
	}
	rules := Routing{Route: route, Why: why, By: "rules"}
	h := multiDocLLM(ctx)
	if h.AutoRoute == nil {
		return rules
	}
	titles := routeTitles(ctx, ix, req)
	d := h.RouteDeadline
	if d <= 0 {
		d = DefaultRouteDeadline
	}
	rctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	typ, reason, err := h.AutoRoute(rctx, req.Query, titles)
	if err == nil && rctx.Err() != nil {
		err = rctx.Err()
	}
	if err != nil {
		msg := papertree.ErrorMessage(err)
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(rctx.Err(), context.DeadlineExceeded) {
			msg = "no reply within " + d.Round(time.Millisecond).String()
		}
		rules.Fallback = "auto router: rules from the question's form (" + msg + ")"
		return rules
	}
	r, ok := llmRoutes[typ]
	if !ok {
		rules.Fallback = fmt.Sprintf("auto router: rules from the question's form (the LLM answered %q)", typ)
		return rules
	}
	if reason == "" {
		reason = "the LLM router chose " + typ
	}
	return Routing{Route: r, Why: "LLM router (" + typ + "): " + reason, By: "llm"}
}

// llmRoutes maps the router's structure words to auto's routes.
var llmRoutes = map[string]string{"table": query.RouteCompare, "list": query.RouteList, "chunk": query.RouteSingle}

// routeTitles are the titles the router reads: the papers in scope, else
// the library's papers nearest to the question.
func routeTitles(ctx context.Context, ix Index, req Request) []string {
	ids := req.PaperIDs
	if len(ids) == 0 {
		if qv, err := ix.Embedder().EmbedQuery(ctx, req.Query); err == nil {
			if hits, err := ix.SearchVectors(ctx, store.SpacePaper, qv, nil, autoRouteTitles); err == nil {
				for _, h := range hits {
					ids = append(ids, h.PaperID)
				}
			}
		}
	}
	var titles []string
	for _, id := range ids {
		if len(titles) == autoRouteTitles {
			break
		}
		if d, err := ix.Paper(ctx, id); err == nil && d.Paper.Title != "" {
			titles = append(titles, d.Paper.Title)
		}
	}
	return titles
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
