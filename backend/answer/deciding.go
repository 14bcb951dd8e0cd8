package answer

import (
	"strings"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

// Decider returns, for a yes/no question, how well one sentence could
// decide it under Compose's own verdict rules: the sentence's coverage of
// what the question is about (IDF-weighted, the words of the paper's title
// counting as held when title is given, see withTitle, and, when its
// subject refers back, those of the sentence before it, see anaphora.go;
// not its section heading, which the verdict weighs too: a passage under a
// heading naming the question's topic would then stop retrieval's hedge
// with a sentence the verdict's subject rule sets aside) when it reaches
// Options.VerdictCoverage, holds the question's predicate (predicate.go)
// and states a polarity (polarity.go) - a readable statement, not a
// question and not about other work; 0 otherwise. Retrieval uses it to put
// the sentence that decides a yes/no question into the evidence
// (retrieve.Request.Decides); it changes no rule of the verdict. nil for
// other kinds of questions.
func Decider(q *query.Question) func(sentence, title, before string) float64 {
	if q == nil || q.Kind != query.KindYesNo {
		return nil
	}
	question := q.Text
	judge := newJudge(question, false)
	vstems := verdictStems(question, withoutRefStems(q.Refs, q.Terms))
	others := !aboutOthers(question)
	subject := questionSubject(question)
	least := DefaultOptions().VerdictCoverage
	qc := hyphenCompounds(question)
	return func(sentence, title, before string) float64 {
		if strings.Contains(sentence, "?") || !papertree.Readable(sentence) ||
			others && aboutOthers(sentence) && !subjectHeld(sentence, subject) {
			return 0
		}
		var t map[string]bool
		if title != "" {
			t = stemSet(title)
		}
		have := withCompounds(withTitle(stemSet(sentence), t), hyphenCompounds(sentence), qc)
		if before != "" && anaphoric(sentence) {
			have = withAntecedent(have, stemSet(before))
		}
		c := verdictCoverage(vstems, have)
		if c < least {
			return 0
		}
		if v, held := judge(sentence); !held || v == VerdictUnclear {
			return 0
		}
		return c
	}
}
