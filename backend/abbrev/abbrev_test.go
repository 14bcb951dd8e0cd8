package abbrev

import (
	"reflect"
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []Pair
	}{
		{"long form then short form", "We report the interquartile range (IQR) of each sample.",
			[]Pair{{"IQR", "interquartile range"}}},
		{"plural short form", "Convolutional Neural Networks (CNNs) are widely used.",
			[]Pair{{"CNNs", "Convolutional Neural Networks"}}},
		{"long form does not take the words before it", "In this work we train a long short-term memory (LSTM) network.",
			[]Pair{{"LSTM", "long short-term memory"}}},
		{"letters inside words", "We use the Adam optimizer with Batch Normalization (BatchNorm).",
			[]Pair{{"BatchNorm", "Batch Normalization"}}},
		{"short form then long form", "The IQR (interquartile range) is robust.",
			[]Pair{{"IQR", "interquartile range"}}},
		{"first clause of the parenthesis", "the standard deviation (SD; see below) of the errors",
			[]Pair{{"SD", "standard deviation"}}},
		{"digits in the short form", "the 3D convolutional network (3DCN)",
			[]Pair{{"3DCN", "3D convolutional network"}}},
		{"each pair once", "mean squared error (MSE) ... the mean squared error (MSE) again",
			[]Pair{{"MSE", "mean squared error"}}},
		{"two definitions", "natural language processing (NLP) and machine translation (MT)",
			[]Pair{{"NLP", "natural language processing"}, {"MT", "machine translation"}}},
		{"not across a sentence break", "We fit the model. Results (R) follow.", nil},
		{"figure reference", "The loss falls quickly (see Fig. 3) and then levels off.", nil},
		{"year", "as shown by Smith (2019) and others", nil},
		{"example list", "small models (e.g., a two-layer network) suffice", nil},
		{"p value", "the difference was significant (p < 0.05) in both groups", nil},
		{"lowercase word", "the learning rate (step size) was fixed", nil},
		{"letters not found", "a recurrent model (XYZ) was used", nil},
		{"first letter not at a word start", "a latent layer (TL) is new", nil},
		{"single letter", "the number of samples (N) is small", nil},
		{"a name after a word", "the model of Sato (syntactic resources to process) is used", nil},
		{"a citation", "the mean reciprocal rank MRR (McSherry and Najork 2008) is reported", nil},
		{"a formula", "G1 = (V1, E1) and V2 (V1,E1) and G2 = (V2, E2)", nil},
		{"a two-word parenthesis", "a possible continuation (sentence B) follows", nil},
		{"unclosed parenthesis", "a deep network (DN", nil},
		{"long form led by a conjunction", "funded by the AEI (and the Spanish Research State Agency) in 2020", nil},
		{"long form led by a negation", "projects marked NF (not be funded) were dropped", nil},
		{"long form led by a preposition", "computed over the OOV (of our vocabulary) words", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Find(c.text)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Find(%q) = %v, want %v", c.text, got, c.want)
			}
		})
	}
}

// BenchmarkFind reads about 60 KB of text, the size of a long paper's
// leaves, with a parenthesis every sentence or two (done once per loaded
// paper, see retrieve's abbreviations).
func BenchmarkFind(b *testing.B) {
	unit := "We report the interquartile range (IQR) of each sample. The loss falls quickly (see Fig. 3) and then levels off. " +
		"As shown by Smith (2019), small models (e.g., a two-layer network) suffice, and the difference was significant (p < 0.05). " +
		"Convolutional Neural Networks (CNNs) are widely used for images, and the learning rate (step size) was fixed throughout. "
	text := strings.Repeat(unit, 60<<10/len(unit))
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if len(Find(text)) != 2 {
			b.Fatal("want 2 pairs")
		}
	}
}
