package query

import "testing"

func TestGistOf(t *testing.T) {
	for _, tc := range []struct {
		name, q, of string
		paper, ok   bool
	}{
		{"propose", "What does the GloVe paper propose?", "the GloVe paper", true, true},
		{"main contribution", "What is the main contribution of this work?", "this work", true, true},
		{"summarize", "Summarize the FastBERT paper.", "the FastBERT paper", true, true},
		{"about", "What is this paper about?", "this paper", true, true},
		{"a name", "What does GloVe propose?", "GloVe", false, true},
		{"overview", "Give me a short overview of the ResNeXt paper", "the ResNeXt paper", true, true},
		{"problem", "What problem does the Raft paper address?", "the Raft paper", true, true},
		{"a concept", "What is the main idea of seminaive evaluation?", "seminaive evaluation", false, true},
		{"not a gist", "What does the model predict for unseen words?", "", false, false},
		{"what do they propose to fix", "What does the paper propose to reduce overfitting?", "", false, false},
		{"results on a data set", "What are the results on SQuAD?", "", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			of, paper, ok := GistOf(tc.q)
			if of != tc.of || paper != tc.paper || ok != tc.ok {
				t.Errorf("GistOf(%q) = %q, %v, %v; want %q, %v, %v", tc.q, of, paper, ok, tc.of, tc.paper, tc.ok)
			}
		})
	}
}
