package query

import (
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, q   string
		kind      string
		names     []string
		refs      []string
		focus     []string
		citations bool
	}{
		{"multi-word name", "How many GPUs were used to train Stable Diffusion?", KindFactual, []string{"GPUs", "Stable Diffusion"}, nil, []string{}, false},
		{"citation of authors is a reference, not a name", "Do Khan and Thomas (2008) find that nonconvex adjustment costs cause lumpy investment?", KindYesNo, nil, []string{"thomas"}, nil, false},
		{"et al. and a name", "According to Vaswani et al., does the Transformer use recurrence?", KindYesNo, nil, []string{"vaswani"}, nil, false},
		{"name-like word and a name run", "What top-1 accuracy does Ring Attention reach on ImageNet classification?", KindFactual, []string{"top-1", "Ring Attention", "ImageNet"}, nil, []string{"top", "accuracy"}, false},
		{"the paper's nickname", "In the GloVe paper, what dropout rate is applied?", KindFactual, nil, []string{"glove"}, []string{"dropout", "rate"}, false},
		{"an amount's adjective is no focus", "How much extra weight do the answer's words get in the query?", KindFactual, nil, nil, []string{"weight"}, false},
		{"how/why", "Why does one-hot encoding break down for categorical features?", KindHowWhy, nil, nil, nil, false},
		{"citations", "Which papers cite the Adam optimizer?", KindFactual, []string{}, nil, nil, true},
		{"first word is no name", "Stable training of GANs: what helps?", KindFactual, []string{"GANs"}, nil, nil, false},
		{"a lead-in clause before the auxiliary", "After training, does the distilled model keep the high temperature?", KindYesNo, nil, nil, nil, false},
		{"a lead-in with commas of its own", "In Hinton, Vinyals and Dean's paper, is the same temperature used for the small model?", KindYesNo, nil, []string{"hinton", "vinyals", "dean"}, nil, false},
		{"a wh-question with a comma before an auxiliary", "Which model, is it the larger one, wins?", KindFactual, nil, nil, nil, false},
		{"a lead-in longer than the clause", "In the generalized second price auction described by Varian (2009), does an advertiser pay its own bid?", KindYesNo, nil, nil, nil, false},
		{"a subordinate when-clause before the auxiliary", "When the distilled MNIST net was shrunk to 30 hidden units per layer, did intermediate temperatures work better than high ones?", KindYesNo, nil, nil, nil, false},
		{"a when-question is no lead-in", "When was the model, as published, trained?", KindFactual, nil, nil, nil, false},
		{"a German question's capitalised nouns are no name", "Wie nutzen klassische Planer wie STRIPS die Erfüllbarkeit Boolescher Formeln zur Problemlösung?", KindFactual, []string{"STRIPS"}, nil, nil, false},
		{"a question tag is no clause", "The model converges in ten epochs, does it?", KindFactual, nil, nil, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := Parse(tc.q)
			if q.Kind != tc.kind {
				t.Errorf("kind %q, want %q", q.Kind, tc.kind)
			}
			if tc.names != nil && !slices.Equal(q.Names, tc.names) && !(len(tc.names) == 0 && len(q.Names) == 0) {
				t.Errorf("names %q, want %q", q.Names, tc.names)
			}
			for _, r := range tc.refs {
				if !q.Refs[r] {
					t.Errorf("refs %v lack %q", q.Refs, r)
				}
			}
			if tc.focus != nil && !slices.Equal(q.Focus, tc.focus) && !(len(tc.focus) == 0 && len(q.Focus) == 0) {
				t.Errorf("focus %q, want %q", q.Focus, tc.focus)
			}
			if q.Citations != tc.citations {
				t.Errorf("citations %v, want %v", q.Citations, tc.citations)
			}
			if len(q.Terms) == 0 {
				t.Error("no content terms")
			}
		})
	}
}

func TestCitationWords(t *testing.T) {
	tests := []struct {
		name, q string
		want    []string
		not     []string
	}{
		{"two authors and a year", "In McCulloch and Pitts (1943), is the activity of a neuron an all-or-none process?", []string{"mcculloch", "pitts", "1943"}, []string{"activity", "neuron", "in"}},
		{"et al. with a year", "In Sharp et al. (2016), does adding the look-up baseline improve QA performance?", []string{"sharp", "et", "al", "2016"}, []string{"baseline", "qa", "in"}},
		{"a list after according to", "According to Hinton, Osindero and Teh, is learning one layer at a time optimal?", []string{"hinton", "osindero", "teh"}, []string{"is", "learning"}},
		{"a year alone", "Does the force Casimir (1948) finds depend on the material of the plates?", []string{"casimir", "1948"}, []string{"force", "material"}},
		{"no citation", "Can message-passing graph neural networks be Turing universal?", nil, []string{"turing", "universal", "graph"}},
		{"paper as a common noun names no paper", "According to the PaSa paper, is Google Scholar effective for complex fine-grained paper search queries?", []string{"pasa"}, []string{"complex", "fine-grained", "effective", "for"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CitationWords(tc.q)
			for _, w := range tc.want {
				if !got[w] {
					t.Errorf("%v lacks %q", got, w)
				}
			}
			for _, w := range tc.not {
				if got[w] {
					t.Errorf("%v holds %q", got, w)
				}
			}
		})
	}
}

// An author and year name the paper whatever its age: "Casimir (1948)"
// and "Turing (1936)" as "Kim (2014)"; a year alone names nothing.
func TestRefWordsOldCitations(t *testing.T) {
	for q, want := range map[string]string{
		"Does the force Casimir (1948) finds between two metal plates depend on the material of the plates?": "casimir",
		"What machine does Turing (1936) define?":                                                            "turing",
		"What filter sizes does Kim (2014) use?":                                                             "kim",
	} {
		if got := RefWords(q); len(got) != 1 || !got[want] {
			t.Errorf("RefWords(%q) = %v, want {%s}", q, got, want)
		}
	}
	if got := RefWords("Which models were released in 1948 and 2014?"); len(got) != 0 {
		t.Errorf("a year alone names no paper: %v", got)
	}
}

// Inside one paper, the terms that name it (title words, authors, the
// words the question refers to it with) are dropped; the rest stay in
// order, and a question made only of naming terms keeps them all.
func TestWithin(t *testing.T) {
	const tranad = "TranAD: Deep Transformer Networks for Anomaly Detection in Multivariate Time Series Data"
	tests := []struct {
		name, q, title string
		authors        []string
		want           []string
	}{
		{"title words describe the paper, not the passage",
			"Which optimizer and initial learning rate were used to train the transformer model for multivariate time-series anomaly detection?",
			tranad, []string{"Shreshth Tuli", "Giuliano Casale", "Nicholas R. Jennings"},
			Terms("Which optimizer and initial learning rate were used to train the model?")},
		{"an author's name and the citation words go",
			"What accuracy do Langdon et al.'s methylation models reach?",
			"Epigenetic modelling of former, current and never smokers", []string{"Rory Langdon", "Matthew Suderman"},
			Terms("What accuracy do methylation reach?")}, // "modelling" is a title word
		{"only naming terms: kept",
			"What is TranAD?", tranad, nil, Terms("What is TranAD?")},
		{"another paper's title changes nothing",
			"Which optimizer was used?", tranad, nil, Terms("Which optimizer was used?")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := Parse(tc.q)
			got := q.Within(tc.title, tc.authors)
			if !slices.Equal(got.Terms, tc.want) {
				t.Errorf("Within terms = %v, want %v (all terms %v)", got.Terms, tc.want, q.Terms)
			}
			if len(q.Terms) != len(Terms(tc.q)) {
				t.Errorf("Within changed the question it was called on: %v", q.Terms)
			}
		})
	}
}
