package answer

import "testing"

// A participle of necessity before an infinitive is a modal, as "have to"
// is: the verb after it is the predicate.
func TestNecessityModal(t *testing.T) {
	tests := []verdictCase{
		{"'required to share' asks about sharing", "Are the equivalent apparitions recognized by these nets required to share a common figure?",
			"The equivalent apparitions in all cases share a common figure and define a group of transformations.", VerdictYes},
		{"'required to share' answered by a negated share", "Are the equivalent apparitions required to share a common figure?",
			"The equivalent apparitions do not share a common figure.", VerdictNo},
		{"'needed to' after a subject", "Are the interior hashes needed to verify a transaction?",
			"The interior hashes are not used to verify a transaction; only the branch is.", VerdictNo},
		{"'needed' ending the question is the predicate (reading past it panicked)", "Is tuning the learning rate needed?",
			"Tuning the learning rate is not needed.", VerdictNo},
		{"control: 'required' before a noun stays the predicate", "Are labels required for the pretraining stage?",
			"Labels are not required for the pretraining stage.", VerdictNo},
		{"control: 'required to' before a noun phrase is no modal", "Is the approval of the board required to each change?",
			"The approval of the board is required to each change.", VerdictYes},
	}
	checkVerdicts(t, tests)
}
