package answer

import (
	"testing"

	"github.com/papertree/papertree/backend/query"
)

// Phrasings of yes/no questions whose predicate or object the deciding
// sentence says in another form (sentences written for the cases, in the
// style of the papers' own).
func TestVerdictPhrasings(t *testing.T) {
	tests := []verdictCase{
		{"unable to V asks about V, negated: a negation says yes", "Is the baseline parser unable to recover from attachment errors?",
			"The baseline parser does not recover from attachment errors.", VerdictYes},
		{"unable to V: the verb said plainly says no", "Is the baseline parser unable to recover from attachment errors?",
			"The baseline parser recovers from most attachment errors.", VerdictNo},
		{"able to V asks about V", "Is the compiler able to remove dead code?",
			"The compiler does not remove dead code.", VerdictNo},
		{"a fronted phrase's words said again are the object: X, not Y says no", "In the survey of tagging methods, has most earlier work been concerned with tagging methods?",
			"Most of the earlier work is concerned with parsing methods, not tagging.", VerdictNo},
		{"a fronted phrase's words said again are the object: X, not Y says yes for X", "In the survey of tagging methods, has most earlier work been concerned with parsing methods?",
			"Most of the earlier work is concerned with parsing methods, not tagging.", VerdictYes},
		{"a comparison won by the other side does not say as well", "Did random sampling perform as well as active learning?",
			"Using active learning gives a much better performance.", VerdictUnclear},
		{"a comparison won by the subject says yes", "Did active learning perform as well as random sampling?",
			"Active learning performs better than random sampling on every dataset.", VerdictYes},
		{"a predicate an adjective judges is not said", "Do the authors view the grouped convolutions as an ensemble?",
			"We argue that it is imprecise to view the grouped convolutions as an ensemble.", VerdictUnclear},
		{"a comparison counting the object is not held by a direction", "Can the joint model predict more than one relation for an entity?",
			"We have not observed any significant improvement for the joint model.", VerdictUnclear},
		{"a direction stated of the object is not the subject's", "Does the small model perform better than the large model?",
			"The large model performs worse than the small model on short inputs.", VerdictUnclear},
	}
	checkVerdicts(t, tests)
}

// A closed compound and its hyphenated form count as one word in the
// deciding sentence's coverage, either way round.
func TestVerdictCoverageCompounds(t *testing.T) {
	for _, tc := range []struct{ q, s string }{
		{"Does the kernel flush the pagetable on every context switch?", "The kernel flushes the page-table on every context switch."},
		{"Does the kernel flush the page-table on every context switch?", "The kernel flushes the pagetable on every context switch."},
	} {
		q := query.Parse(tc.q)
		vstems := verdictStems(q.Text, withoutRefStems(q.Refs, q.Terms))
		plain := verdictCoverage(vstems, stemSet(tc.s))
		joined := verdictCoverage(vstems, withCompounds(stemSet(tc.s), hyphenCompounds(tc.s), hyphenCompounds(tc.q)))
		if plain >= 1 || joined != 1 {
			t.Errorf("%q / %q: coverage %.2f without compounds, %.2f with; want < 1 and 1", tc.q, tc.s, plain, joined)
		}
		if d := Decider(q)(tc.s, "", ""); d == 0 {
			t.Errorf("%q: Decider = 0 for %q, want it to decide", tc.q, tc.s)
		}
	}
}

// An elliptical "never" leaves a phrasal verb's particle or a complement
// word without the predicate, as "and not" does; what a subject is
// "independent of" (or holds "regardless of") does not act on it.
func TestVerdictEllipsisAndIndependence(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		{"set forward and never back: the particle is negated", "Can the counter be set back after an overflow?",
			"After an overflow the counter is always set forward and never back.", VerdictNo},
		{"set forward and never back: the other particle holds", "Is the counter always set forward after an overflow?",
			"After an overflow the counter is always set forward and never back.", VerdictYes},
		{"and never with X: the complement is negated", "Is the cache flushed on every write?",
			"The cache is flushed on every checkpoint and never on every write.", VerdictNo},
		{"independent of: what it is independent of is not said to change it", "Does the batch size change the learned embeddings?",
			"The learned embeddings are independent of changes in the batch size.", VerdictUnclear},
		{"independent of: the subject's own predicate, negated", "Do the learned embeddings change with the batch size?",
			"The learned embeddings are independent of changes in the batch size.", VerdictNo},
		{"regardless of: the predicate holds, no verdict on what is left out", "Does the parser recover from attachment errors?",
			"The parser recovers from attachment errors regardless of sentence length.", VerdictYes},
	})
}

// A predicate the verbs list lacked ("return"), and a subordinator after
// an adverb ("overfit badly once ...") that was read as the predicate.
func TestVerdictReturnAndOnce(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		{"return is a verb", "Does the index lookup return duplicate rows?",
			"The index lookup never returns duplicate rows.", VerdictNo},
		{"return is a verb, affirmed", "Does the index lookup return the rows in key order?",
			"The index lookup returns the rows in key order.", VerdictYes},
	})
	for q, want := range map[string]string{
		"Does the search return duplicates?":                                    "return",
		"Does the small classifier overfit badly once dropout is switched off?": "overfit",
		"Does the parser fail quickly once the beam is narrowed?":               "fail",
	} {
		p, ok := predicateOf(judgedText(q))
		if !ok || len(p.words) == 0 || p.words[0] != want {
			t.Errorf("predicateOf(%q) = %v, want %s", q, p.words, want)
		}
	}
}

// A predicate asked at one time ("before training") is not answered by a
// sentence that says it only at the other ("after training").
func TestVerdictReversedOrder(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		{"after does not answer before", "Are the weights pruned before training?",
			"The weights are pruned after training.", VerdictUnclear},
		{"before answers before", "Are the weights pruned before training?",
			"The weights are pruned before training.", VerdictYes},
		{"before does not answer after", "Is the vocabulary built after tokenization?",
			"The vocabulary is built before tokenization.", VerdictUnclear},
	})
}

// What is left to future work or planned has not been done; a participle
// joined by "and" is a verb phrase of its own, with its own complement.
func TestVerdictPlansAndJoinedParticiples(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		{"left to future work", "Did they evaluate the tagger on Finnish?",
			"We leave evaluation of the tagger on Finnish to future work.", VerdictUnclear},
		{"planned", "Did the authors release the annotated corpus?",
			"We plan to release the annotated corpus after the review period.", VerdictUnclear},
		{"done", "Did the authors release the annotated corpus?",
			"We released the annotated corpus with this paper.", VerdictYes},
		{"the other participle's complement", "Was the tagger tested on Finnish?",
			"The tagger was trained on Finnish text and tested on Estonian.", VerdictUnclear},
		{"its own complement", "Was the tagger tested on Estonian?",
			"The tagger was trained on Finnish text and tested on Estonian.", VerdictYes},
	})
}

// A number the question asks of its predicate must be the deciding
// sentence's; "not yet" negates what follows it.
func TestVerdictNumbersAndNotYet(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		{"another number does not say yes", "Does the tagger converge within 10 epochs?",
			"The tagger converges within 50 epochs.", VerdictUnclear},
		{"the same number says yes", "Does the tagger converge within 10 epochs?",
			"The tagger converges within 10 epochs.", VerdictYes},
		{"another percentage does not say yes", "Did the tagger reach 95% accuracy on the test set?",
			"The tagger reaches 91% accuracy on the test set.", VerdictUnclear},
		{"not yet negates", "Is the tagger deployed in the annotation pipeline?",
			"The tagger is not yet deployed in the annotation pipeline.", VerdictNo},
	})
}
