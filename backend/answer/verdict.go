package answer

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

// Verdicts of yes/no questions.
const (
	VerdictYes     = "yes"
	VerdictNo      = "no"
	VerdictUnclear = "unclear"
)

// parenRE matches a parenthetical remark: "(the target sentences are not
// reversed)" says nothing about the sentence's main clause.
var parenRE = regexp.MustCompile(`\([^()]*\)`)

// quotedRE matches a quoted span: in a question, the title of a paper.
var quotedRE = regexp.MustCompile(`"[^"]*"|“[^”]*”|‘[^’]*’`)

// negations flip a sentence's polarity relative to the question.
var negations = []string{" not ", "n't ", " no ", " never ", " neither ", " nor ", " without ", " cannot ", " unable ", " fail",
	" inferior", " lack", " underfit", " none ", " rarely ", " seldom ", " hardly ", " barely ", " no longer "}

// hedges mark a sentence that only suggests, supposes or asks: it decides
// nothing ("would" is counterfactual, "whether" an open question).
var hedges = []string{" may ", " might ", " could ", " would ", " possibly ", " perhaps ", " likely ", " suggest", " appear to ", " appears to ",
	" seem", " hypothesi", " speculat", " potentially ", " conjecture", " whether ", " unclear ", " not clear ", " unknown ", " we believe ", " we expect ",
	// A goal is not a claim: what a sentence sets out "to show that" (or
	// does "in order to", "to ensure that") it has not said holds ("To
	// show that every A-definable sequence is computable, we have to
	// construct a machine" does not claim that every definable number is
	// computable). The infinitive only: "we show that X" claims X.
	" to show that ", " to prove that ", " to verify that ", " to establish that ", " to demonstrate that ",
	" to check that ", " to ensure that ", " in order to ",
	// Nor is a plan: what is left to future work or planned has not been
	// done ("We leave evaluation on German to future work" does not say
	// German was evaluated; "We plan to release our code" not that it was).
	" future work ", " future research ", " in future ", " in the future ", " plan to ", " plans to ", " planned to ", " planning to ",
	" intend to ", " intends to ", " intended to "}

// contrasts mark a sentence that sets two clauses against each other ("X
// whereas Y", "a shortcoming of Y that X addresses"): which of them the
// question is about decides the polarity, and word overlap cannot tell.
// (Privative phrases - "X instead of Y" - are read with their scope, see
// polarity.go.)
var contrasts = []string{" whereas ", " shortcoming", " limitation", " in contrast ", " by contrast ", " on the other hand "}

// oldContrasts are the privative cues that set two things against each
// other: without the predicate, which of them is asked about is unknown.
var oldContrasts = []string{" instead of ", " rather than ", " unlike ", " in place of ", " as opposed to "}

// antonyms are predicate pairs: a sentence answering a question about one
// with the other says no ("Does X converge faster?" - "X converges slower").
var antonyms = [][2][]string{
	{{" better ", " outperform", " superior "}, {" worse ", " underperform"}},
	{{" more "}, {" less ", " fewer "}},
	{{" higher "}, {" lower "}},
	{{" increase"}, {" decrease", " reduce", " reduction"}},
	{{" improve"}, {" degrade", " hurt", " harm", " deteriorat"}},
	{{" faster ", " quicker "}, {" slower "}},
	{{" larger ", " bigger "}, {" smaller "}},
	{{" help"}, {" hurt", " harm"}},
}

// norm lowercases s and pads its words with single spaces, punctuation
// dropped, so that cues match whole words.
func norm(s string) string {
	return " " + strings.ToLower(strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == ';' || r == ':' || r == '.' || r == '(' || r == ')' || r == '"'
	}), " ")) + " "
}

func hasAny(l string, cues []string) bool {
	for _, c := range cues {
		if strings.Contains(l, c) {
			return true
		}
	}
	return false
}

func negated(s string) bool { return hasAny(norm(s), negations) }

// flipped reports a predicate of the question answered by its antonym.
func flipped(q, s string) bool {
	f := false
	for _, p := range antonyms {
		for k := 0; k < 2; k++ {
			a, b := p[k], p[1-k]
			if hasAny(q, a) && !hasAny(q, b) && hasAny(s, b) && !hasAny(s, a) {
				f = !f
			}
		}
	}
	return f
}

// Verdict reads a yes/no answer off a sentence that covers the question:
// "yes" or "no" only when the sentence holds the question's predicate (see
// predicate.go) and its polarity there can be read (see polarity.go);
// otherwise "unclear".
func Verdict(question, sentence string) string {
	v, held := newJudge(question, true)(sentence)
	if !held {
		return VerdictUnclear
	}
	return v
}

// legacyVerdict reads the polarity of a sentence for a question whose
// predicate cannot be read: the same polarity as the question means yes,
// the opposite (a negation, or the antonym of the question's predicate)
// means no. A hedged sentence or one that contrasts two things ("X
// instead of Y") leaves it unclear, since without the predicate it is not
// known which of the two the question is about.
func legacyVerdict(q, s string) string {
	if hasAny(s, hedges) && !hasAny(q, hedges) || hasAny(s, contrasts) || hasAny(s, oldContrasts) {
		return VerdictUnclear
	}
	if hasAny(q, negations) && !hasAny(s, negations) {
		// A negation in the question often sits in a condition ("... when
		// there is no shared vocabulary?"); a sentence without one cannot
		// tell which.
		return VerdictUnclear
	}
	if hasAny(q, negations) != hasAny(s, negations) != flipped(q, s) {
		return VerdictNo
	}
	return VerdictYes
}

// withoutRefStems drops from the question's stems those of the words
// naming its paper (refs: query.Question.Refs, the question parsed once)
// and the lead-in "according to".
func withoutRefStems(refs map[string]bool, qstems []string) []string {
	skip := refStems(refs)
	skip[embedding.Stem("according")] = true
	var out []string
	for _, t := range qstems {
		if !skip[t] {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return qstems
	}
	return out
}

// refStems is the set of the content stems of the words naming the
// question's paper (refs: query.Question.Refs).
func refStems(refs map[string]bool) map[string]bool {
	out := map[string]bool{}
	for w := range refs {
		for _, t := range embedding.ContentStems(w) {
			out[t] = true
		}
	}
	return out
}

// verdictStems are the question's stems a deciding sentence must cover:
// rstems (withoutRefStems) without the rest of the citation naming the
// paper (query.CitationWords: co-authors, "et al.", the year), which the
// paper's own sentences never hold.
func verdictStems(q string, rstems []string) []string {
	skip := map[string]bool{}
	for w := range query.CitationWords(q) {
		for _, t := range embedding.ContentStems(w) {
			skip[t] = true
		}
	}
	var out []string
	for _, t := range rstems {
		if !skip[t] {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return rstems
	}
	return out
}

// withTitle returns a deciding sentence's stems with those of its paper's
// title: a paper's sentences speak of its title's topic without repeating
// it ("These algorithms take a number of steps polynomial in the input
// size" in "Polynomial-Time Algorithms for Prime Factorization and
// Discrete Logarithms on a Quantum Computer"), so the title's words count
// as held when the question's words are weighed. Used only when all the
// evidence is that one paper's (title non-nil); the predicate and its
// polarity are still read off the sentence alone.
func withTitle(have, title map[string]bool) map[string]bool { return unionStems(have, title) }

// unionStems is the stems of have and more in a new set; have itself when
// more is empty (neither is modified).
func unionStems(have, more map[string]bool) map[string]bool {
	if len(more) == 0 {
		return have
	}
	out := make(map[string]bool, len(have)+len(more))
	for t := range have {
		out[t] = true
	}
	for t := range more {
		out[t] = true
	}
	return out
}

// aboutOthers reports a sentence whose subject is other work than the
// paper's own (papertree.AboutOthers).
func aboutOthers(s string) bool { return papertree.AboutOthers(s) }
