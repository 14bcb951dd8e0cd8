package retrieve

import "testing"

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
