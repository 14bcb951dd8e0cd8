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
		if got := d(tc.s, "") > 0; got != tc.want {
			t.Errorf("%q: decides %v, want %v", tc.s, got, tc.want)
		}
	}
}
