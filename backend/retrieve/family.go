package retrieve

import (
	"strings"

	"github.com/papertree/papertree/backend/embedding"
)

// Word families of a question's words: a yes/no question's (answer's
// verdict reader) and a not-found decision's (a word the paper never
// prints in its own form is not missing when it prints its family).
//
// A deciding sentence often says the question's word in another form of
// the same word: "Does X lose accuracy ...?" - "without a loss in
// performance"; "Do the axioms let you prove ...?" - "no basis for a
// proof"; "decompose" - "decomposition"; "reduce" - "reduction". Porter
// stems merge inflections and most derivations ("perform",
// "performance") but not these: the noun keeps a suffix the verb lacks
// ("decompos" - "decomposit"), or the two forms differ by a sound change
// ("decid" - "decis", "describ" - "descript"), or the family is irregular
// ("lose" - "loss"). Two roots (see root) are of one family when
//
//   - one is the other plus a derivational remnant Porter leaves
//     (familyEndings: "-it", "-ation", "-ent", "-pt", "-ur", "-ison";
//     "-t" only after "c", as in "reduc" - "reduct"; the agent noun's
//     "-or" only after "ct", as in "detect" - "detector", "predict" -
//     "predictor", not "success" - "successor"), the shorter root
//     having at least 5 letters, so that short roots ("form" - "format",
//     "count" - "country") stay apart, and "found" - "foundation" or
//     "cover" - "covert" are not joined;
//   - they differ only in the Latinate stem alternation of the verb and
//     its noun (familyAlternations: "-de/-sion" decide/decision,
//     "-be/-ption" describe/description, "-ceive/-ception",
//     "-lve/-lution"), after a shared part of 3 or 4 letters at least;
//   - they are an irregular pair of English derivational morphology
//     (irregularFamilies: lose/loss, prove/proof, choose/choice, ...), a
//     closed list of common words, not of any question's.
//
// A family shares a meaning and a polarity; it is no synonym list (see
// synonymGroups for the two verb groups that are). What the sentence says
// of the word is still read by the polarity rules.

// familyEndings are the endings Porter leaves on a derived noun or
// adjective whose verb or base it also reduces.
var familyEndings = map[string]bool{"it": true, "ation": true, "ent": true, "ur": true, "ison": true, "pt": true}

// familyAlternations are pairs of root endings of a Latinate verb and its
// noun, with the shortest shared part before them.
var familyAlternations = []struct {
	a, b  string
	share int
}{
	{"d", "s", 4},   // decide/decision, conclude/conclusion, provide/provision
	{"b", "pt", 4},  // describe/description, prescribe/prescription
	{"iv", "pt", 4}, // receive/reception, perceive/perception
	{"v", "ut", 3},  // solve/solution, evolve/evolution
}

// irregularFamilies are common English words whose derived form changes
// the base beyond what a suffix rule can tell.
var irregularFamilies = [][]string{
	{"lose", "lost", "loss"}, {"prove", "proven", "proof"}, {"choose", "choice"}, {"believe", "belief"},
	{"grow", "growth"}, {"succeed", "success"}, {"fail", "failure"}, {"deny", "denial"},
	{"analyze", "analyse", "analysis"}, {"think", "thought"}, {"weigh", "weight"},
	{"high", "height"}, {"long", "length"}, {"strong", "strength"}, {"deep", "depth"},
	{"wide", "width"}, {"true", "truth"}, {"die", "death"}, {"speak", "speech"},
	{"fly", "flight"}, {"explain", "explanation"}, {"maintain", "maintenance"},
}

// irregularRoots maps a root to the family ids holding it.
var irregularRoots = func() map[string]int {
	m := map[string]int{}
	for i, f := range irregularFamilies {
		for _, w := range f {
			m[familyRoot(w)] = i + 1
		}
	}
	return m
}()

// Related reports two roots (root) of one word family.
func Related(a, b string) bool {
	if a == b {
		return true
	}
	if a == "" || b == "" {
		return false
	}
	if ia, ib := irregularRoots[a], irregularRoots[b]; ia != 0 && ia == ib {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	c := 0
	for c < len(a) && a[c] == b[c] {
		c++
	}
	ra, rb := a[c:], b[c:]
	if ra == "" {
		// "-t" only after "c": reduce/reduction, introduce/introduction
		// (not cover/covert); "-or" only after "ct": detect/detector.
		return c >= 5 && (familyEndings[rb] || rb == "t" && strings.HasSuffix(a, "c") ||
			rb == "or" && strings.HasSuffix(a, "ct"))
	}
	for _, alt := range familyAlternations {
		if c >= alt.share && (ra == alt.a && rb == alt.b || ra == alt.b && rb == alt.a) {
			return true
		}
	}
	return false
}

// FamilyHeld reports whether a stem set holds stem t or a stem of its
// family.
func FamilyHeld(t string, have map[string]bool) bool {
	if have[t] {
		return true
	}
	rt := RootOfStem(t)
	for h := range have {
		if Related(rt, RootOfStem(h)) {
			return true
		}
	}
	return false
}

// RootOfStem cuts a derivational ending off a stem, as root does off a
// word.
func RootOfStem(s string) string {
	for _, e := range []string{"abl", "ibl"} {
		if strings.HasSuffix(s, e) && len(s) > len(e)+1 {
			return s[:len(s)-len(e)]
		}
	}
	return s
}

// familyRoot is a word's stem with a derivational ending cut (RootOfStem):
// "usable" and "used" share the root "us".
func familyRoot(w string) string { return RootOfStem(embedding.Stem(w)) }
