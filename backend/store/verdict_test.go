package store

import (
	"context"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// A saved answer keeps its yes/no verdict (migration 0003).
func TestAnswerVerdictRoundTrip(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	for _, v := range []string{"yes", "no", "unclear", ""} {
		t.Run("verdict "+v, func(t *testing.T) {
			id, err := s.SaveAnswer(ctx, &papertree.Answer{Question: "Does it?", Text: "x", Mode: "extractive", Verdict: v})
			if err != nil {
				t.Fatal(err)
			}
			a, err := s.Answer(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if a.Verdict != v {
				t.Errorf("verdict %q, want %q", a.Verdict, v)
			}
		})
	}
}
