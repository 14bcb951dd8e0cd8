package answer

import "github.com/papertree/papertree/backend/retrieve"

// Word families (retrieve.Related): the verdict reader holds a question's
// word by any form of its family.

// verdictCoverage is coverageOf with a question stem held by any stem of
// its word family (retrieve.FamilyHeld): the share of what a yes/no question is about
// that a deciding sentence says, in whatever form of the words.
func verdictCoverage(qstems []string, have map[string]bool) float64 {
	return idfShare(qstems, func(t string) bool { return retrieve.FamilyHeld(t, have) })
}
