package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// A library-wide question that describes its paper was read as being about
// paper 1 (Claims.Scope), but the passage that matches best comes from
// paper 2, which prints every word paper 1 lacks: the reply answers from
// it instead of saying paper 1 never mentions them. A question that names
// its paper, or a passage from a paper lacking a word, keeps the reason.
func TestMisreadPaperNotFound(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{
		{PaperID: 2, Kind: papertree.KindSegment, Score: 0.8,
			Text: "The circumstances component of cash on hand is captured by using pre-refund cash on hand."},
		{PaperID: 1, Kind: papertree.KindSegment, Score: 0.4,
			Text: "We study the environmental biases of ecological networks."},
	}
	printed := map[string][]int64{"cash": {2}, "hand": {2}, "refunds": {2}, "component": {1, 2}, "study": {1, 2}, "dropout": {2}}
	holders := func(w string) ([]int64, bool) { return printed[strings.ToLower(w)], true }
	for _, tc := range []struct {
		name, question string
		missing        []string
		notFound       bool
	}{
		{"described paper, the best passage's paper prints the words", "How is the component of cash on hand captured in the study of refunds?",
			[]string{"cash", "hand", "refunds"}, false},
		{"named paper keeps the reason", "How is the component of cash on hand captured in the Ecology study of refunds?",
			[]string{"cash", "hand", "refunds"}, true},
		{"a word the best passage's paper lacks keeps the reason", "How is the component of cash on hand captured in the study of rebates?",
			[]string{"cash", "hand", "rebates"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Compose(context.Background(), emb, Input{Question: tc.question, Evidence: ev, Missing: tc.missing, Terms: 5,
				Claims: Claims{Holders: holders, Scope: []int64{1}, Name: "“Environmental biases”"}}, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if out.NotFound != tc.notFound {
				t.Errorf("notFound = %v, want %v: %q", out.NotFound, tc.notFound, out.Text)
			}
		})
	}
}
