package retrieve

import (
	"maps"
	"strings"
	"testing"

	querypkg "github.com/papertree/papertree/backend/query"
)

// The inverted index scores as the loop over every card with card.touches
// did: it leaves out only cards a question touches with function words of
// their titles, which score nothing.
func TestCardSetScoresAsEveryCard(t *testing.T) {
	cards := []*card{
		newCard(1, "THE PERCEPTRON: A PROBABILISTIC MODEL FOR INFORMATION STORAGE AND ORGANIZATION IN THE BRAIN", nil, 1958, "", "F. ROSENBLATT Cornell Aeronautical Laboratory"),
		newCard(2, "GloVe: Global Vectors for Word Representation", []string{"Jeffrey Pennington", "Richard Socher", "Christopher Manning"}, 2014, "We use WebText.", ""),
		newCard(3, "Attention Is All You Need", []string{"Ashish Vaswani", "Noam Shazeer"}, 2017, "The Transformer, based solely on attention.", ""),
		newCard(4, "Distilling the Knowledge in a Neural Network", []string{"Geoffrey Hinton", "Oriol Vinyals", "Jeff Dean"}, 2015, "", ""),
		newCard(5, "Language Models are Unsupervised Multitask Learners", []string{"Alec Radford"}, 2019, "GPT-2 is trained on WebText.", ""),
		newCard(6, "On the Number of Linear Regions of Deep Neural Networks", []string{"Guido Montufar"}, 2014, "", ""),
		newCard(7, "Knowledge Distillation: A Survey", []string{"Jianping Gou"}, 2021, "", "Jianping Gou University of Sydney"),
	}
	set := newCardSet(cards)
	every := func(qwords, qterms map[string]bool, qcaps, qnames []string) []int {
		var out []int
		for i, c := range cards {
			if c.touches(qwords, qterms, qcaps, qnames) {
				out = append(out, i)
			}
		}
		return out
	}
	for _, tc := range []struct{ name, q string }{
		{"title lead", "What does the GloVe paper say about co-occurrence?"},
		{"function words only", "What is the number of the things in a study?"},
		{"caps lead", "What did THE PERCEPTRON paper store?"},
		{"author cited", "What temperature do Hinton et al. use?"},
		{"shared name", "Which corpus is WebText?"},
		{"hyphenless name", "How large is GPT2?"},
		{"title run", "What does Distilling the Knowledge say about soft targets?"},
		{"author and year", "What did Vaswani et al. (2017) propose?"},
		{"nothing", "Why is the sky blue?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := querypkg.Parse(tc.q)
			want, got := set.scoresOf(q, every), set.scores(q)
			if !maps.Equal(got, want) {
				t.Errorf("scores = %v, want (every card) %v", got, want)
			}
		})
	}
	// The index must not be empty-handed where the loop finds a paper.
	if sc := set.scores(querypkg.Parse("What does the GloVe paper say about co-occurrence?")); sc[2] < 3 {
		t.Errorf("GloVe's own name scored %v", sc)
	}
}

// identityScores scores cards as one library (cardSet.scores), for tests
// that build a few cards.
func identityScores(question *querypkg.Question, cards []*card) map[int64]float64 {
	return newCardSet(cards).scores(question)
}

// touches is the pre-check the inverted index replaced, kept as its
// oracle: could the question mention this paper at all (a title word, a
// title stem, an author's surname or a name of it)?
func (c *card) touches(qwords, qterms map[string]bool, qcaps, qnames []string) bool {
	for _, w := range c.words {
		if qwords[w] {
			return true
		}
	}
	for _, t := range c.title {
		if qterms[t] {
			return true
		}
	}
	for _, w := range qcaps {
		if c.surnames[strings.ToLower(w)] {
			return true
		}
	}
	for _, n := range qnames {
		if c.names[n] {
			return true
		}
	}
	return false
}
