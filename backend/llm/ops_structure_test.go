package llm

import (
	"context"
	"strings"
	"testing"
)

func TestRoute(t *testing.T) {
	subtree := "0: BERT\n\t1: 1 Introduction\n\t\t2: We introduce BERT.\n\t3: 3 Pre-training\n"
	cases := []struct {
		name, content, want string
		fallback            bool
		reason              string
	}{
		{"actions", "[ANSWER] 2: We introduce BERT.\n[EXPAND] 3: 3 Pre-training", "[ANSWER] 2: We introduce BERT.\n[EXPAND] 3: 3 Pre-training", false, ""},
		{"refusal passes through", "Cannot answer", "Cannot answer", false, ""},
		{"think block removed", "<think>maybe 3</think>\n[EXPAND] 3: 3 Pre-training", "[EXPAND] 3: 3 Pre-training", false, ""},
		{"malformed passes through (the caller validates)", "Section three looks relevant.", "Section three looks relevant.", false, ""},
		{"empty", "  ", "", true, "empty output"},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				o, f := opsWith(t, kind, replyContent(kind, tc.content))
				got, out := o.Route(context.Background(), "What is BERT pre-trained on?", subtree)
				wantFallback(t, out, OpRoute, tc.fallback, tc.reason)
				if got != tc.want {
					t.Errorf("route %q, want %q", got, tc.want)
				}
				checkChat(t, kind, f.Calls()[0], false, false, "identify relevant nodes in a document tree", "## Question\nWhat is BERT pre-trained on?",
					"## Document\n0: BERT\n\t1: 1 Introduction", "## Response", `reply exactly "Cannot answer"`)
			})
		}
		t.Run(kind+"/server error", func(t *testing.T) {
			o, _ := opsWith(t, kind, fail500(kind))
			got, out := o.Route(context.Background(), "q", subtree)
			wantFallback(t, out, OpRoute, true, "HTTP 500")
			if got != "" {
				t.Errorf("route %q", got)
			}
		})
	}
	t.Run("no LLM", func(t *testing.T) {
		_, out := (*Ops)(nil).Route(context.Background(), "q", subtree)
		wantFallback(t, out, OpRoute, true, reasonNoLLM)
	})
}

func TestSummarizePair(t *testing.T) {
	extractive := func() string { return "EXTRACTIVE" }
	cases := []struct {
		name, content, want string
		fallback            bool
		reason              string
	}{
		{"plain", "BERT is pre-trained with a masked language model and next sentence prediction.", "BERT is pre-trained with a masked language model and next sentence prediction.", false, ""},
		{"refusal", "I'm sorry, I cannot help with that.", "EXTRACTIVE", true, "refusal"},
		{"empty", "", "EXTRACTIVE", true, "empty output"},
		{"runaway", strings.Repeat("token ", 500), strings.TrimSpace(strings.Repeat("token ", 200)), false, ""},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				o, f := opsWith(t, kind, replyContent(kind, tc.content))
				got, out := o.SummarizePair(context.Background(), "BERT uses a masked LM.", "It also predicts the next sentence.", extractive)
				wantFallback(t, out, OpDiscourseSummary, tc.fallback, tc.reason)
				if got != tc.want {
					t.Errorf("summary %q, want %q", got, tc.want)
				}
				checkChat(t, kind, f.Calls()[0], false, false, "Write a summary of the given sentences, keeps as more key information as possible.",
					"no more than 200 words", "Given text: BERT uses a masked LM. It also predicts the next sentence.")
			})
		}
		t.Run(kind+"/server error", func(t *testing.T) {
			o, _ := opsWith(t, kind, fail500(kind))
			got, out := o.SummarizePair(context.Background(), "a.", "b.", extractive)
			wantFallback(t, out, OpDiscourseSummary, true, "HTTP 500")
			if got != "EXTRACTIVE" {
				t.Errorf("summary %q", got)
			}
		})
	}
}
