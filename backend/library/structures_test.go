package library

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/retrieve"
)

var subtreeLineRE = regexp.MustCompile(`(?m)^\t*(\d+): (.*)$`)

// TestAskRDR2WithLLMRouter runs rdr2 through the library with the in-test
// OpenAI-compatible server as its router: the router sees the paper's
// headings, its valid answers become the evidence; malformed output, ids
// that are not in the subtree, refusals and failures each fall back and are
// listed in the answer's diagnostics.
func TestAskRDR2WithLLMRouter(t *testing.T) {
	answerFirst := func(c chatCall) reply {
		// Answer the first lit paragraph of the subtree.
		for _, m := range subtreeLineRE.FindAllStringSubmatch(c.User, -1) {
			if len(strings.Fields(m[2])) > 8 {
				return reply{content: "[ANSWER] " + m[1] + ": " + strings.Join(strings.Fields(m[2])[:3], " ")}
			}
		}
		return reply{content: "Cannot answer"}
	}
	cases := []struct {
		name      string
		route     func(chatCall) reply
		fallbacks []string
		none      bool // no rdr2 fallback expected
	}{
		{"valid answers", answerFirst, nil, true},
		{"malformed output", func(chatCall) reply { return reply{content: "The answer is in the introduction."} }, []string{"rdr2 router: offline router for a step whose LLM output had no valid action"}, false},
		{"ids not in the subtree", func(chatCall) reply { return reply{content: "[ANSWER] 9999: nothing here\n[EXPAND] 0: the root"} }, []string{"rdr2 router: ", "not valid in their subtree"}, false},
		{"refusals", func(chatCall) reply { return reply{content: "Cannot answer"} }, []string{"rdr2: every route refused"}, false},
		{"server error", func(chatCall) reply { return reply{status: 500} }, []string{"rdr2_route: fallback", "rdr2 router: offline router (the LLM router failed"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newLLMServer(t)
			s.set(llm.OpRoute, c.route)
			l := askLib(t, s, "a.pdf")
			a, err := l.Ask(context.Background(), AskRequest{Question: "How are headings and glyphs grouped?", Strategy: "rdr2", Budget: 256})
			if err != nil {
				t.Fatal(err)
			}
			if a.Strategy != "rdr2" || len(a.Evidence) == 0 || a.Diag.TokensUsed > 256 {
				t.Fatalf("answer: strategy %s, %d evidence, %d tokens", a.Strategy, len(a.Evidence), a.Diag.TokensUsed)
			}
			if s.count(llm.OpRoute) == 0 {
				t.Fatal("the router was never asked")
			}
			for _, call := range s.Calls() {
				if call.Op == llm.OpRoute && (!strings.Contains(call.User, "## Question\nHow are headings and glyphs grouped?") || !strings.Contains(call.User, "Introduction")) {
					t.Fatalf("router request: %q", call.User)
				}
			}
			fb := strings.Join(a.Diag.Fallbacks, "\n")
			for _, want := range c.fallbacks {
				if !strings.Contains(fb, want) {
					t.Errorf("fallback %q missing in %q", want, a.Diag.Fallbacks)
				}
			}
			if c.none && strings.Contains(fb, "rdr2") {
				t.Errorf("unexpected rdr2 fallbacks %q", a.Diag.Fallbacks)
			}
			set, _ := l.Store().AnswerSettings(context.Background(), a.ID)
			if !strings.Contains(string(set), `"route":[{"paper_id"`) || !strings.Contains(string(set), `"raw":`) {
				t.Errorf("saved settings lack the routing trace: %s", set)
			}
		})
	}
}

// TestDiscourseTreesJob builds discourse trees in the background job: offline
// first (extractive), then with the LLM (node summaries, cached, a failing
// call falls back to extraction and is counted), and questions re-use them.
func TestDiscourseTreesJob(t *testing.T) {
	ctx := context.Background()
	s := newLLMServer(t)
	s.set(llm.OpDiscourseSummary, func(c chatCall) reply {
		if len(c.User)%3 == 0 { // a deterministic share of the inputs fails, retries included
			return reply{status: 500}
		}
		return reply{content: "LLM summary of " + strings.Join(strings.Fields(c.User)[:min(25, len(strings.Fields(c.User)))][20:], " ")}
	})
	l := openLib(t, nil)
	dir := t.TempDir()
	testPDF(t, dir, "a.pdf")
	index(t, l, dir)
	var progress []int
	sum, err := l.BuildDiscourseTrees(ctx, retrieve.DiscParams{}, func(done, total int, _ int64) { progress = append(progress, done) })
	if err != nil || sum.Built != 1 || sum.Summaries != 0 || len(progress) != 1 {
		t.Fatalf("offline build: %+v %v progress %v", sum, err, progress)
	}
	if again, _ := l.BuildDiscourseTrees(ctx, retrieve.DiscParams{}, nil); again.Built != 0 {
		t.Fatalf("unchanged trees rebuilt: %+v", again)
	}
	if _, err := l.ConfigureLLM(ctx, *s.config()); err != nil {
		t.Fatal(err)
	}
	early, err := l.Ask(ctx, AskRequest{Question: "How are headings and glyphs grouped?", Strategy: "disretrieval", Budget: 128})
	if err != nil || !strings.Contains(strings.Join(early.Diag.Fallbacks, "\n"), "LLM summaries not built yet") {
		t.Fatalf("ask before the LLM build: fallbacks %v, err %v", early.Diag.Fallbacks, err)
	}
	sum, err = l.BuildDiscourseTrees(ctx, retrieve.DiscParams{}, nil)
	if err != nil || sum.Built != 1 || sum.Summaries == 0 || sum.Fallbacks == 0 {
		t.Fatalf("LLM build: %+v %v", sum, err)
	}
	calls := s.count(llm.OpDiscourseSummary)
	if calls < sum.Summaries+sum.Fallbacks {
		t.Fatalf("%d summary calls for %d summaries + %d fallbacks", calls, sum.Summaries, sum.Fallbacks)
	}
	st, err := l.Store().StructureStats(ctx, retrieve.DiscourseKind)
	if err != nil || st.Papers != 1 || st.Bytes == 0 {
		t.Fatalf("stats %+v %v", st, err)
	}
	a, err := l.Ask(ctx, AskRequest{Question: "How are headings and glyphs grouped?", Strategy: "disretrieval", Budget: 128})
	if err != nil || len(a.Evidence) == 0 || a.Diag.TokensUsed > 128 {
		t.Fatalf("ask: %+v %v", a, err)
	}
	fb := strings.Join(a.Diag.Fallbacks, "\n")
	if strings.Contains(fb, "LLM summaries not built yet") || !strings.Contains(fb, "fell back to extractive condensation") {
		t.Errorf("fallbacks of an LLM-built tree with failed summaries: %v", a.Diag.Fallbacks)
	}
	if s.count(llm.OpDiscourseSummary) != calls {
		t.Error("asking rebuilt the tree")
	}
}
