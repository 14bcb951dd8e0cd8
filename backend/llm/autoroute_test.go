package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestAutoRoute(t *testing.T) {
	const q = "Which papers evaluate on SQuAD?"
	titles := []string{"BERT: Pre-training of Deep Bidirectional Transformers", "  ", "SQuAD: 100,000+ Questions for Machine Comprehension of Text"}
	cases := []struct {
		name, content, want, reason string
		fallback                    bool
	}{
		{"json list", `{"type": "list", "reason": "asks which papers have a property"}`, AutoList, "asks which papers", false},
		{"json table", `{"type": "Table", "reason": "sets papers side by side"}`, AutoTable, "side by side", false},
		{"fenced json chunk", "```json\n{\"type\": \"chunk\"}\n```", AutoChunk, "", false},
		{"the bare word, as the official prompt asks", "list", AutoList, "", false},
		{"prose naming no structure", "I would draw a bar chart of the scores.", "", "named no structure", true},
		{"prose naming two", "a table or a list", "", "named no structure", true},
		{"json without a type", `{"answer": "BERT"}`, "", "names no structure", true},
		{"json with an unknown type", `{"type": "graph"}`, "", "named no structure", true},
		{"empty", "", "", "empty output", true},
	}
	for _, kind := range kinds {
		for _, tc := range cases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				o, f := opsWith(t, kind, replyContent(kind, tc.content))
				got, reason, out := o.AutoRoute(context.Background(), q, titles)
				if tc.fallback {
					wantFallback(t, out, OpAutoRoute, true, tc.reason)
				} else if out.Fallback || !strings.Contains(reason, tc.reason) {
					t.Errorf("outcome %+v, reason %q, want %q", out, reason, tc.reason)
				}
				if got != tc.want {
					t.Errorf("route %q, want %q", got, tc.want)
				}
				// The router sees the question and the titles (core content),
				// not the papers' text, and replies in JSON mode.
				checkChat(t, kind, f.Calls()[0], false, true, "hybrid structure router of StructRAG",
					"Query:\n"+q, "BERT: Pre-training of Deep Bidirectional Transformers; SQuAD: 100,000+")
			})
		}
	}
	t.Run("server fails", func(t *testing.T) {
		o, _ := opsWith(t, ProviderOpenAI, fail500(ProviderOpenAI))
		got, _, out := o.AutoRoute(context.Background(), q, titles)
		wantFallback(t, out, OpAutoRoute, true, "HTTP 500")
		if got != "" {
			t.Errorf("route %q after a failure", got)
		}
	})
	t.Run("slow server, caller's deadline", func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		slow := func(w http.ResponseWriter, r *http.Request, c call, n int) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			replyContent(ProviderOpenAI, `{"type": "table"}`)(w, r, c, n)
		}
		o, _ := opsWith(t, ProviderOpenAI, slow)
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		defer cancel()
		// The server replies only after this test ends or the client hangs
		// up, so a router that ignored the deadline would never return: no
		// clock is needed, only the deadline named as the cause.
		got, _, out := o.AutoRoute(ctx, q, titles)
		if !out.Fallback || got != "" || !errors.Is(out.Err, context.DeadlineExceeded) {
			t.Errorf("route %q, outcome %+v (%v): want a fallback for the passed deadline", got, out, out.Err)
		}
	})
}
