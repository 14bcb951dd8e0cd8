package retrieve_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/retrieve"
)

// TestAutoRouteLLMHook: the router hook's structure word picks the route;
// an error, an unknown word or a reply past the deadline leaves it to the
// rules, with the reason among the fallbacks.
func TestAutoRouteLLMHook(t *testing.T) {
	ix, _ := library6(t)
	const q = "How are tweets labelled as hate speech?" // no list or comparison cue
	tests := []struct {
		name     string
		route    func(ctx context.Context) (string, string, error)
		want, by string
		fallback string
	}{
		{"table", func(context.Context) (string, string, error) { return "table", "sets papers side by side", nil }, query.RouteCompare, "llm", ""},
		{"list", func(context.Context) (string, string, error) { return "list", "", nil }, query.RouteList, "llm", ""},
		{"chunk", func(context.Context) (string, string, error) { return "chunk", "one fact", nil }, query.RouteSingle, "llm", ""},
		{"unknown word", func(context.Context) (string, string, error) { return "graph", "", nil }, query.RouteSingle, "rules", `the LLM answered "graph"`},
		{"error", func(context.Context) (string, string, error) {
			return "", "", papertree.Errorf(papertree.ELLM, "HTTP 500")
		}, query.RouteSingle, "rules", "HTTP 500"},
		{"past the deadline", func(ctx context.Context) (string, string, error) {
			select {
			case <-ctx.Done():
				return "", "", ctx.Err()
			case <-time.After(3 * time.Second):
				return "table", "", nil
			}
		}, query.RouteSingle, "rules", "no reply within 50ms)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var titles []string
			// A share of a budget is rarely whole milliseconds (2 s / 6):
			// the reason shows it rounded, not as "50.333333ms".
			h := &retrieve.MultiDocLLM{RouteDeadline: 50*time.Millisecond + 333333*time.Nanosecond,
				AutoRoute: func(ctx context.Context, query string, ts []string) (string, string, error) {
					titles = ts
					return tc.route(ctx)
				}}
			t0 := time.Now()
			r := retrieve.AutoRoute(retrieve.WithMultiDocLLM(context.Background(), h), ix, retrieve.Request{Query: q})
			if time.Since(t0) > 2*time.Second {
				t.Errorf("routing took %s with a 50ms deadline", time.Since(t0))
			}
			if r.Route != tc.want || r.By != tc.by || r.Why == "" {
				t.Errorf("routing %+v, want %s by %s", r, tc.want, tc.by)
			}
			if tc.fallback == "" && r.Fallback != "" || !strings.Contains(r.Fallback, tc.fallback) {
				t.Errorf("fallback %q, want %q", r.Fallback, tc.fallback)
			}
			if len(titles) == 0 {
				t.Error("the router saw no paper titles")
			}
		})
	}
	// One paper in scope: the hook is not asked.
	asked := false
	h := &retrieve.MultiDocLLM{AutoRoute: func(context.Context, string, []string) (string, string, error) { asked = true; return "table", "", nil }}
	if r := retrieve.AutoRoute(retrieve.WithMultiDocLLM(context.Background(), h), ix, retrieve.Request{Query: "Which papers use beam search?", PaperIDs: []int64{1}}); asked || r.Route != query.RouteSingle || r.By != "rules" {
		t.Errorf("one paper in scope: asked %v, routing %+v", asked, r)
	}
}
