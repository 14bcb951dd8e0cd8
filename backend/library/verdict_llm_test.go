package library

import (
	"context"
	"testing"

	"github.com/papertree/papertree/backend/llm"
)

// With an LLM, a yes/no question's verdict is the model's (its answer's
// first word), saved with the answer; other questions get none.
func TestAskLLMVerdict(t *testing.T) {
	tests := []struct {
		name, question, reply, want string
	}{
		{"model says yes", "Are glyphs grouped into words by their gaps?", "Yes, glyphs are grouped by their gaps [1].", "yes"},
		{"model says no", "Does the method need an OCR engine?", "No. It reads the text layer directly [1].", "no"},
		{"model hedges", "Is the outline always used?", "The papers describe the outline as optional [1].", "unclear"},
		{"not a yes/no question", "How are glyphs grouped?", "Yes-like words do not matter here [1].", ""},
	}
	s := newLLMServer(t)
	l := askLib(t, s, "a.pdf")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s.set(llm.OpAnswer, func(chatCall) reply { return reply{content: tc.reply} })
			a, err := l.Ask(context.Background(), AskRequest{Question: tc.question, Budget: 256})
			if err != nil {
				t.Fatal(err)
			}
			if a.Mode != "llm" || a.Verdict != tc.want {
				t.Fatalf("mode %s verdict %q, want llm %q (text %q)", a.Mode, a.Verdict, tc.want, a.Text)
			}
			saved, err := l.Answer(context.Background(), a.ID)
			if err != nil || saved.Verdict != tc.want {
				t.Errorf("saved verdict %q (%v)", saved.Verdict, err)
			}
		})
	}
}
