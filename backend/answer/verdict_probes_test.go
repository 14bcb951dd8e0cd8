package answer

import "testing"

// The false verdicts probed by the seventeenth session (yn10) and left
// open, each on sentences written for the case, with a control that keeps
// its verdict: a sentence about a sibling part ("the decoder is shared"
// answering "is the encoder shared"); a second language named only in an
// appended phrase ("written in C++, with Python bindings"); a number that
// does not satisfy the question's comparison ("achieves 90%" answering
// "over 90%"); a negation in parentheses. (A negated sentence about
// another object - "Beam search is not used for the translation model"
// answering "... for the summarization model?" - still says no: the
// check written for it (an unheld object word's modifier replaced) cost
// a blind set a true verdict and added a false one, so it was not kept.)
func TestVerdictProbes(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		{"a sibling part's predicate decides nothing", "Is the encoder shared between the two languages?",
			"The decoder is shared between the two languages.", VerdictUnclear},
		{"control: the part asked about, affirmed", "Is the encoder shared between the two languages?",
			"The encoder is shared between the two languages.", VerdictYes},
		{"a language in an appended phrase is not what it is written in", "Is the library written in Python?",
			"The library is written in C++, with Python bindings.", VerdictUnclear},
		{"control: written in the language asked about", "Is the library written in Python?",
			"The library is written in Python.", VerdictYes},
		{"a number equal to the bound is not over it", "Does the model achieve over 90% accuracy?",
			"The model achieves 90% accuracy.", VerdictNo},
		{"a number below the bound is not over it", "Does the model achieve more than 90% accuracy?",
			"The model achieves 85% accuracy on the test set.", VerdictNo},
		{"control: a number above the bound is over it", "Does the model achieve over 90% accuracy?",
			"The model achieves 92% accuracy.", VerdictYes},
		{"'up to' a number below the bound is not more than it", "Does the method improve F1 by more than 20%?",
			"The method achieves improvement of up to 17% in F1 score.", VerdictNo},
		{"'less than' a bound at least as small is under it", "Are the datasets under 50 thousand examples?",
			"The datasets are relatively small (less than 40K examples).", VerdictYes},
		{"a negation in parentheses negates the clause it qualifies", "Is the relational algebra Turing-complete?",
			"The relational algebra is a restrictive language (it is not Turing-complete).", VerdictNo},
		{"control: a parenthetical aside about something else is still an aside", "Are the target sentences reversed?",
			"The target sentences are reversed (the source sentences are not).", VerdictYes},
	})
}
