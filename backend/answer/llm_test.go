package answer

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/papertree"
)

// chatModel is a scripted llm.Client (the process boundary): it returns
// reply, or err, and keeps the prompts it was sent.
type chatModel struct {
	reply string
	err   error
	got   []llm.ChatRequest
}

func (c *chatModel) Chat(ctx context.Context, req llm.ChatRequest) (llm.ChatResponse, error) {
	return c.ChatStream(ctx, req, nil)
}

func (c *chatModel) ChatStream(_ context.Context, req llm.ChatRequest, onDelta func(string)) (llm.ChatResponse, error) {
	c.got = append(c.got, req)
	if c.err != nil {
		return llm.ChatResponse{}, c.err
	}
	if onDelta != nil {
		for _, w := range strings.SplitAfter(c.reply, " ") {
			onDelta(w)
		}
	}
	return llm.ChatResponse{Content: c.reply, Model: "m", PromptTokens: 100, CompletionTokens: 10}, nil
}

func TestLLMAnswer(t *testing.T) {
	ev := []papertree.Evidence{
		{PaperTitle: "Paper A", Path: []string{"Paper A", "3 Method"}, Text: "We fine-tune BERT.", Summary: "Method uses BERT."},
		{PaperTitle: "Paper A", Path: []string{"Paper A", "4 Data"}, Text: "We use SQuAD."},
	}
	cases := []struct {
		name     string
		reply    string
		err      error
		ok       bool
		text     string
		cited    []int
		dropped  int
		notFound bool
	}{
		{name: "valid and invalid markers", reply: "They fine-tune BERT [1] on SQuAD [2] [7].", ok: true,
			text: "They fine-tune BERT [1] on SQuAD [2].", cited: []int{0, 1}, dropped: 1},
		{name: "not found", reply: "NOT FOUND: the evidence does not name the optimizer.", ok: true,
			text: NotFoundText + " the evidence does not name the optimizer.", notFound: true},
		{name: "server error falls back", err: papertree.Errorf(papertree.ELLM, "HTTP 500"), ok: false},
		{name: "empty output falls back", reply: "   ", ok: false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := &chatModel{reply: c.reply, err: c.err}
			var streamed strings.Builder
			g, out, ok := LLM(context.Background(), llm.NewOps(m), "What model?", ev, func(s string) { streamed.WriteString(s) })
			if ok != c.ok || out.Fallback == ok {
				t.Fatalf("ok = %v, outcome %v", ok, out)
			}
			if len(m.got) != 1 {
				t.Fatalf("%d calls", len(m.got))
			}
			prompt := m.got[0].Messages[len(m.got[0].Messages)-1].Content
			for _, want := range []string{"[1] Paper: Paper A", "Path: 3 Method", "Summary: Method uses BERT.", "[2] Paper: Paper A", "Question: What model?"} {
				if !strings.Contains(prompt, want) {
					t.Errorf("prompt lacks %q:\n%s", want, prompt)
				}
			}
			if strings.Contains(prompt, "Path: Paper A") {
				t.Error("the paper title is repeated in the path")
			}
			if !ok {
				return
			}
			if g.Text != c.text || !reflect.DeepEqual(g.Cited, c.cited) || g.Dropped != c.dropped || g.NotFound != c.notFound {
				t.Errorf("got %+v", g)
			}
			if !c.notFound && strings.TrimSpace(streamed.String()) != g.Text {
				t.Errorf("streamed %q, final %q", streamed.String(), g.Text)
			}
		})
	}
	if _, out, ok := LLM(context.Background(), nil, "q", ev, nil); ok || !out.Fallback {
		t.Error("nil ops must fall back")
	}
}
