package answer

import "testing"

// Reader gaps of the fifteenth session (issue 19, yes/no verdicts), each
// on sentences written for the case with a control that keeps its
// verdict: a relative clause opened by "who"/"which" in the question's
// subject or the sentence's, an irregular participle's phrasal verb in
// WordNet, an open question that is the object of a preposition, a
// comparison asked by an outdoing verb, a noun phrase predicate answered by
// its modifier, a caption's verbless noun phrase, an unknown verb after
// a name.
func TestVerdictReaders(t *testing.T) {
	tests := []verdictCase{
		{"a relative clause with its own verb in the question's subject: its negation is the subject's",
			"Were participants who were not native speakers excluded?",
			"Participants who were not native speakers were excluded.", VerdictYes},
		{"control: the main clause's negation still answers no",
			"Were participants who were not native speakers excluded?",
			"Participants who were native speakers were not excluded.", VerdictNo},
		{"control: a relative clause set off by commas (its commas bound the negation already)",
			"Were the unstable runs discarded?",
			"The unstable runs, which did not converge or were not finished, were discarded.", VerdictYes},
		{"a negation inside the sentence's relative clause does not reach the main verb after it",
			"Were the unstable runs discarded?",
			"The unstable runs which did not converge were discarded.", VerdictYes},
		{"control: a negation of the main verb after the relative clause",
			"Were the unstable runs discarded?",
			"The unstable runs which converged were not discarded.", VerdictNo},
		{"an irregular participle's phrasal verb is WordNet's lemma ('left out' is 'leave_out': exclude, omit)",
			"Were the unstable runs left out?",
			"The unstable runs were omitted.", VerdictYes},
		{"control: 'left' alone is no 'leave_out'",
			"Were the unstable runs left?",
			"The unstable runs were omitted.", VerdictUnclear},
		{"an open question after a preposition is what the claim is about",
			"Is there a consensus on the depth of these networks?",
			"There is no consensus about whether the depth of these networks might matter.", VerdictNo},
		{"control: a verb's open question still hedges",
			"Is the encoder trained to predict the next sentence?",
			"The encoder is trained to predict whether the next sentence follows.", VerdictUnclear},
		{"a word after an adverb that follows a preposition is in a noun phrase, not the verb ('on relatively short-term data')",
			"Does the new model beat the old model on relatively short-term forecasts?",
			"The old model handles long horizons, but the new model beats the old model on short-term forecasts.", VerdictYes},
		{"an outdoing verb asks a comparison's direction: 'beat' answered by 'outperforms'",
			"Does the new model beat the old model?",
			"The new model clearly outperforms the old model.", VerdictYes},
		{"and by 'worse'",
			"Does the new model beat the old model?",
			"The new model performs worse than the old model.", VerdictNo},
		{"a pronoun subject names neither side",
			"Does the new model beat the old model?",
			"It clearly outperforms the old model.", VerdictYes},
		{"control: the side named last before the comparison wins",
			"Does the new model beat the old model?",
			"The old model outperforms the new model.", VerdictUnclear},
		{"a noun in -ic after an indefinite article heads the predicate noun phrase ('a robust statistic'), said of the subject by its modifier after 'is'",
			"Is the median a robust statistic?",
			"The median is highly robust, because it ignores the extremes.", VerdictYes},
		{"negated",
			"Is the median a robust statistic?",
			"The median is not robust.", VerdictNo},
		{"control: the modifier not said of the subject after 'is' does not hold the noun phrase",
			"Is BERT a bidirectional model?",
			"BERT uses a bidirectional encoder.", VerdictUnclear},
		{"a caption's noun phrase holding the predicate as a participle in -ing claims nothing",
			"Do the final models use dropout?",
			"Figure 3: Accuracy on the test set. (a) Networks using dropout regularization. (b) Networks with a fixed cost function. We compare against a baseline.", VerdictUnclear},
		{"control: a sentence with a verb of its own",
			"Do the final models use dropout?",
			"The final models are networks using dropout regularization.", VerdictYes},
		{"control: a participle beside the main verb",
			"Do the final models use dropout?",
			"The final models, using dropout regularization, converge faster.", VerdictYes},
		{"an unknown verb after a name ending the subject's prepositional phrase is the predicate, not left to the fallback that says yes to any sentence without a negation",
			"Do most papers surveyed in LongEval skip human evaluation?",
			"Most papers surveyed in this work describe their human evaluation in detail.", VerdictUnclear},
		{"control: the unknown verb held",
			"Do most papers surveyed in LongEval skip human evaluation?",
			"Most papers surveyed skip human evaluation.", VerdictYes},
	}
	checkVerdicts(t, tests)
}
