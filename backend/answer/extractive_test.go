package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

func TestExtractive(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := func(score float64, text string) papertree.Evidence {
		return papertree.Evidence{Kind: papertree.KindSegment, Text: text, Score: score}
	}
	repeated := "We group glyphs into words by their gaps and into lines by their baselines."
	tests := []struct {
		name      string
		question  string
		evidence  []papertree.Evidence
		notFound  bool
		contains  []string
		absent    []string
		citations []int
	}{
		{"no evidence", "How are glyphs grouped?", nil, true, []string{NotFoundText}, nil, nil},
		{"a low retrieval score alone decides nothing: the sentence that answers is quoted", "How are glyphs grouped?",
			[]papertree.Evidence{ev(0.01, repeated)},
			false, []string{"group glyphs into words", "[1]"}, []string{NotFoundText, "weak"}, []int{0}},
		{"cites the supporting passage", "What learning rate was used for training?",
			[]papertree.Evidence{
				ev(0.5, "The dataset has ten thousand questions about scientific papers."),
				ev(0.6, "We train with Adam and a learning rate of 0.0001 for ten epochs."),
			},
			false, []string{"learning rate of 0.0001", "[2]"}, nil, []int{1}},
		// Sentences from Devlin et al. 2019, "BERT" (NAACL, ACL Anthology
		// N19-1423, CC BY 4.0), with the evidence scores retrieval gave them.
		{"the question's rare words pick the answering sentence over the restating one",
			"Which corpora were used for pre-training the bidirectional Transformer encoder, and how many words do they have?",
			[]papertree.Evidence{
				ev(0.825, "We introduce a new language representation model called BERT, which stands for Bidirectional Encoder Representations from Transformers. BERT is conceptually simple and empirically powerful."),
				ev(1.18, "In this paper, we improve the fine-tuning based approaches by proposing BERT: Bidirectional Encoder Representations from Transformers. "+
					"Unlike left-to-right language model pre-training, the MLM objective enables the representation to fuse the left and the right context, which allows us to pre-train a deep bidirectional Transformer."),
				ev(0.963, "The bidirectional Transformer is often referred to as a Transformer encoder while the left-context-only version is referred to as a Transformer decoder since it can be used for text generation."),
				ev(0.998, "The pre-training procedure largely follows the existing literature on language model pre-training. "+
					"For the pre-training corpus we use the BooksCorpus (800M words) and English Wikipedia (2,500M words)."),
				ev(0.915, "BERT uses a bidirectional Transformer. OpenAI GPT uses a left-to-right Transformer."),
			},
			false, []string{"BooksCorpus (800M words)", "[4]"}, []string{"by proposing BERT"}, nil},
		{"a quantity question quotes the sentence with the number", "How many parameters does the largest Zephyr model have?",
			[]papertree.Evidence{
				ev(1.5, "We trained four language models of growing size. Our largest model, which we call Zephyr, has many more parameters than its predecessor."),
				ev(1.0, "Our largest model, Zephyr, is a 1.5B parameter Transformer trained on web text."),
			},
			false, []string{"1.5B parameter", "[2]"}, []string{"many more parameters"}, nil},
		{"the author line of the paper the question names is not the answer", "In Hinton and Salakhutdinov's Science paper, what is difficult about deep autoencoders without pretraining?",
			[]papertree.Evidence{
				ev(1.0, "G. E. Hinton and R. R. Salakhutdinov, University of Toronto. "+
					"It is difficult to optimize the weights in nonlinear autoencoders that have multiple hidden layers."),
			},
			false, []string{"difficult to optimize the weights"}, []string{"Hinton and R. R."}, nil},
		{"a sentence repeated in two passages is quoted once", "How are glyphs grouped into words?",
			[]papertree.Evidence{ev(0.6, repeated), ev(0.6, repeated)},
			false, []string{repeated}, nil, nil},
		// A text layer printing one sentence twice with other spacing
		// (Spatial-Temporal Convolutional Transformer Network, 4.2.2).
		{"a sentence printed twice with other spacing is quoted once", "What is the time complexity of self-attention?",
			[]papertree.Evidence{ev(0.9, "However, the standard self-attention has a time and memory complexity of O(n2). "+
				"However, the standard self-attention has a time and memory complexity of O(n2 ) .")},
			false, []string{"memory complexity of O(n2)"}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, nf, cited, err := Extractive(context.Background(), emb, tt.question, tt.evidence, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if nf != tt.notFound {
				t.Fatalf("notFound = %v, want %v (%q)", nf, tt.notFound, text)
			}
			for _, c := range tt.contains {
				if !strings.Contains(text, c) {
					t.Errorf("answer %q lacks %q", text, c)
				}
			}
			for _, c := range tt.absent {
				if strings.Contains(text, c) {
					t.Errorf("answer %q quotes %q", text, c)
				}
			}
			if tt.name == "a sentence repeated in two passages is quoted once" && strings.Count(text, repeated) != 1 {
				t.Errorf("repeated sentence quoted %d times: %q", strings.Count(text, repeated), text)
			}
			if n := strings.Count(text, "However, the standard"); strings.Contains(tt.name, "other spacing") && n != 1 {
				t.Errorf("the sentence is quoted %d times: %q", n, text)
			}
			if tt.citations != nil && (len(cited) != len(tt.citations) || cited[0] != tt.citations[0]) {
				t.Errorf("citations %v, want %v", cited, tt.citations)
			}
		})
	}
}

// An unreadable "sentence" of the evidence (pseudo-code, a flattened
// table row, an equation, garbled glyphs) holding the question's words is
// evidence, but the readable sentence saying the same is quoted.
func TestReadableAnswerSentence(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := func(score float64, text string) papertree.Evidence {
		return papertree.Evidence{Kind: papertree.KindSegment, Text: text, Score: score}
	}
	tests := []struct {
		name, question, unreadable, readable string
	}{
		{"pseudo-code", "How does ordered boosting compute the residuals?",
			"Ordered boosting: for i = 1 to n do residuals r_i ← y_i − M_σ(i)−1 (x_i) end for compute the residuals.",
			"Ordered boosting computes the residuals of each example with a model trained without that example."},
		{"table row", "What BLEU score does the big Transformer reach on English-German?",
			"Transformer (big) BLEU English-German 28.4 41.8 2.3 · 10^19 BLEU 26.36 41.29 7.7 · 10^19",
			"The big Transformer model reaches a BLEU score of 28.4 on the English-German translation task."},
		{"equation", "How is the attention output computed from queries, keys and values?",
			"Attention(Q, K, V) = softmax(QK^T/√d_k)V , queries Q keys K values V output O = W_o[h_1; ...; h_h]",
			"The attention output is computed as a weighted sum of the values, with weights from the queries and keys."},
		{"garbled glyphs", "Which optimizer trains the tagging model?",
			"\uFFFDptimizer \uFFFD tagging model trains \uFFFD\uFFFD Adam \uE000 optimizer \uFFFD",
			"The tagging model is trained with the Adam optimizer."},
		{"OCR noise", "Which corpus was the word2vec model trained on?",
			"Tbc wrd2vc rnrdl wss trnd rn tbc Gxxglc Ncws crps word2vec model trained corpus.",
			"The word2vec model was trained on the Google News corpus."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			unreadable := strings.ReplaceAll(strings.ReplaceAll(tc.unreadable, "\\uFFFD", "\uFFFD"), "\\uE000", "\uE000")
			text, nf, _, err := Extractive(context.Background(), emb, tc.question,
				[]papertree.Evidence{ev(0.9, unreadable), ev(0.5, tc.readable)}, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if nf || !strings.HasPrefix(text, tc.readable) || strings.Contains(text, unreadable) {
				t.Errorf("answer %q (not found %v), want the readable sentence first and the unreadable one not quoted", text, nf)
			}
		})
	}
	// With no readable sentence holding the question's words, the
	// unreadable one is still quoted.
	text, _, _, _ := Extractive(context.Background(), emb, "What BLEU score does the big Transformer reach?",
		[]papertree.Evidence{ev(0.9, "Transformer (big) BLEU 28.4 41.8 2.3 · 10^19"), ev(0.5, "Training took three days on eight GPUs.")}, DefaultOptions())
	if !strings.Contains(text, "28.4 41.8") {
		t.Errorf("answer %q lacks the only sentence holding the question's words", text)
	}
}

func TestStripMarkers(t *testing.T) {
	if got := StripMarkers("A [1] and B [2, 3]."); got != "A and B." {
		t.Fatalf("StripMarkers = %q", got)
	}
}

func TestQuantity(t *testing.T) {
	tests := []struct {
		name, question, sentence string
		asks, has                bool
	}{
		{"how many with a number", "How many parameters does GPT-2 have?", "Our largest model, GPT-2, is a 1.5B parameter Transformer.", true, true},
		{"a name's digit is no quantity", "How many parameters does GPT-2 have?", "Our largest model, which we call GPT-2, has more parameters than GPT.", true, false},
		{"a year is a citation", "How many papers were surveyed?", "Following Smith et al. (2019), we surveyed the field.", true, false},
		{"the question's own number", "How many of the 10 runs diverged?", "Of the 10 runs, none diverged.", true, false},
		{"a percentage", "What percentage of tokens is masked?", "We mask 15% of the tokens at random.", true, true},
		{"an approximate number", "How long did training take?", "Training took ~5 days on two GPUs.", true, true},
		{"not a quantity question", "Which dataset is used?", "We use 3 datasets.", false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			qw := map[string]bool{}
			for _, w := range strings.Fields(strings.ToLower(tc.question)) {
				qw[strings.Trim(w, ".,;:?!()\"'’")] = true
			}
			if got := asksQuantity(tc.question); got != tc.asks {
				t.Errorf("asksQuantity = %v, want %v", got, tc.asks)
			}
			if got := hasQuantity(tc.sentence, qw); got != tc.has {
				t.Errorf("hasQuantity(%q) = %v, want %v", tc.sentence, got, tc.has)
			}
		})
	}
}

// A "not answered" reply speaks of the scope the question was asked of: one
// paper is "this paper", not "these papers".
func TestNotFoundOpeningFollowsScope(t *testing.T) {
	emb := embedding.NewBuiltin()
	unrelated := []papertree.Evidence{{Kind: papertree.KindSegment, Score: 0.01, Text: "The experiments ran on eight GPUs for three days in total."}}
	tests := []struct {
		name  string
		scope []int64
		ev    []papertree.Evidence
		want  string
	}{
		{"one paper, unrelated evidence", []int64{7}, unrelated, NotFoundOneText + " "},
		{"one paper, no evidence", []int64{7}, nil, NotFoundOneText + " Nothing in it matched"},
		{"two papers", []int64{7, 8}, unrelated, NotFoundText + " "},
		{"the library", nil, nil, NotFoundText + " Nothing in the searched papers matched"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Compose(context.Background(), emb, Input{Question: "Which protein folding benchmark do the authors use?", Evidence: tc.ev,
				Missing: []string{"protein", "folding", "benchmark"}, Terms: 4,
				Scoped: tc.scope != nil, Claims: Claims{Scope: tc.scope}}, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if !out.NotFound || !strings.HasPrefix(out.Text, tc.want) {
				t.Errorf("text %q (not found %v), want it to open with %q", out.Text, out.NotFound, tc.want)
			}
		})
	}
}
