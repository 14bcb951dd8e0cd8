package answer

import (
	"context"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

func TestAbbreviated(t *testing.T) {
	texts := []string{"We show it is competitive with SVD.",
		"A time-of-check to time-of-use (TOCTTOU) violation occurs when the first read is used to check a condition.",
		"Grids of HOG descriptors outperform existing feature sets.",
		"RESULTS OF THE EXPERIMENTS"}
	for _, tc := range []struct {
		question, word string
		want           bool
	}{
		{"Against which singular value decomposition baseline is item2vec compared?", "decomposition", true},
		{"Against which singular value decomposition baseline is item2vec compared?", "baseline", false},
		{"How does Midas stop time of check to time of use attacks?", "check", true},
		{"Why do histograms of oriented gradients work for people detection?", "histograms", true}, // initials less "of"
		{"What is the result of the experiments on French?", "french", false},                      // "OF", "THE": function words, never abbreviations
		{"Which support vector machine is used?", "machine", false},                                // "SVM" printed nowhere here
	} {
		if got := abbreviated(tc.question, tc.word, texts); got != tc.want {
			t.Errorf("abbreviated(%q, %q) = %v, want %v", tc.question, tc.word, got, tc.want)
		}
	}
}

// Asked of a paper that writes only "SVD", a question spelling it out is
// answered, not told the paper never mentions "decomposition".
func TestSpelledOutAbbreviationNotMissing(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := []papertree.Evidence{{PaperID: 1, Kind: papertree.KindSegment, Score: 0.7,
		Text: "We present experimental results that demonstrate the effectiveness of the item2vec method and show it is competitive with SVD."}}
	use := func(stem string, body int) retrieve.TermUse {
		return retrieve.TermUse{Stem: stem, IDF: 5, Body: body, Focus: true}
	}
	out, err := Compose(context.Background(), emb, Input{Question: "Is item2vec competitive with singular value decomposition?",
		Evidence: ev, Missing: []string{"singular", "decomposition"}, Terms: 5, Scoped: true,
		Uses: []retrieve.TermUse{use("singular", 0), use("decomposit", 0), use("item2vec", 4)}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if out.NotFound {
		t.Errorf("not found though the passage prints SVD: %q", out.Text)
	}
}
