package retrieve

import (
	"regexp"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// A sentence that holds a which-papers topic only where it says the paper
// does not do it, or speaks of work not done, does not state it.
func TestWhichDenies(t *testing.T) {
	for _, tc := range []struct {
		name, sentence, root string
		want                 bool
	}{
		{"used", "We apply dropout to the input embeddings and between the hidden layers.", "dropout", false},
		{"without", "The model is trained without dropout, since the data set is large.", "dropout", true},
		{"not used", "We do not use batch normalization in the discriminator.", "normalizat", true},
		{"replaced", "We replace the Batch Normalization layers with Group Normalization and use standardized convolutions.", "batch", true},
		{"instead of", "Instead of beam search, the decoder takes the most probable word at each step.", "beam", true},
		{"future work", "Our parser can be incorporated with beam search, but we leave this to future work.", "beam", true},
		{"could be", "Beam search could be used to improve the greedy decoder.", "beam", true},
		{"one denied, one stated", "Unlike earlier parsers we do not need a tagger; we decode with beam search of width 8.", "beam", false},
		{"negation far before", "No other system we know of decodes its outputs with a wide beam search.", "beam", false},
		{"topic absent", "We use a greedy decoder.", "beam", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := denies(tc.sentence, lowerTokens(tc.sentence), tc.root); got != tc.want {
				t.Errorf("denies(%q, %q) = %v, want %v", tc.sentence, tc.root, got, tc.want)
			}
		})
	}
}

// A sentence that names a which-papers topic only as an example of a kind,
// not in the authors' own words, does not state that the paper uses it.
func TestWhichOnlyExample(t *testing.T) {
	for _, tc := range []struct {
		name, sentence, root string
		want                 bool
	}{
		{"such as", "WMD leverages word embeddings, such as Word2Vec or GloVe, which represent words as vectors.", "glove", true},
		{"e.g.", "Decoding strategies (e.g., Beam Search) trade speed for quality.", "beam", true},
		{"including, far on", "Several software packages for deriving word vectors are available, including word2vec and Gensim implementing the word2vec models, and GloVe.", "glove", true},
		{"authors' own", "We evaluate on benchmarks such as GLUE and SQuAD.", "glue", false},
		{"stated, no example", "Training is performed using the Adam optimizer with a learning rate of 0.001.", "adam", false},
		{"a comparison is no example", "Also like SciBERT, the model is fine-tuned using Adam with a linear decay.", "adam", false},
		{"once as example, once stated", "Beam search of width 4 decodes the outputs, as in decoders such as beam search elsewhere.", "beam", false},
		{"a clause ends the list", "Metrics such as accuracy are common; BLEU is reported for the generated text.", "bleu", false},
		{"only inside another word", "Tools such as subglove are used to store the data.", "glove", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := onlyExample(tc.sentence, tc.root); got != tc.want {
				t.Errorf("onlyExample(%q, %q) = %v, want %v", tc.sentence, tc.root, got, tc.want)
			}
		})
	}
}

// A table row whose label holds the topic and whose every value is zero,
// none or a dash says the setting is not used.
func TestWhichZeroRow(t *testing.T) {
	for _, tc := range []struct {
		name, text, root string
		want             bool
	}{
		{"read as a sentence", "Gradient Clipping: RoBERTaLARGE 0.0, RoBERTaBASE 0.0", "clip", true},
		{"a flattened row", "| Hyperparam | Large | Base\nGradient Clipping | 0.0 | -", "clip", true},
		{"a value", "Dropout: RoBERTaLARGE 0.1, RoBERTaBASE 0.1", "dropout", false},
		{"none in one column only", "Gradient clipping | 1.0 | none", "clip", false},
		{"a sentence, no row", "We clip gradients at 5.0 to avoid explosions.", "clip", false},
		{"another row is zero", "Warmup: 0\nGradient clipping: 1.0", "clip", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := zeroRow(tc.text, tc.root); got != tc.want {
				t.Errorf("zeroRow(%q, %q) = %v, want %v", tc.text, tc.root, got, tc.want)
			}
		})
	}
}

// A primer, tutorial or survey names every technique of its field as what
// one can do: for a question about what papers do, it is listed only where
// its authors say they did it.
func TestWhichExpository(t *testing.T) {
	leaf := func(text string) *papertree.Node { return &papertree.Node{Kind: papertree.KindSegment, Text: text} }
	primer := &PaperData{Paper: &papertree.Paper{Title: "A Primer on Neural Network Models for Natural Language Processing"},
		Nodes: []*papertree.Node{{Kind: papertree.KindRoot},
			leaf("This tutorial surveys neural network models from the perspective of natural language processing research."),
			leaf("Despite its simplicity, it performs well for many tasks, especially when combined with the dropout regularization technique."),
			leaf("Dealing with the exploding gradients has a simple but very effective solution: clipping the gradients if their norm exceeds a given threshold.")},
		Parent: []int{-1, 0, 0, 0}}
	study := &PaperData{Paper: &papertree.Paper{Title: "Sequence to Sequence Learning"},
		Nodes: []*papertree.Node{{Kind: papertree.KindRoot},
			leaf("We present a general end-to-end approach to sequence learning."),
			leaf("Exploding gradients were handled by clipping the gradients when their norm exceeded a threshold of 5.")},
		Parent: []int{-1, 0, 0}}
	if !expository(primer) || expository(study) {
		t.Fatalf("expository: primer %v, study %v", expository(primer), expository(study))
	}
	g := topicGroup{stems: []string{"clip", "gradient"}, words: []string{"clipping", "gradients"}, idf: []float64{3, 2}, pos: []int{1, 2},
		name: []bool{false, false}, compound: []int{1, 2}, edition: make([]*regexp.Regexp, 2)}
	g.finish()
	if _, ok := verifyPaper(primer, []topicGroup{g}, true); ok {
		t.Error("a primer's advice listed as the paper clipping gradients")
	}
	if _, ok := verifyPaper(primer, []topicGroup{g}, false); !ok {
		t.Error("a primer not listed for a question about what papers discuss")
	}
	if _, ok := verifyPaper(study, []topicGroup{g}, true); !ok {
		t.Error("a study's own statement not listed")
	}
}
