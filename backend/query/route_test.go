package query

import (
	"reflect"
	"testing"
)

func TestRouteOf(t *testing.T) {
	tests := []struct{ name, q, want string }{
		{"which papers", "Which papers use the Adam optimizer?", RouteList},
		{"what studies", "What studies report results on SQuAD?", RouteList},
		{"what works", "What works evaluate on ImageNet?", RouteList},
		{"list the papers", "List the papers that use dropout.", RouteList},
		{"in which papers", "In which papers is BLEU reported?", RouteList},
		{"which of the papers", "Which of the papers train on Twitter data?", RouteList},
		{"which papers compare is a list", "Which papers compare against random forests?", RouteList},
		{"compare", "Compare the datasets and metrics of the sentence classification papers", RouteCompare},
		{"how do X and Y differ", "How do BERT and RoBERTa differ in pre-training?", RouteCompare},
		{"differences between", "What are the differences between GloVe and word2vec?", RouteCompare},
		{"versus", "ResNet versus VGG: which is deeper?", RouteCompare},
		{"single factual", "What dropout rate does the Transformer use?", RouteSingle},
		{"which model is single", "Which model does the paper propose?", RouteSingle},
		{"which dataset is single", "Which dataset is used for evaluation?", RouteSingle},
		{"yes/no", "Does BERT use dropout?", RouteSingle},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, why := RouteOf(tc.q)
			if got != tc.want || why == "" {
				t.Errorf("RouteOf(%q) = %q (%q), want %q", tc.q, got, why, tc.want)
			}
			if q := Parse(tc.q); q.Route != got || (got == RouteList) != (q.Topic != nil) {
				t.Errorf("Parse: route %q topic %v", q.Route, q.Topic)
			}
		})
	}
}

func TestListTopic(t *testing.T) {
	words := func(q string) [][]string {
		var out [][]string
		for _, g := range ListTopic(q) {
			out = append(out, g.Words)
		}
		return out
	}
	tests := []struct {
		name, q string
		want    [][]string
	}{
		{"a research verb is not the topic", "Which papers use hate speech data?", [][]string{{"hate", "speech"}}},
		// a verb of its own says what is asked: "clip gradients" is not
		// every paper with gradients
		{"a specific verb is the topic", "Which papers clip gradients during training?", [][]string{{"clip", "gradients", "training"}}},
		{"detect", "Which papers detect hate speech?", [][]string{{"detect", "hate", "speech"}}},
		{"do as the verb", "Which papers do speaker recognition?", [][]string{{"speaker", "recognition"}}},
		{"frame words go", "Which papers report results on the Penn Treebank?", [][]string{{"penn", "treebank"}}},
		{"alternatives", "Which papers train their models with the Adam optimizer (or its AdamW variant)?", [][]string{{"adam", "optimizer"}, {"adamw"}}},
		{"coordinated verbs", "Which papers train or evaluate on Twitter data?", [][]string{{"twitter"}}},
		{"are about", "Which papers are about mutation testing?", [][]string{{"mutation", "testing"}}},
		{"not a list", "What dropout rate does the Transformer use?", nil},
		// a name leading the first alternative modifies the others
		{"a leading name is shared", "Which papers use Yelp review or business data?", [][]string{{"yelp", "review"}, {"yelp", "business"}}},
		{"an alternative with its own name keeps it", "Which studies record EEG or fMRI brain activity?", [][]string{{"record", "eeg"}, {"fmri", "brain", "activity"}}},
		{"no leading name, nothing shared", "Which papers visualize learned embeddings or representations with t-SNE?", [][]string{{"visualize", "learned", "embeddings"}, {"representations", "sne"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := words(tc.q); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ListTopic(%q) = %v, want %v", tc.q, got, tc.want)
			}
		})
	}
	g := ListTopic("Which papers discuss NP-hard problems in MNIST experiments?")[0]
	if !g.Name[0] || g.Compound[0] != g.Compound[1] || g.Compound[1] == g.Compound[2] {
		t.Errorf("names %v compounds %v: NP-hard is one typed name, MNIST another", g.Name, g.Compound)
	}
}

func TestListVerb(t *testing.T) {
	for q, want := range map[string]string{
		"Which papers use dropout in their models?":                "use",
		"Which papers clip gradients during training?":             "clip",
		"Which papers are about consensus in distributed systems?": "are",
		"Which papers that train models on TPUs?":                  "train",
		"Which of my papers do not use Adam?":                      "use",
		"What dropout rate does the Transformer use?":              "",
	} {
		if got := ListVerb(q); got != want {
			t.Errorf("ListVerb(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestListTopicEdition(t *testing.T) {
	tests := []struct{ name, q, word, number string }{
		{"year", "Which papers evaluate on the CoNLL-2003 dataset?", "conll", "2003"},
		{"version", "Which papers evaluate on CIFAR-100?", "cifar", "100"},
		{"no number", "Which papers use GloVe vectors?", "glove", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := ListTopic(tc.q)[0]
			for i, w := range g.Words {
				if w == tc.word && g.Number[i] != tc.number {
					t.Errorf("%s: number %q, want %q", w, g.Number[i], tc.number)
				}
			}
		})
	}
}
