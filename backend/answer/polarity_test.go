package answer

import "testing"

// Polarity read from what a negation scopes over (sentences from the
// papers of our sets, QASPER and the issue; a few negative variants
// written for the case).
func TestVerdictPolarity(t *testing.T) {
	const trans = "Does the Transformer use recurrence?"
	tests := []struct{ name, q, s, want string }{
		{"dispensing with X says no", trans,
			"We propose a new simple network architecture, the Transformer, based solely on attention mechanisms, dispensing with recurrence and convolutions entirely.", VerdictNo},
		{"replacing X says no", trans,
			"In this work, we presented the Transformer, the first sequence transduction model based entirely on attention, replacing the recurrent layers most commonly used in encoder-decoder architectures with multi-headed self-attention.", VerdictNo},
		{"what replaces X is used", "Does the Transformer use multi-headed self-attention?",
			"In this work, we presented the Transformer, the first sequence transduction model based entirely on attention, replacing the recurrent layers most commonly used in encoder-decoder architectures with multi-headed self-attention.", VerdictYes},
		{"X is replaced by Y says no to X", "Do they use recurrent layers?",
			"In our model the recurrent layers are replaced by self-attention layers.", VerdictNo},
		{"plain use says yes", "Do they use dropout?", "We use dropout on the output of each sub-layer.", VerdictYes},
		{"do not use says no", "Do they use dropout?", "We do not use dropout in the pre-training stage.", VerdictNo},
		{"without X says no", "Do they use dropout?", "All models are trained without dropout.", VerdictNo},
		{"instead of X says no to X", "Do they use LSTMs?", "We use convolutional layers instead of LSTMs.", VerdictNo},
		{"instead of X says yes to the other", "Do they use convolutional layers?", "We use convolutional layers instead of LSTMs.", VerdictYes},
		{"rather than X without the verb", "Do they use word embeddings?", "The model reads characters rather than word embeddings.", VerdictNo},
		{"rather than X with the verb", "Do they use word embeddings?", "The model uses characters rather than word embeddings.", VerdictNo},
		{"X-free", "Does the parser use a grammar?", "Ours is a grammar-free parser that uses no hand-written rules.", VerdictNo},
		{"free of X", "Does the method need labelled data?", "The method is free of any need for labelled data.", VerdictNo},
		{"eschews X", "Does the model use recurrence?", "The model eschews recurrence entirely.", VerdictNo},
		{"unlike X, the subject is not X", "Do LSTMs handle the tokens in parallel?",
			"Unlike LSTMs, our model handles all tokens in parallel.", VerdictUnclear},
		{"unlike X, our model says yes for the model", "Does our model handle the tokens in parallel?",
			"Unlike LSTMs, our model handles all tokens in parallel.", VerdictYes},
		{"no longer", "Does the model need alignments?", "The model no longer needs alignments between input and output.", VerdictNo},
		{"never", "Does the model see the test set?", "The model never sees the test set during training.", VerdictNo},
		{"neither nor is one negation", "Does the model use a parser?", "The model uses neither a parser nor a tagger.", VerdictNo},
		{"not only is no negation", "Does the model improve accuracy?", "The model not only improves accuracy but also speed.", VerdictYes},
		{"double negation", "Does the model use dropout?", "It is not the case that the model does not use dropout.", VerdictYes},
		{"not without", "Does the model work with noisy labels?", "The model does not work without clean labels.", VerdictNo},
		{"negative question, positive sentence", "Does the model not use dropout?", "We use dropout on every layer.", VerdictNo},
		{"negative question, negative sentence", "Does the model not use dropout?", "We do not use dropout.", VerdictYes},
		{"contracted negative question", "Doesn't the model use dropout?", "We use dropout on every layer.", VerdictNo},
		{"is it true that ... not", "Is it true that the model does not use dropout?", "We do not use dropout.", VerdictYes},
		{"is it true that ... not, answered positively", "Is it true that the model does not use dropout?", "We use dropout on every layer.", VerdictNo},
		{"negation in a condition only", "Is cross-lingual transfer possible when there is no shared vocabulary across the monolingual corpora?",
			"We show that transfer is possible even when there is no shared vocabulary across the monolingual corpora.", VerdictYes},
		{"a reported hypothesis is no hedge", "Is cross-lingual transfer possible when there is no shared vocabulary across the monolingual corpora?",
			"We show, contrary to what was previously hypothesized, that transfer is possible even when there is no shared vocabulary across the monolingual corpora.", VerdictYes},
		{"a predicate only in a premise is not held", "Does a curve dominate in ROC space exactly when it dominates in precision-recall space?",
			"Since curve I does not dominate in PR space, there exists some point A on curve II such that the point B on curve I with identical Recall has lower Precision.", VerdictUnclear},
		{"the consequent of a condition is held", "Does a curve dominate in ROC space exactly when it dominates in precision-recall space?",
			"Claim 1: If a curve dominates in ROC space then it dominates in PR space.", VerdictYes},
		{"a synonym of use holds it", "Do they use skip-gram?", "We adopt the skip-gram model to learn the word vectors.", VerdictYes},
		{"a synonym of use, negated", "Do they use skip-gram?", "We do not employ skip-gram.", VerdictNo},
		{"useful does not hold use", "Do they use the hidden states?", "The hidden states hold useful information.", VerdictUnclear},
		{"the object's head must be held", "Do they use pretrained embeddings in their model?",
			"PG-BRNN and CopyTransformer models, which were pretrained by OpenNMT on CNNDM, were used on DUC without additional training.", VerdictUnclear},
		{"an unheld universal quantifier leaves yes unverified", "Does ELMo learn all possible logic rules?",
			"We present evidence that ELMo implicitly learns logic rules for sentiment classification.", VerdictUnclear},
		{"a held quantifier", "Does the model see every training example?", "The model sees all training examples once per epoch.", VerdictYes},
		{"an unheld quantifier does not block no", "Do they only use tweets?", "We do not use tweets.", VerdictNo},
		{"another dimension of comparison", "Is the proposed model smaller than the conventional NMT system?",
			"Our experiments demonstrated that the proposed model indeed performs better than the conventional NMT system.", VerdictUnclear},
		{"an alternative question is no yes/no question", "Is the proposed model smaller or bigger than the conventional NMT system?",
			"The proposed model is smaller than the conventional NMT system.", VerdictUnclear},
		{"in contrast to X is a phrase", "Is the standard Transformer model computationally universal?",
			"Moreover, and in contrast to RNNs, the Transformer model is not computationally universal, limiting its theoretical expressivity.", VerdictNo},
		{"in contrast as a sentence adverb decides nothing", "Is the Transformer model computationally universal?",
			"In contrast, the Transformer model is computationally universal.", VerdictUnclear},
		{"a hyphenated non- negates", "Is the neural decoder differentiable?", "The neural decoder is non-differentiable in its inputs.", VerdictNo},
		{"a privative phrase ends before a coordinated verb", "Do they use dropout?",
			"We train the model without early stopping and use dropout on all layers.", VerdictYes},
		{"coordinated gerunds stay in a privative phrase", "Do they use dropout?",
			"We train the model without tuning or using dropout.", VerdictNo},
		{"negation of another clause", "Does the model use dropout?", "We use dropout, but we do not use label smoothing.", VerdictYes},
		{"the relative clause is the subject's", "According to Davis and Goadrich, does an algorithm that optimizes the area under the ROC curve also optimize the area under the PR curve?",
			"An algorithm that optimizes the area under the ROC curve is not guaranteed to optimize the area under the PR curve.", VerdictNo},
		{"hedged with we hypothesize", "Does pre-training help low-resource languages?", "We hypothesize that pre-training helps low-resource languages.", VerdictUnclear},
		{"hedged with might", "Does the model use dropout?", "The model might use dropout.", VerdictUnclear},
		{"both polarities", "Does the model use dropout?", "The model does not use dropout in pre-training and we use dropout in fine-tuning.", VerdictUnclear},
		{"another verb between without and the object", "Do they use all the hidden layer representations?",
			"Instead of taking the whole output as the hidden representation, we concatenate each layer's final state.", VerdictUnclear},
		{"underfits", "Does the 1.5B parameter language model fully fit WebText?",
			"GPT-2 is a 1.5B parameter Transformer that achieves state of the art results on 7 out of 8 tested language modeling datasets in a zero-shot setting but still underfits WebText.", VerdictNo},
		{"inferior answers as well as", "Is multilingual BERT fluent in language generation as well as monolingual models?",
			"We find that the currently available multilingual BERT model is clearly inferior to the monolingual counterparts.", VerdictNo},
		{"a yes needs the object's modifiers", "Does Adam need second-order gradients?",
			"We propose Adam, a method for efficient stochastic optimization that only requires first-order gradients with little memory requirement.", VerdictUnclear},
		{"a yes needs the whole object", "Does the model use a character-level vocabulary?",
			"We use a byte-level vocabulary containing 50K subword units.", VerdictUnclear},
		{"the whole object held", "Does the model use a byte-level vocabulary?",
			"We use a byte-level vocabulary containing 50K subword units.", VerdictYes},
		{"an abbreviation holds the object", "Is the model trained with the next sentence prediction loss?",
			"The model is trained with the NSP loss on full sentences.", VerdictYes},
		{"a no does not need the object", "Does the model work with noisy labels?", "The model does not work without clean labels.", VerdictNo},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Verdict(tc.q, tc.s); got != tc.want {
				p, _ := predicateOf(tc.q)
				t.Errorf("Verdict = %s, want %s (predicate %+v, tokens %q)", got, tc.want, p, polarityTokens(tc.s))
			}
		})
	}
}
