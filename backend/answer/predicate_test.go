package answer

import (
	"strings"
	"testing"
)

// The predicate read off a question's syntax (questions from the
// development, held-out and QASPER sets).
func TestPredicateOf(t *testing.T) {
	tests := []struct {
		name, q, words string
		compare        bool
	}{
		{"do: verb after the subject", "Does the multi-head selection model for joint entity and relation extraction need POS taggers or dependency parsers?", "need", false},
		{"do: verb after an adverb, not the noun before", "Does the 1.5B parameter language model fully fit WebText?", "fit", false},
		{"do: noun-verb words in the subject", "Did the LSTM hate speech model perform better on English input than on Spanish input?", "perform", true},
		{"do: verb of a relative clause is the subject's", "Does a ridge model that integrates external meta features lose prediction accuracy when those meta features carry no information?", "lose", false},
		{"do: quoted title and lead-in skipped", `According to "How NOT To Evaluate Your Dialogue System", do machine translation metrics correlate with human judgements on the technical Ubuntu domain?`, "correlate", false},
		{"do: pronoun subject, unknown verb", "did they experiment with other languages?", "experiment", false},
		{"light verb: its object too", "Do any of their reviews contain translations for both Catalan and Basque?", "contain translations", false},
		{"empty verb: only its object", "Does each image have one caption?", "caption", false},
		{"empty participle: the adverb", "Was the entire annotation process done manually?", "manually", false},
		{"reporting verb: the that-clause", "Do Khan and Thomas (2008) find that nonconvex adjustment costs cause lumpy investment when plants face idiosyncratic productivity shocks?", "cause", false},
		{"reporting verb: a be-clause", "Do Akitaya et al. show that deciding their Fréchet-based graph distances is NP-hard for general embedded graphs?", "np hard", false},
		{"judging verb: the object's adjective", "Do Holmes Watkins et al. consider 40ng of input DNA usable on the MethylationEPIC BeadChip?", "usable", false},
		{"judging verb: an article after the object opens the complement", "Do the authors consider dropout a sufficient regularizer for small datasets?", "sufficient regularizer", false},
		{"judging verb: an article right after it opens the object", "Do the authors consider the new tokenizer usable for code?", "usable", false},
		{"catenative verb: the infinitive", "Do they attempt to jointly learn connectives, arguments and senses end-to-end?", "learn", false},
		{"be: adjective after an adverb", "Is the standard Transformer model computationally universal?", "universal", false},
		{"resultative: the comparison after the object", "Does using smaller patches make a vision transformer more expensive to compute?", "expensive", true},
		{"resultative: the adjective after the object", "Does layer normalization make training stable?", "stable", false},
		{"be: a noun phrase after the subject", "In McCulloch and Pitts (1943), is the activity of a neuron an all-or-none process?", "all or none process", false},
		{"be: a determined noun phrase with its modifiers", "Is the handling of state the major contributor to complexity in large software systems?", "major contributor", false},
		{"do: a verb-shaped noun after a preposition is no verb", "Does the zero-shot detector need semantic information about the unseen classes at test time?", "need", false},
		{"modal be: the adjective, as after is", "Can message-passing graph neural networks be Turing universal?", "universal", false},
		{"modal be: the participle", "Can FastBERT's inference speed be adjusted to varying demands?", "adjusted", false},
		{"passive light verb: no object asked", "In Hinton, Vinyals and Dean's paper, is the same high temperature used when training the small model?", "used", false},
		{"do: a verb the list lacks, before its determined object", "In the generalized second price auction described by Varian (2009), does an advertiser pay its own bid for a click?", "pay", false},
		{"do: a known verb wins over an unknown one", "Does the parser improve accuracy the most?", "improve", false},
		{"be: hyphenated adjective", "Are their formal queries tree-structured?", "tree structured", false},
		{"be: \"well\" is an adverb before the participle", "Is the convergence of boosting theoretically well understood?", "understood", false},
		{"be: an adjective before a noun modifies it", "According to Fisher, is the idea of an infinite hypothetical population implicit in all statements involving mathematical probability?", "implicit", false},
		{"be: an adjective inside a prepositional phrase modifies its noun", "Is a single layer of binary features the best way to model the structure of a set of images?", "best way", false},
		{"be: a name in -ly is the subject, not an adverb", "Is HitAnomaly appropriate for generic continuous time-series data?", "appropriate", false},
		{"be: participle of the subject skipped", "Are all mutants produced by a regular-expression-based mutation tool guaranteed to compile?", "guaranteed", false},
		{"be: comparison with more", "Was the personalized citation reading tool more effective for paper discovery than the baselines in the lab study?", "effective", true},
		{"be: comparison of equality", "Is multilingual BERT fluent in language generation as well as monolingual models?", "fluent", true},
		{"be: demonstrative subject", "Is this more effective for low-resource than high-resource languages?", "effective", true},
		{"be: adjective right after a one-word subject", "Is the data specific to a domain?", "specific", false},
		{"is it true that: the clause", "Is it true that the model does not use dropout?", "use dropout", false},
		{"negative auxiliary", "Does the model not need labelled data?", "need", false},
		// Written for the precision work of issue 19 (own sentences).
		{"be: a that-clause in the subject has its own predicate", "Is the claim that the heap is balanced widely accepted?", "accepted", false},
		{"be: a that-clause's adjective is not the question's", "Is the result that every planar graph is colourable well known?", "known", false},
		{"be: a relative clause's verb is not the question's", "Is the scheduler which preempts long jobs fair to short ones?", "fair", false},
		{"be: an adjective whose form does not show it", "Is the proof of the lemma straightforward?", "straightforward", false},
		{"be: such an adjective before its infinitive", "Are the cache invariants easy to check by hand?", "easy", false},
		{"do: an unknown verb before a preposition", "Can messages flow from replicas to the coordinator?", "flow", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := predicateOf(tc.q)
			if !ok {
				t.Fatal("no predicate read")
			}
			if got := strings.Join(p.words, " "); got != tc.words || p.compare != tc.compare {
				t.Errorf("predicate %q compare=%v, want %q compare=%v", got, p.compare, tc.words, tc.compare)
			}
		})
	}
	if p, ok := predicateOf("Is this an open source toolkit?"); ok && len(p.words) == 1 && p.words[0] == "toolkit" {
		t.Errorf("the noun of \"an open source toolkit\" read as a bare adjective: %+v", p)
	}
	if p, ok := predicateOf("Does the lab plans collecting some large corpus for Welsh?"); ok && len(p.words) == 1 && p.words[0] == "corpus" {
		t.Errorf("a noun before a preposition read as the verb: %+v", p)
	}
	if p, ok := predicateOf("Is the claim that the heap is balanced?"); !ok || !p.abstain {
		t.Errorf("a that-clause subject with no predicate after it: %+v %v, want a predicate that abstains", p, ok)
	}
	if p, ok := predicateOf("Is there an agreed formal convention for how R data should be represented in JSON?"); !ok || strings.Join(p.anyOf, " ") != "agreed formal convention" {
		t.Errorf("existential: %+v %v", p, ok)
	}
}

// A deciding sentence must say what the question asks of its subject. The
// sentences are the papers' own; "holds" ones decided right before and
// still do, the others decided "yes" wrongly and now decide nothing.
func TestAssertsPredicate(t *testing.T) {
	tests := []struct {
		name, q, s string
		want       bool
	}{
		{"holds: same verb, other inflection", "In Devlin et al., does MLM pre-training converge slower than left-to-right pre-training?",
			"In Section C.1 we demonstrate that MLM does converge marginally slower than a left- to-right model (which predicts every token).", true},
		{"holds: the verb behind a prefix", "Does the 1.5B parameter language model fully fit WebText?",
			"Our largest model, GPT-2, is a 1.5B parameter Transformer that achieves state of the art results on 7 out of 8 tested language modeling datasets in a zero-shot setting but still underfits WebText.", true},
		{"holds: the same root", "Do Holmes Watkins et al. consider 40ng of input DNA usable on the MethylationEPIC BeadChip?",
			"We conclude that DNA input as low as 40ng can be used with the Illumina Infinium MethylationEPIC BeadChip, provided quality checks and sensitivity analyses are undertaken.", true},
		{"holds: the clause of a reporting verb", "Do Khan and Thomas (2008) find that nonconvex adjustment costs cause lumpy investment when plants face idiosyncratic productivity shocks?",
			"When establishments face idiosyncratic productivity shocks consistent with existing estimates, we find that nonconvex costs do not cause lumpy investments, but act to eliminate them.", true},
		{"holds: a comparison answers a comparison", "Is multilingual BERT fluent in language generation as well as monolingual models?",
			"We find that the currently available multilingual BERT model is clearly inferior to the monolingual counterparts, and cannot in many cases serve as a substitute for a well-trained monolingual model.", true},
		{"holds: existential", "Is there an agreed formal convention for how R data should be represented in JSON?",
			"Currently there exist no formal guidelines, or even consensus between implementations on how R data should be represented in JSON.", true},
		{"holds: a light verb and its object", "Do any of the models use attention?",
			"For experiments with both data sets we used an established NMT architecture based on LSTMs and implementing the attention mechanism.", true},
		{"not held: subject and object, another verb", "Did the HARK replication of Cocco, Gomes, and Maenhout (2005) reproduce the original results exactly?",
			"This exercise uses the Econ-ARK/HARK toolkit to attempt a replication of Cocco, Gomes, and Maenhout (2005)'s main results.", false},
		{"not held: another verb", "Does Autoformer use series decomposition only as a pre-processing step?",
			"Our Autoformer harnesses the decomposition as an inner block of deep models, which can progressively decompose the hidden series throughout the whole forecasting process.", false},
		{"not held: a light verb without its object", "Do any of their reviews contain translations for both Catalan and Basque?",
			"The final Catalan corpus contains 567 annotated reviews and the final Basque corpus 343.", false},
		{"not held: half of a hyphenated adjective", "Are their formal queries tree-structured?",
			"A formal query (or simply called query) is the structured representation of a natural language question executable on a given KB.", false},
		{"not held: the subject's words only", "Does the baseline use any contextual information?",
			"This means that the extra information coded in our model, mainly more linguistic, structural, and contextual features, has an important contribution to the overall performance.", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, got := newJudge(tc.q, true)(tc.s); got != tc.want {
				p, _ := predicateOf(tc.q)
				t.Errorf("held = %v, want %v (predicate %+v)", got, tc.want, p)
			}
		})
	}
	if _, held := newJudge("What batch size was used?", true)("We use 256."); !held {
		t.Error("a question without a readable predicate must not be checked")
	}
}
