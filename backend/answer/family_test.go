package answer

import (
	"testing"

	"github.com/papertree/papertree/backend/query"
)

func TestVerdictWordFamily(t *testing.T) {
	tests := []verdictCase{
		{"verb asked, noun said under without", "Does the compressed model lose accuracy on the test set?",
			"The compressed model matches the full model without any loss in accuracy on the test set.", VerdictNo},
		{"verb asked, noun said", "Does the type checker prove termination of loops?",
			"The type checker gives no proof of termination of loops.", VerdictNo},
		{"verb asked, derived noun said", "Does the encoder decompose the series into trend and seasonal parts?",
			"The encoder performs a decomposition of the series into trend and seasonal parts.", VerdictYes},
		{"a word outside the family is not held", "Does the parser prove termination?",
			"The parser provides termination guarantees.", VerdictUnclear},
	}
	checkVerdicts(t, tests)
}

// The deciding sentence's coverage counts a question word said in another
// form of its family; without the family the sentence falls under the
// verdict threshold and decides nothing.
func TestDeciderCountsWordFamilies(t *testing.T) {
	q := query.Parse("Does the compressed model lose accuracy on the test set?")
	s := "The compressed model matches the full model without any loss in accuracy on the test set."
	vstems := verdictStems(q.Text, withoutRefStems(q.Refs, q.Terms))
	if c := coverageOf(vstems, stemSet(s)); c >= 1 {
		t.Fatalf("plain coverage %.2f: the example no longer needs the family", c)
	}
	if c := verdictCoverage(vstems, stemSet(s)); c != 1 {
		t.Errorf("family coverage %.2f, want 1 (every question word held in some form)", c)
	}
	if d := Decider(q)(s, "", ""); d == 0 {
		t.Errorf("Decider = 0, want the sentence to decide")
	}
}
