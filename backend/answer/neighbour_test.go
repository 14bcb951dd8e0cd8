package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// A how/why answer that would quote one sentence quotes with it the
// better-scored of its neighbours in the passage, where papers give the
// reason for what the top sentence restates; other answers are unchanged.
func TestHowWhyQuotesNeighbour(t *testing.T) {
	seg := func(score float64, text string) papertree.Evidence {
		return papertree.Evidence{Kind: papertree.KindSegment, Text: text, Score: score}
	}
	tests := []quoteCase{
		{"the reason after the restating sentence is quoted",
			"Why is the first reactive animation system prone to memory leaks?",
			[]papertree.Evidence{seg(1.2, "The project was started by a small team of volunteers. "+
				"The first reactive animation system is prone to memory leaks that are difficult to spot. "+
				"It inherits its leaks from the lazy evaluation of its host language. "+
				"Later systems restrict what a program may express.")},
			[]string{"prone to memory leaks", "lazy evaluation of its host language"}, []string{"small team", "Later systems"}},
		{"the reason before the restating sentence is quoted",
			"Why does the state of the network stop changing at a minimum of the energy?",
			[]papertree.Evidence{seg(0.9, "Each neuron samples its input at random times. "+
				"Every update of a neuron can only lower the energy function. "+
				"The state of the network stops changing at a minimum of the energy.")},
			[]string{"can only lower the energy", "stops changing at a minimum"}, []string{"random times"}},
		{"a factual question still quotes its one best sentence",
			"What learning rate was used for training the parser?",
			[]papertree.Evidence{seg(1.0, "We describe the parser in detail. "+
				"The parser was trained with a learning rate of 0.001 for ten epochs. "+
				"Training took two days on one machine.")},
			[]string{"learning rate of 0.001"}, []string{"in detail", "two days"}},
	}
	quoteCases(t, tests)
}

func TestNeighbour(t *testing.T) {
	all := func(int) bool { return true }
	sents := []sentence{
		{ev: 0, pos: 0, score: 0.5, text: "a"},
		{ev: 0, pos: 1, score: 0.9, text: "b"},
		{ev: 0, pos: 2, score: 0.7, text: "c"},
		{ev: 1, pos: 2, score: 0.95, text: "other passage"},
		{ev: 2, pos: 0, role: papertree.RoleTable, score: 0.8, text: "row 1"},
		{ev: 2, pos: 1, role: papertree.RoleTable, score: 0.6, text: "row 2"},
		{ev: 3, pos: 0, score: 0.4, text: "alone"},
	}
	tests := []struct {
		name string
		i    int
		ok   func(int) bool
		want int
	}{
		{"the better-scored of the two neighbours", 1, all, 2},
		{"a neighbour ok refuses is passed over", 1, func(j int) bool { return j != 2 }, 0},
		{"the first sentence has only the one after it", 0, all, 1},
		{"a sentence of another passage is no neighbour", 2, all, 1},
		{"a table row has no prose neighbour", 4, all, -1},
		{"a passage of one sentence has none", 6, all, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := neighbour(tt.i, sents, tt.ok); got != tt.want {
				t.Errorf("neighbour(%d) = %d, want %d", tt.i, got, tt.want)
			}
		})
	}
}

// The best sentence whose subject refers back cannot be read alone: the
// sentence before it is quoted with it; a best sentence that names its
// own subject is quoted as before.
func TestAnaphoricTopQuotesAntecedent(t *testing.T) {
	seg := func(score float64, text string) papertree.Evidence {
		return papertree.Evidence{Kind: papertree.KindSegment, Text: text, Score: score}
	}
	tests := []quoteCase{
		{"the antecedent of a best sentence opening with 'This' is quoted",
			"What can the checker not trust in method signatures of the host library?",
			[]papertree.Evidence{seg(1.0, "The host runtime ignores declared element kinds of every array it stores. "+
				"This means that the checker cannot trust method signatures of the host library that involve arrays. "+
				"We describe the annotations in the next chapter.")},
			[]string{"ignores declared element kinds", "cannot trust method signatures"}, []string{"next chapter"}},
		{"a best sentence naming its own subject quotes no antecedent",
			"What can the checker not trust in method signatures of the host library?",
			[]papertree.Evidence{seg(1.0, "The host runtime ignores declared element kinds of every array it stores. "+
				"The checker cannot trust method signatures of the host library that involve arrays. "+
				"We describe the annotations in the next chapter.")},
			[]string{"cannot trust method signatures"}, []string{"ignores declared element kinds", "next chapter"}},
	}
	quoteCases(t, tests)
}

// quoteCase is a question asked of its evidence, with what the extractive
// answer must quote and must not.
type quoteCase struct {
	name     string
	question string
	evidence []papertree.Evidence
	contains []string
	absent   []string
}

// quoteCases composes each case's answer and checks what it quotes.
func quoteCases(t *testing.T, tests []quoteCase) {
	t.Helper()
	emb := embedding.NewBuiltin()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Compose(context.Background(), emb, Input{Question: tt.question, Evidence: tt.evidence}, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range tt.contains {
				if !strings.Contains(out.Text, c) {
					t.Errorf("answer %q lacks %q", out.Text, c)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(out.Text, a) {
					t.Errorf("answer %q holds %q", out.Text, a)
				}
			}
		})
	}
}
