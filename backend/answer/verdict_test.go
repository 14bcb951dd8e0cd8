package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// The reader errors behind wrong "yes" verdicts (issue 19, precision over
// coverage), on sentences written for the case: the predicate read inside
// the subject's that-clause, an exception not read as excluding, another
// adjective than the question's, the object's words scattered over
// phrases, an unknown verb read as no predicate, an abbreviation in a privative
// phrase. Each with a control that must keep its verdict.
func TestVerdictPrecision(t *testing.T) {
	tests := []verdictCase{
		{"a stance asked: the authors' belief answers it", "Do the authors consider object-oriented programming an adequate foundation for avoiding complexity?",
			"We believe that object-oriented programming does not provide an adequate foundation for avoiding complexity.", VerdictNo},
		{"a stance asked, affirmed", "Do the authors consider dropout a sufficient regularizer for small datasets?",
			"We believe that dropout is a sufficient regularizer for small datasets.", VerdictYes},
		{"a fact asked: the authors' belief still hedges it", "Is object-oriented programming an adequate foundation for avoiding complexity?",
			"We believe that object-oriented programming does not provide an adequate foundation for avoiding complexity.", VerdictUnclear},
		{"that-clause subject: the main predicate decides", "Is the claim that the heap is balanced widely accepted?",
			"The claim that the heap is balanced is not widely accepted.", VerdictNo},
		{"that-clause subject: the clause's own predicate decides nothing", "Is the claim that the heap is balanced widely accepted?",
			"The heap is balanced after every insertion.", VerdictUnclear},
		{"that-clause subject: affirmed", "Is the result that every planar graph is colourable well known?",
			"The result that every planar graph is colourable is well known to graph theorists.", VerdictYes},
		{"that-clause subject without a predicate after it", "Is the claim that the heap is balanced?",
			"The heap is balanced after every insertion.", VerdictUnclear},
		{"object only in a coordinated clause decides nothing", "Does each host's block computation require communicating with other hosts?",
			"The method just needs to call the local kernel on each host, and overlap the communication of blocks between hosts with computation.", VerdictUnclear},
		{"object in the predicate's own clause", "Does each host's block computation require communicating with other hosts?",
			"The method needs communicating with other hosts on every step, and overlaps it with computation.", VerdictYes},
		{"subject only in a clause coordinated after the predicate's", "Is the runtime written in OCaml?",
			"The compiler is written in OCaml, and its runtime in Rust.", VerdictUnclear},
		{"subject before the predicate's clause", "Is the runtime written in OCaml?",
			"The runtime is small, and it is written in OCaml.", VerdictYes},
		{"a negation after 'and' that holds the predicate negates it", "Is HitAnomaly appropriate for generic continuous time-series data?",
			"The recently proposed HitAnomaly method uses vanilla transformers, but is only applicable to log data and not appropriate for generic continuous time-series data as inputs.", VerdictNo},
		{"'not so much' negates: 'so' grades, it opens no clause", "Is there much research on combining test-driven development with mutation testing?",
			"However, there is not so much research on combining test-driven development with mutation testing.", VerdictNo},
		{"a hedge in a clause coordinated after the predicate's does not reach it", "Is there a generally recognized formal definition of an outlier?",
			"There is no generally recognized formal definition for outlier, but roughly it means values that would not commonly occur.", VerdictNo},
		{"a hedge after a comma or semicolon does not reach the predicate", "Do the rules for making sense of a written expression rely on the shape of brackets?",
			"That is to say, the rules for making sense of a written expression do not rely on the shape of brackets; no information would be lost by disregarding it.", VerdictNo},
		{"a hedge in a subordinate clause still does", "Is the model trained with the auxiliary loss?",
			"The model is trained to predict whether the segments match via an auxiliary loss.", VerdictUnclear},
		{"an equality comparison is not answered by a sentence that compares nothing", "Is Concurrent ML as declarative as FRP?",
			"As a declarative framework, FRP makes this task considerably easier.", VerdictUnclear},
		{"an equality comparison answered", "Is Concurrent ML as declarative as FRP?",
			"Concurrent ML is powerful, but the overall approach is not as declarative as FRP.", VerdictNo},
		{"except excludes", "Does the group satisfy commutativity?",
			"The group satisfies every axiom of an abelian group except commutativity.", VerdictNo},
		{"except for excludes", "Does the scheme use the cache?", "The scheme uses every module except for the cache.", VerdictNo},
		{"other than excludes", "Does the scheme use the cache?", "The scheme uses every module other than the cache.", VerdictNo},
		{"apart from excludes", "Does the scheme use the cache?", "The scheme uses every module apart from the cache.", VerdictNo},
		{"excluding excludes", "Does the scheme use the cache?", "The scheme uses all modules, excluding the cache.", VerdictNo},
		{"save for excludes", "Does the scheme use the cache?", "The scheme uses all modules save for the cache.", VerdictNo},
		{"but not excludes", "Does the scheme use the cache?", "The scheme uses the scheduler but not the cache.", VerdictNo},
		{"the rest of an exception is held", "Does the scheme use the scheduler?", "The scheme uses every module except the cache, including the scheduler.", VerdictYes},
		{"apart from with also adds", "Does the model use weight decay?", "Apart from dropout, the model also uses weight decay.", VerdictYes},
		{"another adjective decides nothing", "Is the proof of the lemma straightforward?", "The proof of the lemma is problematic.", VerdictUnclear},
		{"another adjective before the infinitive", "Are the cache invariants easy to check by hand?", "The cache invariants are tedious to check by hand.", VerdictUnclear},
		{"the same adjective decides", "Is the proof of the lemma straightforward?", "The proof of the lemma is lengthy but straightforward.", VerdictYes},
		{"object words in different phrases", "Was the algorithm designed by German engineers?",
			"The algorithm was designed by Dutch engineers at the request of the German railway.", VerdictUnclear},
		{"object words together", "Was the algorithm designed by German engineers?", "The algorithm was designed by German engineers in 1970.", VerdictYes},
		{"object words nearly together", "Was the algorithm designed by German engineers?", "The algorithm was designed by German railway engineers.", VerdictYes},
		{"an unknown verb read: the object decides", "Can messages flow from replicas to the coordinator?", "Messages only flow from the coordinator to the clients.", VerdictUnclear},
		{"an unknown verb read: affirmed", "Can messages flow from replicas to the coordinator?", "Messages can flow from replicas to the coordinator at any time.", VerdictYes},
		{"abbreviation inside without", "Is the encoder trained with the masked span prediction objective?",
			"The encoder is trained with long sequences, without MSP objective and with larger batches.", VerdictNo},
	}
	checkVerdicts(t, tests)
}

func TestVerdict(t *testing.T) {
	tests := []verdictCase{
		{"affirmed", "Does the LSTM learn better when the source sentences are reversed?",
			"We discovered that the LSTM learns much better when the source sentences are reversed.", VerdictYes},
		{"negated by not", "Does optimizing ROC area also optimize PR area?",
			"An algorithm that optimizes the area under the ROC curve is not guaranteed to optimize the area under the PR curve.", VerdictNo},
		{"negated by without", "Does the model use a syntactic parser?",
			"The model reaches state of the art without using a syntactic parser or mention detector.", VerdictNo},
		{"negative question, negative sentence", "Is the Transformer not computationally universal?",
			"The Transformer model is not computationally universal.", VerdictYes},
		{"negation in the question's condition, none in the sentence", "Is transfer possible when there is no shared vocabulary?",
			"We study transfer performance by varying the amount of shared vocabulary.", VerdictUnclear},
		{"negation in a parenthesis", "Does the LSTM learn better when the source sentences are reversed?",
			"The LSTM learns much better when the source sentences are reversed (the target sentences are not reversed).", VerdictYes},
		{"contraction", "Can the model handle unseen words?", "The model can't handle words it has never seen.", VerdictNo},
		{"rarely negates", "Do character models match the oracle?", "Character models rarely match the accuracy of the oracle.", VerdictNo},
		{"antonym of the predicate", "Does MLM pre-training converge faster than left-to-right pre-training?",
			"The MLM model does converge slower than the left-to-right model.", VerdictNo},
		{"same comparative", "Does MLM pre-training converge slower than left-to-right pre-training?",
			"The MLM model does converge slightly slower than the left-to-right model.", VerdictYes},
		{"outperform answered by underperform", "Does the model outperform the baseline on NER?",
			"Our model underperforms the baseline on NER by two points.", VerdictNo},
		{"antonym and negation cancel", "Does the model outperform the baseline?",
			"The model does not underperform the baseline.", VerdictYes},
		{"hedged sentence decides nothing", "Does pre-training help low-resource languages?",
			"Pre-training may help low-resource languages.", VerdictUnclear},
		{"a question of possibility is answered by a modal of possibility", "Can the attraction between the plates be interpreted as a zero point pressure?",
			"The attraction between the plates may be interpreted as a zero point pressure.", VerdictYes},
		{"a supposition still leaves a question of possibility open", "Can the attraction between the plates be interpreted as a zero point pressure?",
			"The attraction between the plates could perhaps be interpreted as a zero point pressure.", VerdictUnclear},
		{"hedged question, hedged sentence", "Might pre-training help low-resource languages?",
			"Pre-training might help low-resource languages.", VerdictYes},
		{"a quoted title is no negation", `According to "How NOT To Evaluate Your Dialogue System", do machine translation metrics correlate with human judgements on the technical Ubuntu domain?`,
			"We show that these metrics correlate very weakly with human judgements in the non-technical Twitter domain, and not at all in the technical Ubuntu domain.", VerdictNo},
		{"contrast decides nothing", "Do they use all the hidden layer representations?",
			"Instead of taking the whole output as the hidden representation, we concatenate each layer's final state.", VerdictUnclear},
	}
	checkVerdicts(t, tests)
}

// Compose decides "not in these papers" and yes/no verdicts from the
// evidence and retrieval's coverage signals.
func TestCompose(t *testing.T) {
	emb := embedding.NewBuiltin()
	ev := func(score float64, text string) papertree.Evidence {
		return papertree.Evidence{Kind: papertree.KindSegment, Text: text, Score: score}
	}
	const shorQ = "Do the quantum algorithms for factoring and discrete logarithms take a number of steps polynomial in the input size?"
	const shorTitle = "Polynomial-Time Algorithms for Prime Factorization and Discrete Logarithms on a Quantum Computer"
	shorEv := func(id int64, title string) papertree.Evidence {
		return papertree.Evidence{Kind: papertree.KindSegment, PaperID: id, PaperTitle: title, Score: 0.5,
			Text: "These algorithms take a number of steps polynomial in the input size, e.g., the number of digits of the integer to be factored."}
	}
	bert := []papertree.Evidence{ev(0.5, "We use a batch size of 256 sequences for pre-training, with a learning rate of 1e-4 and Adam.")}
	tests := []struct {
		name     string
		in       Input
		notFound bool
		verdict  string
		contains string
	}{
		{"answerable factual question", Input{Question: "What batch size was used for pre-training?", Evidence: bert, Terms: 3},
			false, "", "256"},
		{"a name no paper mentions", Input{Question: "What batch size did AlphaFold2 use?", Evidence: bert, Missing: []string{"AlphaFold2"}, MissingName: true, Terms: 3},
			true, "", "closest passage, not an answer"},
		{"most words absent from the papers", Input{Question: "What is the carbon footprint of the protein folding run?", Evidence: bert,
			Missing: []string{"carbon", "footprint", "protein", "folding"}, Terms: 5}, true, "", NotFoundText},
		{"unrelated low-scored evidence: not found because the papers lack the question's words, not because of the score",
			Input{Question: "Which tokenizer handles Chinese characters and emoji?",
				Evidence: []papertree.Evidence{ev(0.05, "The experiments ran on eight GPUs for three days in total.")},
				Missing:  []string{"tokenizer", "Chinese", "characters", "emoji"}, MissingName: true, Terms: 5}, true, "", NotFoundText},
		{"one paraphrased word of a two-word question is no reason", Input{Question: "Which baselines were compared?", Evidence: []papertree.Evidence{
			ev(0.5, "We compare against three baselines: BM25, a CNN and an LSTM reader.")}, Missing: []string{"compared"}, Terms: 2}, false, "", "three baselines"},
		{"yes/no decided yes", Input{Question: "Does the model use Adam for pre-training?", Evidence: bert, Terms: 3},
			false, VerdictYes, "Yes."},
		{"yes/no decided no", Input{Question: "Does the coreference model use a syntactic parser?",
			Evidence: []papertree.Evidence{ev(0.5, "Our coreference model is trained end to end without using a syntactic parser.")}, Terms: 4},
			false, VerdictNo, "No."},
		{"a sentence about other work decides nothing", Input{Question: "Does the selection model need dependency parsers?",
			Evidence: []papertree.Evidence{ev(0.5, "State-of-the-art models for relation extraction rely on dependency parsers and the selection model pipeline.")}, Terms: 4},
			false, VerdictUnclear, "Unclear"},
		{"a question about other work may be decided by it", Input{Question: "Do previous models need dependency parsers?",
			Evidence: []papertree.Evidence{ev(0.5, "Previous models for relation extraction need dependency parsers.")}, Terms: 4},
			false, VerdictYes, "Yes."},
		{"the words naming the paper need not be covered", Input{Question: "According to Davis and Goadrich, does optimizing ROC area optimize PR area?",
			Evidence: []papertree.Evidence{ev(0.5, "An algorithm that optimizes the area under the ROC curve is not guaranteed to optimize the area under the PR curve.")}, Terms: 7},
			false, VerdictNo, "No."},
		{"a sentence cut by the budget decides nothing", Input{Question: "According to Davis and Goadrich, does optimizing ROC area optimize PR area?",
			Evidence: []papertree.Evidence{ev(0.5, "Finally, we show that an algorithm that optimizes the area under the ROC curve is not guaranteed to"+papertree.Cut)}, Terms: 7},
			false, VerdictUnclear, "Unclear"},
		{"a sentence covering the subject but not the predicate decides nothing", Input{Question: "Does Autoformer use series decomposition only as a pre-processing step?",
			Evidence: []papertree.Evidence{ev(0.5, "Our Autoformer harnesses the series decomposition as an inner block of deep models.")}, Terms: 5},
			false, VerdictUnclear, "Unclear"},
		{"a negation scoping over the predicate says no", Input{Question: "Does the Transformer use recurrence?",
			Evidence: []papertree.Evidence{ev(0.5, "In this work, we presented the Transformer, the first sequence transduction model based entirely on attention, "+
				"replacing the recurrent layers most commonly used in encoder-decoder architectures with multi-headed self-attention.")}, Terms: 3},
			false, VerdictNo, "No."},
		{"a cited work's predicate decides nothing", Input{Question: "Do they separately extract topic relations in their model?",
			Evidence: []papertree.Evidence{ev(0.5, "Among models not using unigrams, LDA+GSHL BIBREF13 only extracts a subset of topic relations in their model.")}, Terms: 4},
			false, VerdictUnclear, "Unclear"},
		{"a comparison's direction must be said", Input{Question: "Does this model perform better than the state of the art?",
			Evidence: []papertree.Evidence{ev(0.5, "We produce a model which performs similarly to state-of-the-art approaches without relying on any specific resource.")}, Terms: 4},
			false, VerdictUnclear, "Unclear"},
		{"the paper's title counts as held", Input{Question: shorQ, Evidence: []papertree.Evidence{shorEv(1, shorTitle)}, Terms: 8},
			false, VerdictYes, "Yes."},
		{"without the title the sentence covers too little", Input{Question: shorQ, Evidence: []papertree.Evidence{shorEv(1, "")}, Terms: 8},
			false, VerdictUnclear, "Unclear"},
		{"the title counts only when the evidence is one paper's", Input{Question: shorQ, Evidence: []papertree.Evidence{shorEv(1, shorTitle),
			{Kind: papertree.KindSegment, PaperID: 2, PaperTitle: "Quantum Chemistry", Text: "Quantum chemistry computes molecular energies.", Score: 0.3}}, Terms: 8},
			false, VerdictUnclear, "Unclear"},
		{"yes/no left unclear when no sentence covers it", Input{Question: "Does pre-training improve accuracy on question answering and inference?",
			Evidence: []papertree.Evidence{ev(0.5, "Pre-training takes four days on sixteen TPU chips with large batches.")}, Terms: 6},
			false, VerdictUnclear, "Unclear"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Compose(context.Background(), emb, tc.in, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if out.NotFound != tc.notFound || out.Verdict != tc.verdict {
				t.Fatalf("notFound=%v verdict=%q (reason %q), want %v %q; text %q", out.NotFound, out.Verdict, out.Reason, tc.notFound, tc.verdict, out.Text)
			}
			if !strings.Contains(out.Text, tc.contains) {
				t.Errorf("text %q lacks %q", out.Text, tc.contains)
			}
		})
	}
}

func TestLeadingVerdict(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"yes", "Yes, the model uses Adam [1].", VerdictYes},
		{"no", "No. It is trained without a parser [2].", VerdictNo},
		{"hedged", "The evidence suggests so [1].", VerdictUnclear},
		{"not no", "Nothing in the papers says so.", VerdictUnclear},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := LeadingVerdict(tc.text); got != tc.want {
				t.Errorf("LeadingVerdict(%q) = %s, want %s", tc.text, got, tc.want)
			}
		})
	}
}

// A sentence read with its paper's title: the title's words in the
// question's object count as said, except names, which the sentence must
// say itself.
func TestTitledJudge(t *testing.T) {
	tests := []struct{ name, q, s, title, want string }{
		{"object words in the title are the paper's topic", "Do the metrics assume word overlap between dialogue responses?",
			"These metrics assume word overlap between valid responses.", "How not to evaluate your dialogue system", VerdictYes},
		{"without the title the object is not said", "Do the metrics assume word overlap between dialogue responses?",
			"These metrics assume word overlap between valid responses.", "", VerdictUnclear},
		{"a name must be said by the sentence", "Does the checker have Typed Racket's runtime contract generation?",
			"The checker has runtime contract generation.", "Typed Racket for beginners", VerdictUnclear},
		{"control: the name said", "Does the checker have Typed Racket's runtime contract generation?",
			"The checker has Typed Racket's runtime contract generation.", "Typed Racket for beginners", VerdictYes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := newTitledJudge(tc.q, true)(tc.s, tc.title); got != tc.want {
				t.Errorf("verdict = %s, want %s", got, tc.want)
			}
		})
	}
}

// verdictCase is a yes/no question, a deciding sentence and the verdict
// Verdict must read from it.
type verdictCase struct{ name, q, s, want string }

// checkVerdicts asks Verdict each case, one subtest a case.
func checkVerdicts(t *testing.T, cases []verdictCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Verdict(tc.q, tc.s); got != tc.want {
				t.Errorf("Verdict(%q, %q) = %s, want %s", tc.q, tc.s, got, tc.want)
			}
		})
	}
}
