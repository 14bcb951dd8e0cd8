package answer

import (
	"testing"

	"github.com/papertree/papertree/backend/query"
)

// TestDecider: a sentence rates above 0 only when the verdict rules could
// decide the question from it: it covers the question and holds its
// predicate with a readable polarity.
func TestDecider(t *testing.T) {
	if Decider(query.Parse("What embeddings does the parser use?")) != nil {
		t.Fatal("a factual question has no decider")
	}
	d := Decider(query.Parse("Does the parser use pretrained word embeddings?"))
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"The parser uses pretrained word embeddings as its input.", true},
		{"The parser does not use pretrained word embeddings.", true},
		{"The parser reads pretrained word embeddings and parses sentences.", false}, // predicate not held
		{"Does the parser use pretrained word embeddings?", false},                   // a question
		{"The parser might use pretrained word embeddings.", false},                  // hedged
		{"We evaluate the parser on three treebanks.", false},                        // does not cover
	} {
		if got := d(tc.s, "", "") > 0; got != tc.want {
			t.Errorf("%q: decides %v, want %v", tc.s, got, tc.want)
		}
	}
}

// TestDeciderContext: the Decider weighs a sentence whose subject refers
// back with the sentence before it, as the verdict does.
func TestDeciderContext(t *testing.T) {
	d := Decider(query.Parse("Does each host's outer-loop block computation require communicating with other hosts?"))
	const s = "These operations do not require communication with other hosts."
	const before = "Each host is responsible for running one element of the outer loop of blockwise attention for its block."
	for _, tc := range []struct {
		name, s, before string
		want            bool
	}{
		{"alone it covers too little", s, "", false},
		{"with the sentence its subject refers back to", s, before, true},
		{"control: a noun subject is not weighed with the sentence before", "Softmax operations do not require communication with other hosts.", before, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := d(tc.s, "", tc.before) > 0; got != tc.want {
				t.Errorf("decides %v, want %v", got, tc.want)
			}
		})
	}
}
