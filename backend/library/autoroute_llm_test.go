package library

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/papertree"
)

// TestAskAutoRouterLLM: with an LLM, the default strategy asks StructRAG's
// router prompt which answer structure a library-wide question needs and
// follows it; a failed, malformed or slow router leaves the choice to the
// rules (the question's form), and the diagnostics say who chose.
func TestAskAutoRouterLLM(t *testing.T) {
	const single = "How are headings and glyphs grouped?"
	// A slow router: its reply comes long after the router's deadline
	// (a sixth of the 1.2 s answer budget), well before the server closes.
	slow := func(chatCall) reply {
		time.Sleep(1500 * time.Millisecond)
		return reply{content: `{"type": "table"}`}
	}
	tests := []struct {
		name     string
		question string
		router   func(chatCall) reply
		budget   time.Duration
		route    string
		by       string
		why      string
		fallback string
	}{
		{name: "the LLM routes a question without a list cue to the list", question: single,
			router: func(chatCall) reply {
				return reply{content: `{"type": "list", "reason": "the reader wants the papers that group glyphs"}`}
			},
			route: papertree.RouteList, by: "llm", why: "LLM router (list): the reader wants the papers"},
		{name: "the LLM agrees with the form", question: "Which papers group glyphs by size?",
			route: papertree.RouteList, by: "llm", why: "LLM router (list): asks which papers"},
		{name: "malformed reply: the rules decide", question: single,
			router: func(chatCall) reply { return reply{content: "I would draw a bar chart."} },
			route:  "single", by: "rules", why: "no list or comparison cue",
			fallback: "auto router: rules from the question's form (the LLM router named no structure (table, list or chunk): I would draw"},
		{name: "server error: the rules decide", question: "Which papers group glyphs by size?",
			router: func(chatCall) reply { return reply{status: 500} },
			route:  papertree.RouteList, by: "rules", why: "asks for the papers that have a property",
			fallback: "auto router: rules from the question's form ("},
		{name: "slow router: its deadline passes and the rules decide", question: single, router: slow, budget: 1200 * time.Millisecond,
			route: "single", by: "rules", why: "no list or comparison cue",
			fallback: "auto router: rules from the question's form (no reply within 200ms)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newLLMServer(t)
			multiDocReplies(s)
			if tt.router != nil {
				s.set(llm.OpAutoRoute, tt.router)
			}
			l := openLib(t, nil)
			dir := t.TempDir()
			testPDF(t, dir, "a.pdf")
			testPDF(t, dir, "b.pdf")
			index(t, l, dir)
			cfg := *s.config()
			if tt.budget > 0 {
				cfg.AnswerBudget = tt.budget
			}
			if _, err := l.ConfigureLLM(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			a, err := l.Ask(context.Background(), AskRequest{Question: tt.question, Budget: 200})
			if err != nil {
				t.Fatal(err)
			}
			if a.Diag.Route != tt.route || a.Diag.RouteBy != tt.by || !strings.Contains(a.Diag.RouteWhy, tt.why) {
				t.Errorf("route %q by %q (%q), want %q by %q (%q)", a.Diag.Route, a.Diag.RouteBy, a.Diag.RouteWhy, tt.route, tt.by, tt.why)
			}
			if n := s.count(llm.OpAutoRoute); n == 0 {
				t.Error("the router was not asked")
			}
			for _, c := range s.Calls() {
				if c.Op == llm.OpAutoRoute && (!c.JSON || !strings.Contains(c.User, "Query:\n"+tt.question) || !strings.Contains(c.User, "The titles of the docs are: ")) {
					t.Errorf("router request: JSON %v, user %q", c.JSON, c.User)
				}
			}
			fb := strings.Join(a.Diag.Fallbacks, "\n")
			if (tt.fallback == "") != !strings.Contains(fb, "auto router:") || tt.fallback != "" && !strings.Contains(fb, tt.fallback) {
				t.Errorf("fallbacks:\n%s\nwant %q", fb, tt.fallback)
			}
			if tt.route == papertree.RouteList && len(a.Papers) == 0 && !a.NotFound {
				t.Errorf("a list route gave no list of papers: %q", a.Text)
			}
			saved, err := l.Answer(context.Background(), a.ID)
			if err != nil || saved.Diag.RouteBy != tt.by {
				t.Errorf("saved answer: route by %q (%v), want %q", saved.Diag.RouteBy, err, tt.by)
			}
		})
	}
	t.Run("one paper in scope: no router call", func(t *testing.T) {
		s := newLLMServer(t)
		multiDocReplies(s)
		l := askLib(t, s, "a.pdf", "b.pdf")
		a, err := l.Ask(context.Background(), AskRequest{Question: "Which papers group glyphs by size?", PaperIDs: []int64{1}, Budget: 200})
		if err != nil {
			t.Fatal(err)
		}
		if n := s.count(llm.OpAutoRoute); n != 0 || a.Diag.Route != "single" || a.Diag.RouteBy != "rules" {
			t.Errorf("%d router calls, route %q by %q", n, a.Diag.Route, a.Diag.RouteBy)
		}
	})
}
