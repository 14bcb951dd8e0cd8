package answer

import (
	"context"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// A question's first word is capitalised whatever it is: "Instead" there
// is no name, and a paper that never prints it is not said to lack a name
// the question asks about. A capitalised word inside the question is.
func TestFirstWordCapitalNoName(t *testing.T) {
	for _, tc := range []struct {
		question, word string
		want           bool
	}{
		{"Instead of preprocessing, where does Autoformer put the decomposition?", "Instead", false},
		{"Besides large problems, what is Adam suited to?", "Besides", false},
		{"Besides large problems, what is Adam suited to?", "Adam", true},
		{"Raft elects leaders how, and does Raft use timers?", "Raft", true}, // typed capitalised inside too
		{"How does GloVe weight co-occurrences?", "GloVe", true},             // name-like anywhere
	} {
		if got := nameWord(tc.question, tc.word); got != tc.want {
			t.Errorf("nameWord(%q, %q) = %v, want %v", tc.question, tc.word, got, tc.want)
		}
	}
}

// Asked of one paper, a question opening with a word the paper never
// prints ("Instead") is answered by the sentence that holds the rest.
func TestFirstWordMissingNotFound(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 1, Kind: papertree.KindSegment, Score: 0.7,
		Text: "We break with the pre-processing convention of series decomposition and renovate it as a basic inner block of deep models."}}
	out, err := Compose(context.Background(), emb, Input{Question: "Instead of preprocessing, where does the model place series decomposition?",
		Evidence: ev, Missing: []string{"Instead"}, Terms: 5, Scoped: true}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if out.NotFound {
		t.Errorf("not found on the question's first word: %q", out.Text)
	}
}
