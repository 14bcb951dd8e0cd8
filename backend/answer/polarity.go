package answer

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/retrieve"
)

// The polarity of a deciding sentence.
//
// A sentence holding the question's words may still say the opposite: "the
// Transformer, based solely on attention mechanisms, dispensing with
// recurrence and convolutions entirely" answers "Does the Transformer use
// recurrence?" with no, and so does "replacing the recurrent layers most
// commonly used in encoder-decoder architectures". Whether a negation
// decides the answer depends on what it scopes over, not on its presence:
// "transfer is possible even when there is no shared vocabulary" says yes
// to "Is transfer possible ...?", since the "no" sits in a condition.
//
// So each negation cue gets a scope, read from the sentence's words and
// punctuation (no parser):
//
//   - clause negators ("not", "n't", "never", "no", "no longer", "none",
//     "neither/nor", "cannot", "fails to", "lacks", "rarely", ...) scope
//     from the cue to the end of the clause: the next comma, semicolon or
//     clause word ("but", "which", "whereas", "when", ...);
//   - privative phrases ("without X", "instead of X", "rather than X",
//     "unlike X", "replacing X with Y", "dispensing with X", "free of X",
//     "X-free", "eschews X", "avoids X", "in the absence of X") scope over
//     what follows them to the end of the clause ("replacing X" up to its
//     "with"/"by"); "X is replaced by Y" scopes back over X.
//
// The predicate (the verb or adjective the question asks about, and a
// light verb's object) is located in the sentence; its polarity is the
// number of distinct cues whose scope covers it, plus a negating prefix
// ("underfits" for "fit", "unused" for "used") and the antonym of a
// comparison ("slower" for "faster"). The same is read off the question
// ("Does X not use Y?", "Is it true that X does not ...?"): equal parity
// says yes, different says no. Two cues over the same predicate cancel
// ("not without X"). A light verb ("use", "contain", "need") may be
// unsaid when its object sits in a privative phrase: "without dropout"
// says the model does not use dropout, as long as no other verb stands
// between ("instead of taking the whole output as the hidden
// representation" is not about using it).
//
// The verdict stays "unclear" when the predicate is not held, when the
// sentence hedges ("may", "might", "we hypothesize", "whether"), contrasts
// two clauses ("whereas"), holds the predicate with both polarities, or
// holds the question's subject only inside a privative phrase ("Unlike
// LSTMs, our model uses attention" does not say whether LSTMs do). When the
// question's predicate cannot be read, legacyVerdict decides as before.

// polarityTokens splits s into lowercase words for scope reading: "," stands
// for every clause-breaking punctuation mark, "n't" and "cannot" become
// "not", and "X-free" becomes "X" "-free".
func polarityTokens(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) == 0 {
			return
		}
		w := strings.Trim(string(cur), "-'")
		cur = cur[:0]
		w = strings.TrimSuffix(w, "'s")
		if w == "" {
			return
		}
		switch {
		case w == "cannot":
			out = append(out, "can", "not")
			return
		case strings.HasSuffix(w, "n't"):
			base := strings.TrimSuffix(w, "n't")
			switch base {
			case "ca":
				base = "can"
			case "wo":
				base = "will"
			}
			out = append(out, base, "not")
			return
		}
		for k, part := range strings.Split(w, "-") {
			switch {
			case part == "":
			case k > 0 && part == "free":
				out = append(out, "-free")
			default:
				out = append(out, part)
			}
		}
	}
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '’':
			cur = append(cur, '\'')
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '\'':
			cur = append(cur, r)
		case strings.ContainsRune(",;:.?!()[]", r):
			flush()
			out = append(out, ",")
		default:
			flush()
		}
	}
	flush()
	return out
}

var (
	// clauseNegators negate the rest of their clause.
	clauseNegators = set("not never no none nothing nobody nowhere neither nor unable rarely seldom hardly barely")
	// clauseWords open a new clause: a negation before them does not
	// reach past them.
	clauseWords = set("but whereas while although though because which who whom whose so yet however since when whenever if unless whether where thus hence then suppose assume assuming once")
	// conditions open a clause that supposes rather than asserts: a
	// predicate in it ("Since curve I does not dominate in PR space,
	// there exists ...", "If a curve dominates in ROC space then ...")
	// is not what the sentence claims.
	conditions = set("if unless since when whenever suppose assume assuming once")
	// notNegation: "not only", "not just", "whether or not", "no doubt".
	afterNotNoNeg = set("only just merely least surprisingly")
	beForms       = set("is are was were be been being")
)

// negatingPrefixes turn a predicate into its opposite ("underfits",
// "unused", "independent", "dissimilar"); the other morphPrefixes grade it.
var negatingPrefixes = set("under un non in im dis mis")

// selfNegative comparatives say that the subject falls short: with no
// direction in the question ("as well as"), they say no.
var selfNegative = regexp.MustCompile(`^(inferior|worse|underperform\w*|fail\w*|lack\w*)$`)

// scope is what the negation cues of a token list cover: cov[i] lists the
// cues (by id) whose scope holds token i, priv[i] whether a privative
// phrase's does; neg says whether any cue was seen.
type scope struct {
	toks []string
	cov  [][]int
	priv []bool
	neg  bool
	// ellip marks the cues of an elliptical negation ("..., and not at
	// all in the Ubuntu domain", "always set forward and never back"):
	// they negate the predicate for the words they cover.
	ellip map[int]bool
	// privCue marks privative cues; at holds each cue's position.
	privCue map[int]bool
	pos     map[int]int
	// contrastTo: the sentence's "in contrast" is the phrase "in
	// contrast to X", read with its scope.
	contrastTo bool
}

func (sc *scope) at(i int) string {
	if i < 0 || i >= len(sc.toks) {
		return ""
	}
	return sc.toks[i]
}

func (sc *scope) boundary(i int) bool {
	w := sc.toks[i]
	if w == "so" && i > 0 && sc.at(i-1) != "," && sc.at(i-1) != "and" {
		// "so" opens a clause after a comma or "and" ("..., so we
		// ..."); elsewhere it grades ("not so much research").
		return false
	}
	if w == "yet" && (sc.at(i-1) == "not" || sc.at(i-1) == "never") {
		// "not yet deployed": an adverb, not the conjunction.
		return false
	}
	return w == "," || clauseWords[w] || w == "and" && pronouns[sc.at(i+1)]
}

// clauseEnd is the first clause boundary at or after i.
func (sc *scope) clauseEnd(i int) int {
	for j := i; j < len(sc.toks); j++ {
		if sc.boundary(j) {
			return j
		}
	}
	return len(sc.toks)
}

// phraseEnd is where a privative phrase starting at i ends: its clause's
// end, or a finite verb coordinated after it ("without early stopping and
// use dropout"; coordinated gerunds stay inside: "without tuning or using
// dropout").
func (sc *scope) phraseEnd(i int) int {
	end := sc.clauseEnd(i)
	for j := i + 1; j < end; j++ {
		// A finite verb after the phrase's noun phrase is the clause's
		// ("The model without ACT improves by 0.9 BLEU"): the phrase
		// ended before it.
		w, next := sc.toks[j], sc.at(j+1)
		if sForm(w) && verbs[inflectionless(w)] && !dets[sc.at(j-1)] && !preps[sc.at(j-1)] && (dets[next] || preps[next] && next != "of" || len(numbersOf([]string{next})) > 0) {
			return j
		}
	}
	for j := i; j+1 < end; j++ {
		next := sc.toks[j+1]
		if (sc.toks[j] == "and" || sc.toks[j] == "or") && !strings.HasSuffix(next, "ing") && verbs[inflectionless(next)] {
			return j
		}
	}
	return end
}

// clauseStart is the first token of the clause holding i.
func (sc *scope) clauseStart(i int) int {
	for j := i - 1; j >= 0; j-- {
		if sc.boundary(j) {
			return j + 1
		}
	}
	return 0
}

func (sc *scope) cover(id, from, to int, priv bool) {
	sc.privCue[id] = priv
	sc.pos[id] = id - 1
	for j := max(from, 0); j < to && j < len(sc.toks); j++ {
		sc.cov[j] = append(sc.cov[j], id)
		sc.priv[j] = sc.priv[j] || priv
	}
	sc.neg = true
}

// outdoes reports a sentence whose comparison cue (comparativeCues, as
// in "X outperforms Y") has, of the question's subject and object words,
// a subject word nearest before it, or neither side named before it;
// subject words the question repeats after its predicate (after) tell
// neither side.
func (sc *scope) outdoes(subject, object, after []string) bool {
	shared := map[string]bool{} // "new model", "old model": "model" tells neither
	for _, w := range subject {
		for _, o := range after {
			if ok, _ := holdsToken(o, w); ok {
				shared[w] = true
			}
		}
	}
	is := func(tok string, ws []string) bool {
		for _, w := range ws {
			if ok, _ := holdsToken(tok, w); ok && !shared[w] {
				return true
			}
		}
		return false
	}
	for i, tok := range sc.toks {
		if !hasAny(" "+tok+" ", comparativeCues) && !selfNegative.MatchString(tok) {
			continue
		}
		j := i - 1
		for ; j >= 0 && !is(sc.toks[j], subject); j-- {
			if is(sc.toks[j], object) {
				if j > 0 && is(sc.toks[j-1], subject) {
					// An object word heading a noun phrase that
					// a subject word opens ("the multilingual BERT
					// model is inferior to the monolingual models")
					// names the subject.
					j--
				}
				break
			}
		}
		if j < 0 || is(sc.toks[j], subject) {
			// A subject word, or neither side named before it ("It
			// also outperforms related models").
			return true
		}
	}
	return false
}

// predicated reports an occurrence said after a form of "be", adverbs
// between ("is highly robust").
func (sc *scope) predicated(occ []occurrence) bool {
	for _, o := range occ {
		j := o.i - 1
		for j >= 0 && (isAdverb(sc.toks[j]) || clauseNegators[sc.toks[j]]) {
			j--
		}
		if j >= 0 && beForms[sc.toks[j]] {
			return true
		}
	}
	return false
}

// partBreakRE splits what the sentence splitter left joined (a caption's
// labelled parts: "Figure 2: Training .... (a) Networks using dropout.
// (b) ...").
var partBreakRE = regexp.MustCompile(`[.:;]\s+`)

// verblessParts reports a text whose every part holding the predicate is
// verbless.
func verblessParts(text string, p askedPredicate) bool {
	if len(p.words) == 0 {
		return false
	}
	held := false
	for _, part := range partBreakRE.Split(text, -1) {
		ps := readScope(part)
		if len(ps.occurrences(p.words[0])) == 0 {
			continue
		}
		if !ps.verbless(p) {
			return false
		}
		held = true
	}
	return held
}

// verbOccurrences are the sentence's occurrences of the predicate's first
// word (its verb or adjective); none when the predicate has no word.
func (sc *scope) verbOccurrences(p askedPredicate) []occurrence {
	if len(p.words) == 0 {
		return nil
	}
	return sc.occurrences(p.words[0])
}

// verbless reports a sentence that holds the predicate only as a gerund
// or participle in -ing and has no other verb form (a form of "be",
// "have" or "do", a modal, or a known verb not in -ing and not after a
// determiner, preposition or adjective): a noun phrase such as a
// caption's, which claims nothing.
func (sc *scope) verbless(p askedPredicate) bool {
	occ := sc.verbOccurrences(p)
	if len(occ) == 0 {
		return false
	}
	at := map[int]bool{}
	for _, o := range occ {
		if !strings.HasSuffix(sc.toks[o.i], "ing") {
			return false
		}
		at[o.i] = true
	}
	for i, tok := range sc.toks {
		if at[i] || strings.HasSuffix(tok, "ing") {
			continue
		}
		if prev := sc.at(i - 1); (verbs[tok] || verbs[inflectionless(tok)]) && (dets[prev] || preps[prev] || isAdjective(prev)) {
			continue // a noun: "with deterministic cost function"
		}
		if beForms[tok] || auxHave[tok] || auxDo[tok] || auxModal[tok] || verbs[tok] || verbs[inflectionless(tok)] || isParticiple(tok) {
			return false
		}
	}
	return true
}

// relativePronouns open a relative clause after a noun.
var relativePronouns = set("who which that")

// relativeEnd is where the scope of a negation at i ends within its
// clause, which ends at end: a relative clause opened by "who" or "which"
// ends before the finite verb of the clause it sits in ("participants who
// did not complete the test or were not native speakers were excluded":
// "were excluded" is not negated; "or were" is the relative clause's own).
func (sc *scope) relativeEnd(i, end int) int {
	st := sc.clauseStart(i)
	if st == 0 || sc.toks[st-1] != "who" && sc.toks[st-1] != "which" {
		return end
	}
	for j := i + 2; j < end; j++ {
		prev := sc.toks[j-1]
		if (beForms[sc.toks[j]] && sc.toks[j] != "be" && sc.toks[j] != "being" && sc.toks[j] != "been" || auxHave[sc.toks[j]]) &&
			prev != "and" && prev != "or" && !clauseNegators[prev] && prev != "not" && !isAdverb(prev) {
			return j
		}
	}
	return end
}

// readScope reads the negation cues of text and their scopes.
func readScope(text string) *scope {
	t := polarityTokens(text)
	sc := &scope{toks: t, cov: make([][]int, len(t)), priv: make([]bool, len(t)), ellip: map[int]bool{}, privCue: map[int]bool{}, pos: map[int]int{}}
	neither := false
	for i, w := range t {
		prev, next := sc.at(i-1), sc.at(i+1)
		if sc.boundary(i) {
			neither = false
		}
		id := i + 1
		switch {
		case w == "not" && (afterNotNoNeg[next] || prev == "or" && sc.at(i-2) == "whether" || prev == "if"):
			// "not only X but Y", "whether or not", "if not": no negation.
		case w == "no" && (next == "doubt" || sc.at(i+2) == "than"):
			// "no doubt", "no more than 5"
		case w == "nor" && neither:
			// "neither X nor Y" is one negation.
		case w == "not" || clauseNegators[w] || strings.HasPrefix(w, "fail") && (next == "to" || next == "in") ||
			(w == "lack" || w == "lacks" || w == "lacked" || w == "lacking"):
			neither = neither || w == "neither"
			sc.cover(id, i+1, sc.relativeEnd(i, sc.clauseEnd(i+1)), false)
			if (w == "not" || w == "never") && (prev == "and" || prev == "but" || prev == "or" || prev == ",") {
				sc.ellip[id] = true
			}
		case w == "little" && !dets[prev] && !isAdjective(prev) && next != "," && !preps[prev] && !(isAdverb(prev) && preps[sc.at(i-2)]):
			// "there is little research on X", "very little research
			// exists", "requires little tuning": the quantity is next to
			// none; "a little research" is some, "a special little
			// thing" is small, and after a preposition ("with little
			// memory requirement") it qualifies a noun phrase.
			sc.cover(id, i+1, sc.clauseEnd(i+1), false)
		case w == "missing" && (beForms[prev] || isAdverb(prev) && beForms[sc.at(i-2)]):
			// "X is missing" says X is not there, as "X is lacking" does;
			// "is missing X" says the subject lacks X. A list of
			// examples set off after it ("features that are missing,
			// such as X and Y") is what is missing. "missing values", a
			// modifier, negates nothing.
			if next != "" && next != "," && next != "from" && next != "in" && !clauseWords[next] {
				sc.cover(id, i+1, sc.phraseEnd(i+1), false)
				break
			}
			sc.cover(id, sc.clauseStart(i), i, false)
			if j := i + 1; sc.at(j) == "," && (sc.at(j+1) == "such" && sc.at(j+2) == "as" || sc.at(j+1) == "including" || sc.at(j+1) == "e" && sc.at(j+2) == "g") {
				sc.cover(id, j+1, sc.phraseEnd(j+3), false)
			}
		case w == "without" || w == "unlike" || strings.HasPrefix(w, "eschew") || w == "avoid" || w == "avoids" || w == "avoided" || w == "avoiding":
			sc.cover(id, i+1, sc.phraseEnd(i+1), true)
		case strings.HasPrefix(w, "dispens") && next == "with":
			sc.cover(id, i+2, sc.phraseEnd(i+2), true)
		case w == "contrast" && next == "to" && (prev == "in" || prev == "by"), w == "contrary" && next == "to":
			// "in contrast to RNNs, the Transformer is not ...": a
			// phrase, unlike the sentence adverb "In contrast, ...".
			sc.cover(id, i+2, sc.phraseEnd(i+2), true)
			sc.contrastTo = true
		case w == "instead" && next == "of", w == "rather" && next == "than", w == "free" && (next == "of" || next == "from"),
			// "processes are independent of changes in the size of the
			// attended region": what it is independent of does not act
			// on it, as what it is free of is not in it.
			(w == "independent" || w == "independently" || w == "regardless" || w == "irrespective") && next == "of",
			w == "absence" && next == "of", w == "opposed" && prev == "as" && next == "to",
			(w == "place" || w == "lieu") && prev == "in" && next == "of":
			sc.cover(id, i+2, sc.phraseEnd(i+2), true)
		case w == "except" || w == "excluding" || w == "excepting":
			// "every axiom except commutativity", "all modules
			// excluding the cache": what follows is left out of the
			// predicate.
			from := i + 1
			if next == "for" {
				from++
			}
			sc.cover(id, from, sc.phraseEnd(from), true)
		case w == "other" && next == "than", w == "save" && next == "for" && prev != "to" && !pronouns[prev] && !auxModal[prev],
			(w == "apart" || w == "aside") && next == "from" && !additive(t):
			sc.cover(id, i+2, sc.phraseEnd(i+2), true)
		case w == "-free":
			sc.cover(id, i-1, i, true)
		case w == "non" && next != ",":
			// "non-linear": the hyphenated word is split, its prefix
			// negates the next part.
			sc.cover(id, i+1, i+2, false)
		case strings.HasPrefix(w, "replac") && w != "replacement" && w != "replacements":
			if beForms[prev] || beForms[sc.at(i-2)] && isAdverb(prev) {
				// "the recurrent layers are replaced by attention"
				sc.cover(id, sc.clauseStart(i), i, true)
				break
			}
			end := sc.clauseEnd(i + 1)
			for j := i + 1; j < end; j++ {
				if t[j] == "with" || t[j] == "by" {
					end = j
					break
				}
			}
			sc.cover(id, i+1, end, true)
		}
	}
	return sc
}

// additive reports a sentence whose "apart from X" adds to X rather than
// excludes it ("Apart from dropout, the model also uses weight decay").
func additive(toks []string) bool {
	for i, t := range toks {
		if t == "also" || t == "too" || t == "addition" || t == "well" && i > 0 && toks[i-1] == "as" {
			return true
		}
	}
	return false
}

// occurrence is a token holding a predicate word; neg marks a negating
// prefix ("underfits").
type occurrence struct {
	i   int
	neg bool
	// as is the predicate word a WordNet synonym or antonym stands for
	// (synonyms.go): its own polarity is read, not the token's.
	as string
}

// synonymGroups are verbs that say the same of their object in a
// paper's methods: "we adopt skip-gram", "we employ dropout" use them;
// "requires labelled data" needs it.
var synonymGroups = [][]string{
	{"use", "employ", "utilize", "utilise", "adopt", "leverage", "exploit", "rely"},
	{"need", "require"},
}

// synonymRoots maps a verb's root to the roots of its group.
var synonymRoots = func() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	for _, g := range synonymGroups {
		roots := map[string]bool{}
		for _, w := range g {
			roots[root(w)] = true
		}
		for r := range roots {
			m[r] = roots
		}
	}
	return m
}()

// adjectiveEndings make an adjective or noun of a verb that no longer
// says it: "useful" does not hold "use", "careless" not "care".
var adjectiveEndings = []string{"ful", "fully", "fulness", "less", "lessly", "lessness"}

// holdsToken reports whether token tok holds the predicate word w: a root
// of its family (related, family.go), a synonym's (synonymGroups), or
// either behind a prefix.
func holdsToken(tok, w string) (ok, neg bool) {
	if tok == "," || tok == "" {
		return false, false
	}
	for _, e := range adjectiveEndings {
		if strings.HasSuffix(tok, e) && !strings.HasSuffix(w, e) {
			return false, false
		}
	}
	rw := root(w)
	if rt := root(tok); retrieve.Related(rt, rw) || synonymRoots[rw][rt] {
		return true, false
	}
	for _, pre := range morphPrefixes {
		if strings.HasPrefix(tok, pre) && len(tok) > len(pre)+2 && retrieve.Related(root(tok[len(pre):]), rw) {
			return true, negatingPrefixes[pre]
		}
	}
	return false, false
}

// occurrences lists the tokens holding w; occurrences in a relative clause
// ("an algorithm that optimizes X ... optimize Y") are dropped when others
// remain: they belong to the subject. Occurrences in a condition are
// dropped always: a sentence holding the predicate only there does not
// hold it.
//
// A verb (not itself in -ing) is not held by a gerund that a determiner
// makes a noun, adjectives between: "pretraining greatly reduces their
// total training time" does not say that anything is trained.
func (sc *scope) occurrences(w string) []occurrence {
	occ := sc.occurrencesBy(func(tok string) (bool, bool) { return holdsToken(tok, w) }, "")
	if strings.HasSuffix(w, "ing") || !verbs[w] && !verbs[inflectionless(w)] && !isParticiple(w) {
		return occ
	}
	var out []occurrence
	for _, o := range occ {
		if !sc.nominalGerund(o.i) {
			out = append(out, o)
		}
	}
	return out
}

// dropClauseNegations drops from a question's scope the negations inside
// a clause of its subject ("Does the study of what graph neural networks
// cannot learn depend on their depth?"): a negation opened after a
// wh-word or relative pronoun with a verb of its own between it and the
// predicate negates that verb, not the question's predicate, nor is it a
// condition a deciding sentence must share.
func (sc *scope) dropClauseNegations(p askedPredicate) {
	if len(p.words) == 0 {
		return
	}
	pred := -1
	for i, tok := range sc.toks {
		if ok, _ := holdsToken(tok, p.words[0]); ok && i > 0 {
			pred = i
			break
		}
	}
	if pred < 0 {
		return
	}
	drop := map[int]bool{}
	for id, c := range sc.pos {
		if c >= pred || sc.privCue[id] {
			continue
		}
		wh, verb := false, false
		for j := 1; j < c; j++ {
			wh = wh || whWords[sc.toks[j]]
			// "participants who were not native speakers left out?": the
			// negation follows its relative clause's own verb.
			verb = verb || relativePronouns[sc.toks[j]] && j+1 < c && (auxBe[sc.toks[j+1]] || auxHave[sc.toks[j+1]] || auxDo[sc.toks[j+1]] || auxModal[sc.toks[j+1]])
		}
		for j := c + 1; j < pred; j++ {
			verb = verb || verbs[inflectionless(sc.toks[j])] && !auxDo[sc.toks[j]] && !auxModal[sc.toks[j]]
		}
		if wh && verb {
			drop[id] = true
		}
	}
	if len(drop) == 0 {
		return
	}
	sc.neg = false
	for i, ids := range sc.cov {
		var keep []int
		for _, id := range ids {
			if !drop[id] {
				keep = append(keep, id)
			}
		}
		sc.cov[i] = keep
		sc.neg = sc.neg || len(keep) > 0
	}
}

// whWords open a clause inside a noun phrase ("what X cannot learn", "the
// model that does not use dropout").
var whWords = set("what which who whom whose that how where")

// nominalGerund reports a word in -ing that a determiner or possessive
// opens, adjectives and adverbs between ("their total training time", "the
// training"): a noun.
func (sc *scope) nominalGerund(i int) bool {
	if w := sc.toks[i]; !strings.HasSuffix(w, "ing") || len(w) <= 5 {
		return false
	}
	j := i - 1
	for j >= 0 && (isAdjective(sc.toks[j]) && !isParticiple(sc.toks[j]) || isAdverb(sc.toks[j])) {
		j--
	}
	return dets[sc.at(j)] && !demons[sc.at(j)]
}

// occurrencesBy is occurrences for any test of a token (holds: whether it
// says the word, neg: negated, as a prefix negates it); as is recorded on
// each occurrence (the word a WordNet synonym stands for, "" for the word
// itself).
func (sc *scope) occurrencesBy(holds func(tok string) (ok, neg bool), as string) []occurrence {
	var all, main []occurrence
	for i, tok := range sc.toks {
		if ok, neg := holds(tok); ok {
			if st := sc.clauseStart(i); st > 0 && conditions[sc.toks[st-1]] {
				continue
			}
			o := occurrence{i: i, neg: neg, as: as}
			all = append(all, o)
			j := i - 1
			for j >= 0 && isAdverb(sc.toks[j]) {
				j--
			}
			if p := sc.at(j); p != "that" && p != "which" && p != "who" {
				main = append(main, o)
			}
		}
	}
	if len(main) > 0 {
		return main
	}
	return all
}

// reportedRE matches a hedge that reports another's expectation rather
// than the authors' own doubt: "contrary to what was previously
// hypothesized", "than previously thought", "as expected".
var reportedRE = regexp.MustCompile(`(?i)\b(contrary to|than|as)\s+(what\s+(was|is|has been|had been|were)\s+)?(previously\s+|originally\s+|commonly\s+|widely\s+|often\s+)?(hypothesi[sz]ed|suggested|believed|thought|expected|assumed|speculated|conjectured|predicted)\b`)

// cues counts the distinct cues covering the tokens at idx.
func (sc *scope) cues(idx ...int) int {
	seen := map[int]bool{}
	for _, i := range idx {
		for _, id := range sc.cov[i] {
			seen[id] = true
		}
	}
	return len(seen)
}

// lightUseVerbs are the light verbs that "without X" or "instead of X"
// answers by itself: not using, needing or containing X.
var lightUseVerbs = set("use used contain include involve comprise need require employ rely")

// polarity of the predicate in sc: the parity of the negations over it,
// with held false when the sentence does not hold it and ok false when its
// occurrences disagree. comparative lists the sentence tokens that state a
// comparison's direction, used when the predicate words are not held.
func (p askedPredicate) polarity(sc *scope, q string) (neg, held, ok bool) {
	if len(p.anyOf) > 0 {
		// "Is there X ...?": any word of X; its polarity decides.
		par := -1
		for _, w := range p.anyOf {
			for _, o := range sc.occurrences(w) {
				n := (sc.cues(o.i) + b2i(o.neg)) % 2
				if par >= 0 && par != n {
					return false, true, false
				}
				par = n
			}
		}
		return par == 1, par >= 0, true
	}
	if len(p.words) == 0 {
		return false, false, false
	}
	light := len(p.words) > 1 && lightVerbs[p.words[0]]
	verbOcc := sc.occurrences(p.words[0])
	if p.head != "" && len(sc.occurrences(p.head)) == 0 {
		// "Do they use pretrained embeddings?" is not held by
		// "models, which were pretrained by OpenNMT, were applied".
		return false, false, true
	}
	if light {
		objOcc := sc.occurrences(p.words[1])
		if len(objOcc) == 0 {
			return false, false, true
		}
		if len(verbOcc) == 0 {
			// "without dropout", "dispensing with recurrence": the object
			// in a privative phrase with no other verb between.
			if !lightUseVerbs[p.words[0]] {
				return false, false, true
			}
			for _, o := range objOcc {
				if sc.priv[o.i] && !verbBetween(sc, o.i) || sc.at(o.i-1) == "no" {
					// "without dropout"; "no gamma correction": "no" as
					// the object's determiner says it is not used, had or
					// needed, as "without" does.
					return (sc.cues(o.i)+b2i(o.neg))%2 == 1, true, true
				}
			}
			return false, false, true
		}
		// Each verb with its nearest object: the object's negations
		// count, and the verb's clause negations; a privative phrase
		// over the verb alone holds a modifier of the replaced thing
		// ("replacing the recurrent layers most commonly used in ...
		// with multi-headed self-attention"). Pairs must agree.
		// A verb without its object in its own clause says something
		// else ("we use dropout, but we do not use label smoothing"),
		// unless no verb has one.
		type pair struct {
			v occurrence
			o int
		}
		var pairs, far []pair
		for _, v := range verbOcc {
			bo, best := 0, -1
			for _, o := range objOcc {
				d := o.i - v.i
				if d < 0 {
					d = -d
				}
				if best < 0 || d < best {
					best, bo = d, o.i
				}
			}
			if sc.clauseStart(v.i) == sc.clauseStart(bo) {
				pairs = append(pairs, pair{v, bo})
			} else {
				far = append(far, pair{v, bo})
			}
		}
		if len(pairs) == 0 {
			pairs = far
		}
		par := -1
		for _, pr := range pairs {
			v, bo := pr.v, pr.o
			seen := map[int]bool{}
			for _, id := range sc.cov[bo] {
				seen[id] = true
			}
			for _, id := range sc.cov[v.i] {
				if !sc.privCue[id] {
					seen[id] = true
				}
			}
			n := (len(seen) + b2i(v.neg)) % 2
			if par >= 0 && par != n {
				return false, true, false
			}
			par = n
		}
		return par == 1, true, true
	}
	// A verb, adjective or participle, with every other word of the
	// predicate held too ("tree-structured", "np-hard").
	for k, w := range p.words[1:] {
		if len(sc.occurrences(w)) == 0 && !(p.nominal && k == len(p.words)-2 && sc.predicated(verbOcc)) {
			return false, false, true
		}
	}
	occ := verbOcc
	if len(occ) == 0 && p.wordnet != "" && !p.compare && !emptyVerbs[p.words[0]] {
		occ = sc.wordnetOccurrences(p.words[0], p.wordnet)
	}
	if len(occ) == 0 && (p.compare && !p.quantity || flippedPolar(q, sc)) {
		// A comparison answered by its direction ("inferior", "slower");
		// not one that counts the object ("predict more than one
		// relation" is not held by "no significant improvement").
		for i, tok := range sc.toks {
			if hasAny(" "+tok+" ", comparativeCues) || selfNegative.MatchString(tok) {
				occ = append(occ, occurrence{i: i})
			}
		}
	}
	if len(occ) == 0 {
		return false, false, true
	}
	par := -1
	for _, o := range occ {
		n := sc.cues(o.i) + b2i(o.neg) + b2i(sc.objectNegated(o.i))
		tok := sc.toks[o.i]
		if o.as != "" {
			tok = o.as
		}
		if selfNegative.MatchString(tok) && !hasAny(q, directionCues) {
			n++
		}
		n %= 2
		if par >= 0 && par != n {
			return false, true, false
		}
		par = n
	}
	return par == 1, true, true
}

// objectNegated reports a verb whose object "no" or "nothing" determines
// ("these improvements require no fine-tuning", "shows no improvement"):
// English negates the verb so, as "do not require any fine-tuning".
func (sc *scope) objectNegated(i int) bool {
	j := i + 1
	for j < len(sc.toks) && isAdverb(sc.toks[j]) {
		j++
	}
	return sc.at(j) == "no" && sc.at(j+1) != "doubt" && sc.at(j+2) != "than" || sc.at(j) == "nothing"
}

// flippedPolar reports a sentence stating the antonym of the question's
// predicate.
func flippedPolar(q string, sc *scope) bool {
	return flipped(q, " "+strings.Join(sc.toks, " ")+" ")
}

// directionCues are the comparison words that give a question a direction.
var directionCues = func() []string {
	var out []string
	for _, p := range antonyms {
		out = append(out, p[0]...)
		out = append(out, p[1]...)
	}
	return append(out, " inferior", " superior")
}()

// verbBetween reports a verb (a gerund or a known verb) between token i
// and a privative cue covering it.
func verbBetween(sc *scope, i int) bool {
	for _, id := range sc.cov[i] {
		if !sc.privCue[id] {
			continue
		}
		from, to := sc.pos[id]+1, i
		if from > to {
			from, to = i+1, sc.pos[id]
		}
		for j := from; j < to; j++ {
			w := sc.toks[j]
			if strings.HasSuffix(w, "ing") && len(w) > 4 || verbs[w] && !dets[sc.at(j-1)] {
				return true
			}
		}
		return false
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// negQuestionRE expands a negative auxiliary in a question ("Doesn't X
// ...?") so that the predicate can be read.
var negQuestionRE = regexp.MustCompile(`(?i)\b(do|does|did|is|are|was|were|can|could|has|have|had|should|would|will)n['’]t\b`)

// judgedText is a yes/no question as the verdict reader reads it: quoted
// passages left out, a negative auxiliary expanded ("doesn't" -> "does
// not").
func judgedText(question string) string {
	return negQuestionRE.ReplaceAllString(quotedRE.ReplaceAllString(withoutSetOffClauses(question), " "), "$1 not")
}

// setOffClauseRE matches a relative clause set off by commas ("fan-out,
// where a transaction depends on many earlier transactions, ...").
var setOffClauseRE = regexp.MustCompile(`(?i),\s*(where|which|who|whom|whose|when)\b[^,?;]*,`)

// withoutAsides drops a sentence's parenthetical remarks (parenRE), which
// say nothing about its main clause - except one that negates a word of
// the question (stems) the rest of the sentence does not hold: "a
// restrictive language (it is not Turing-complete)" says the language is
// not Turing-complete.
func withoutAsides(sentence string, stems []string) string {
	return parenRE.ReplaceAllStringFunc(sentence, func(par string) string {
		if !negated(strings.Trim(par, "()")) {
			return " "
		}
		outside := map[string]bool{}
		for _, t := range embedding.ContentStems(parenRE.ReplaceAllString(sentence, " ")) {
			outside[t] = true
		}
		inside := map[string]bool{}
		for _, t := range embedding.ContentStems(par) {
			inside[t] = true
		}
		for _, t := range stems {
			if inside[t] && !outside[t] {
				return ", " + strings.Trim(par, "()") + ","
			}
		}
		return " "
	})
}

// withoutSetOffClauses drops the relative clauses a question sets off by
// commas: they describe what they follow, they are not what is asked ("Is
// fan-out, where a transaction depends on many earlier transactions, a
// problem for Bitcoin?" asks whether fan-out is a problem).
func withoutSetOffClauses(question string) string {
	return setOffClauseRE.ReplaceAllString(question, " ")
}

// newJudge reads the question's predicate and polarity once and returns
// the verdict of each candidate deciding sentence, with held false when the
// sentence does not hold the predicate (it decides nothing then).
//
// withWordnet lets a WordNet synonym or antonym hold the predicate
// (synonyms.go): Compose and Verdict read it, the Decider of retrieval
// does not.
func newJudge(question string, withWordnet bool) func(sentence string) (string, bool) {
	j := newTitledJudge(question, withWordnet)
	return func(sentence string) (string, bool) { return j(sentence, "") }
}

// newTitledJudge is newJudge for sentences read with the title of their
// paper: the title's words in the question's object count as said (a
// paper's sentences speak of its title's topic without repeating it, see
// withTitle): "Do machine translation metrics such as BLEU assume that a
// valid dialogue response has significant word overlap ...?" is decided by
// "However these metrics assume that valid responses have significant word
// overlap ..." in "How NOT To Evaluate Your Dialogue System".
func newTitledJudge(question string, withWordnet bool) func(sentence, title string) (string, bool) {
	qtext := judgedText(question)
	q := norm(qtext)
	p, ok := predicateOf(qtext)
	if !ok {
		qwords := embedding.ContentStems(qtext)
		return func(sentence, _ string) (string, bool) {
			return legacyVerdict(q, norm(withoutAsides(sentence, qwords))), true
		}
	}
	if p.abstain {
		return func(string, string) (string, bool) { return VerdictUnclear, false }
	}
	if withWordnet && len(p.words) > 0 {
		p.wordnet = wordnetKey(qtext, p.words[0])
	}
	bound, bounded := questionBound(qtext)
	if bounded && p.quantity {
		// The comparison is the number's ("more than 90%"), decided by
		// the sentence's number (numbound.go), not a direction word.
		p.compare, p.quantity = false, false
	}
	qs := readScope(parenRE.ReplaceAllString(qtext, " "))
	qs.dropClauseNegations(p)
	qneg, _, qok := p.polarity(qs, q)
	// A negation in the question that does not reach its predicate sits in
	// a condition ("... when there is no shared vocabulary?").
	condNeg := qs.neg && !qneg
	subject, complement := subjectStems(question, p)
	if bounded {
		complement = bound.withoutCue(complement)
	}
	object, ownSubject := withoutRefWords(qtext, complement), withoutRefWords(qtext, subject)
	ownComplement := complementPhrases(qtext, object)
	// A comparison with a direction ("perform better") is not answered by
	// the verb alone ("performs similarly").
	// Nor is a comparison along one dimension ("smaller") answered by
	// another ("performs better").
	direction := p.compare && hasAny(q, directionCues)
	var dims [][]string
	for k, pair := range antonyms {
		if k != moreLess && (hasAny(q, pair[0]) || hasAny(q, pair[1])) {
			dim := append(append([]string{}, pair[0]...), pair[1]...)
			if k == betterWorse {
				dim = append(dim, performanceCues...)
			}
			dims = append(dims, dim)
		}
	}
	var qAfter []string // the question's words after its predicate
	for i, tok := range qs.toks {
		if len(p.words) == 0 {
			break
		}
		if ok, _ := holdsToken(tok, p.words[0]); ok {
			qAfter = qs.toks[i+1:]
			break
		}
	}
	others := aboutOthers(question)
	quants := quantifiersOf(polarityTokens(qtext))
	nums := numbersOf(qAfter)
	names := questionNames(qtext)
	if alternative(qtext) {
		// "Is the model smaller or bigger than X?" asks which, not
		// whether.
		return func(string, string) (string, bool) { return VerdictUnclear, false }
	}
	spell := compoundSpeller(qtext)
	qstems := stemSet(qtext)
	// The words an elliptical negation may leave the predicate without:
	// its complement's, and the particle of a phrasal verb, which
	// subjectStems counts as the predicate's ("set back" is not said by
	// "always set forward and never back").
	ellipsisWords := complement
	if i := strings.IndexByte(p.wordnet, '_'); i >= 0 {
		ellipsisWords = append(append([]string{}, complement...), p.wordnet[i+1:])
	}
	return func(sentence, title string) (string, bool) {
		object, ownComplement := withoutTitle(object, ownComplement, title, names)
		s := parenRE.ReplaceAllString(spell(sentence), " ")
		ns := norm(reportedRE.ReplaceAllString(s, " "))
		if direction && !hasAny(ns, directionCues) && !hasAny(ns, comparativeCues) {
			return VerdictUnclear, false
		}
		if p.compare && !direction && !hasAny(ns, directionCues) && !hasAny(ns, comparativeCues) && strings.Count(ns, " as ") < 2 && !hasAny(ns, equalityCues) {
			// A comparison of equality ("as declarative as FRP") is not
			// answered by a sentence that compares nothing ("As a
			// declarative framework, FRP makes this task easier").
			return VerdictUnclear, false
		}
		if len(dims) > 0 {
			same := false
			for _, d := range dims {
				same = same || hasAny(ns, d)
			}
			if !same {
				return VerdictUnclear, false
			}
		}
		if reversedOrder(q, ns) {
			// "Are the weights pruned before training?" is not answered
			// by "The weights are pruned after training": the predicate
			// is said at another time than the one asked. A later
			// sentence may decide.
			return VerdictUnclear, false
		}
		sc := readScope(s)
		// A sentence adverb of contrast that opens the sentence sets it
		// against the sentence before; its own clause is what it claims.
		cs := norm(reportedRE.ReplaceAllString(leadContrastRE.ReplaceAllString(s, " "), " "))
		neg, held, sok := p.polarity(sc, q)
		if held && verblessParts(s, p) {
			// "(a) Neural networks using dropout stochastic
			// regularization": a caption's noun phrase, no claim.
			return VerdictUnclear, false
		}
		if !held || p.passiveLight && !subjectMentioned(s, ownSubject) {
			// "Apart from using a stronger model ..." does not say
			// whether greedy decoding is used.
			return VerdictUnclear, false
		}
		if !others && citedSubject(sentence, p) && !subjectHeld(s, ownSubject) {
			// "LDA+GSHL BIBREF13 only extracts a subset of relations":
			// the predicate is said of cited work.
			return VerdictUnclear, true
		}
		switch {
		case !qok || !sok:
			return VerdictUnclear, true // both polarities
		case p.hedged(ns) && !hasAny(q, hedges) && !(possibility(q) && !hasAny(ns, nonModalHedges)) && sc.hedgedBefore(p):
			return VerdictUnclear, true
		case contrasted(cs, sc, ownSubject):
			return VerdictUnclear, true
		case sc.judgedInfinitive(p):
			return VerdictUnclear, true
		case condNeg && !sc.neg:
			return VerdictUnclear, true
		case subjectContrasted(sc, subject):
			return VerdictUnclear, true
		}
		if sc.elliptic(p, ellipsisWords) {
			neg = !neg
		}
		if sc.splitByContrast(p, ownComplement) {
			// "While systems like Google Scholar are effective for general
			// queries, they fall short when addressing these complex
			// queries": the predicate is said in one clause, what the
			// question asks it of in the clause set against it.
			return VerdictUnclear, true
		}
		if p.compare && (outdoing[p.words[0]] || hasAny(ns, comparativeCues)) && !sc.outdoes(ownSubject, object, qAfter) {
			// "Did the autoencoder beat PCA?" is not answered by "PCA
			// outperformed the autoencoder": the side named last before
			// the comparison is the one that wins. So for any
			// comparison the sentence states with a direction: "Did
			// random retrieval perform as well as kNN retrieval?" is
			// not answered yes by "retrieving similar examples using
			// kNN gives a much better performance". Read before the
			// polarity: "The large model performs worse than the small
			// one" does not say no to "Does the small model perform
			// better than the large one?".
			return VerdictUnclear, false
		}
		if neg == qneg && !flippedPolar(q, sc) && sc.privativeOnly(ownComplement) {
			// "We define the happened-before relation without using
			// physical clocks" for "Does Lamport define it in terms of
			// physical clocks?": the predicate holds, but without what
			// the question asks it of.
			return VerdictNo, true
		}
		if neg != qneg != flippedPolar(q, sc) {
			return VerdictNo, true
		}
		if !objectHeld(s, object) {
			// A yes says the paper states what the question asks: the
			// sentence holds the predicate of another object. A later
			// sentence may decide - unless the sentence says the predicate
			// holds only of that other object ("only requires first-order
			// gradients" for "need second-order gradients?").
			if len(quants) == 0 && sc.exclusiveOther(ownComplement) {
				return VerdictNo, true
			}
			return VerdictUnclear, false
		}
		if !sc.subjectBeforePredicate(p, ownSubject) {
			// "The compiler is written in OCaml, and its runtime in Rust"
			// does not say the runtime is written in OCaml: the subject is
			// said only in a clause coordinated after the predicate's.
			return VerdictUnclear, false
		}
		if sc.otherSubject(p, ownSubject, qstems) || sc.adjunctOnly(p, object, qstems) {
			// "The decoder is shared between the two languages" does
			// not say the encoder is; "written in C++, with Python
			// bindings" not that it is written in Python.
			return VerdictUnclear, true
		}
		if !sc.objectWithPredicate(p, object) {
			// "Ring Attention just needs to call ... on each host, and
			// overlap the communication of key-value blocks" does not say
			// it needs communication: the object is held only in a clause
			// coordinated to the predicate's. A later sentence may decide.
			return VerdictUnclear, false
		}
		if !sc.phrasesTogether(ownComplement) {
			// "designed by Dutch engineers at the request of the German
			// railway" does not say "designed by German engineers": the
			// object's words must stand together. A later sentence may
			// decide.
			return VerdictUnclear, false
		}
		if bounded {
			// "Does X achieve over 90%?": the sentence's number of the
			// same kind, with its own qualifier, must satisfy the bound
			// (yes) or rule it out (no); "achieves 90%" says no.
			yes, ok := sentenceQuantity(bound, s)
			switch {
			case !ok:
				return VerdictUnclear, false
			case !yes:
				return VerdictNo, true
			}
		} else if !numbersHeld(nums, sc.toks) {
			// "Does the model converge within 10 epochs?" is not
			// answered yes by "The model converges within 50 epochs":
			// a number the question asks of the predicate must be the
			// sentence's. A later sentence may decide.
			return VerdictUnclear, false
		}
		if !quantifiersHeld(quants, sc.toks) {
			// "Does ELMo learn all possible logic rules?" is not answered
			// yes by "ELMo learns logic rules" (a no would stand).
			return VerdictUnclear, true
		}
		return VerdictYes, true
	}
}

// contrasted reports a sentence (normalised, cs) that sets two clauses
// against each other (contrasts); "in contrast to X" is a phrase with a
// scope instead (scope.contrastTo). A shortcoming or limitation sets what
// it is said of against the sentence's claim only when that is the
// question's subject ("the Universal Transformer is computationally
// universal, addressing a shortcoming of the standard Transformer"); "the
// prospects are hindered by physical limitations" contrasts nothing.
func contrasted(cs string, sc *scope, subject []string) bool {
	if sc.contrastTo {
		cs = strings.ReplaceAll(strings.ReplaceAll(cs, " in contrast to ", " "), " by contrast to ", " ")
	}
	for _, cue := range contrasts {
		i := strings.Index(cs, cue)
		if i < 0 {
			continue
		}
		if (cue == " shortcoming" || cue == " limitation") && !subjectMentioned(cs[i+len(cue):], subject) {
			continue
		}
		return true
	}
	return false
}

// leadContrastRE matches a sentence adverb of contrast opening a sentence
// ("In contrast, modern GPUs provide less than 100GB", "By contrast, ...",
// "On the other hand, ...", "Conversely, ..."): it sets the sentence
// against the one before it, not two clauses of its own, so it leaves the
// sentence's polarity to be read. Inside the sentence ("X, in contrast,
// Y") it still marks two clauses set against each other.
var leadContrastRE = regexp.MustCompile(`^\s*(?i:in contrast|by contrast|on the other hand|conversely)\s*,`)

// equalityCues state a comparison of equality.
var equalityCues = []string{" same ", " similar", " equal", " comparabl", " match", " on par ", " as well as "}

// Indexes into antonyms: the general "more/less" pair gives no dimension;
// "better/worse" is also answered by the performance cues.
const (
	betterWorse = 0
	moreLess    = 1
)

// performanceCues state a comparison of quality.
var performanceCues = []string{" improve", " surpass", " exceed", " beat ", " beats ", " inferior"}

// quantifierGroups are universal and exclusive quantifiers; a word of a
// group holds the others.
var quantifierGroups = [][]string{
	{"all", "every", "each", "always"},
	{"only", "solely", "exclusively"},
	{"fully", "entirely", "completely"},
}

// quantifiersOf lists the groups whose words a question uses.
func quantifiersOf(toks []string) [][]string {
	var out [][]string
	for _, g := range quantifierGroups {
	group:
		for _, t := range toks {
			for _, w := range g {
				if t == w {
					out = append(out, g)
					break group
				}
			}
		}
	}
	return out
}

// quantifiersHeld reports whether the sentence holds a word of each group.
func quantifiersHeld(groups [][]string, toks []string) bool {
	for _, g := range groups {
		if len(quantifiersOf(toks)) == 0 {
			return false
		}
		found := false
		for _, h := range quantifiersOf(toks) {
			found = found || h[0] == g[0]
		}
		if !found {
			return false
		}
	}
	return true
}

// alternativeRE matches a question offering two comparatives.
var alternativeRE = regexp.MustCompile(`(?i)\b(\w+er|more \w+|less \w+)\s+or\s+(\w+er|more \w+|less \w+)\b`)

// alternative reports a question that asks which of two comparatives
// holds ("smaller or bigger").
func alternative(q string) bool {
	m := alternativeRE.FindStringSubmatch(q)
	if m == nil {
		return false
	}
	return isComparative(strings.ToLower(m[1]), "") || strings.HasPrefix(strings.ToLower(m[1]), "more ") || strings.HasPrefix(strings.ToLower(m[1]), "less ")
}

// subjectStems are the question's content words outside its predicate
// and outside its own privative phrases: before the predicate (its
// subject) and after it (its complement).
func subjectStems(question string, p askedPredicate) (subject, complement []string) {
	pred := map[string]bool{}
	for _, w := range append(append([]string{}, p.words...), p.anyOf...) {
		pred[root(w)] = true
	}
	if i := strings.IndexByte(p.wordnet, '_'); i >= 0 {
		// A phrasal verb's particle is the predicate's ("tell X apart").
		pred[root(p.wordnet[i+1:])] = true
	}
	qs := readScope(quotedRE.ReplaceAllString(withoutSetOffClauses(question), " "))
	// The subject stands before the predicate.
	end := len(qs.toks)
	if len(p.anyOf) > 0 {
		end = 0
	} else if len(p.words) > 0 {
		for i, tok := range qs.toks {
			if ok, _ := holdsToken(tok, p.words[0]); ok && i > 0 {
				end = i
				break
			}
		}
		// A possessive name before an object read as the predicate
		// ("have Typed Racket's runtime contracts") is the object's.
		poss := possessiveNames(question)
		for end > 0 && end < len(qs.toks) && poss[qs.toks[end-1]] {
			end--
		}
	}
	// A capitalised word in -ly is a name ("HitAnomaly"), not an adverb.
	names := questionNames(question)
	seen := map[string]bool{}
	frame := fronted(qs.toks)
	for i, tok := range qs.toks {
		if tok == "," || qs.priv[i] || qs.privCue[i+1] || isFunc(tok) || auxDo[tok] || auxBe[tok] || auxHave[tok] || auxModal[tok] || isAdverb(tok) && !names[tok] || len(tok) < 3 {
			continue
		}
		r := root(tok)
		if pred[r] || seen[r] {
			continue
		}
		if i < frame {
			// A fronted phrase set off by a comma ("In the paper on
			// predicting sales from product descriptions, has most
			// work been concerned with product descriptions?") frames
			// the question: its words said again after the predicate
			// are what is asked of it.
			subject = append(subject, tok)
			continue
		}
		seen[r] = true
		if i < end {
			subject = append(subject, tok)
		} else {
			complement = append(complement, tok)
		}
	}
	return subject, complement
}

// judgedInfinitive reports a predicate said only as the infinitive that
// an adjective after "it is" judges ("we argue that it is imprecise to
// view our method as ensembling", "it is easy to see that"): the sentence
// says how apt, hard or right doing it is, not that it is done, and the
// adjective's polarity ("imprecise", "misleading", "safe") cannot be read.
func (sc *scope) judgedInfinitive(p askedPredicate) bool {
	occ := sc.verbOccurrences(p)
	if len(occ) == 0 {
		return false
	}
	for _, o := range occ {
		if sc.at(o.i-1) != "to" {
			return false
		}
		judged := false
		for j := o.i - 3; j >= 1 && j >= o.i-5; j-- {
			if sc.at(j-1) == "it" && beForms[sc.at(j)] {
				judged = true
				break
			}
		}
		if !judged {
			return false
		}
	}
	return true
}

// fronted is the end of a question's fronted phrase set off by a comma
// before its auxiliary ("In the RAG vs fine-tuning study, can GPT-4 ...?":
// the comma's index), 0 when there is none.
func fronted(toks []string) int {
	for i, tok := range toks {
		if tok == "," {
			if i+1 < len(toks) && (auxDo[toks[i+1]] || auxBe[toks[i+1]] || auxHave[toks[i+1]] || auxModal[toks[i+1]]) {
				return i
			}
			return 0
		}
	}
	return 0
}

// questionNames returns the question's words that name something (isName:
// capitalised, with a digit, or possessive), lowercased.
func questionNames(question string) map[string]bool {
	names := map[string]bool{}
	for _, t := range questionTokens(question) {
		if isName(t) {
			names[t.w] = true
		}
	}
	return names
}

// elliptic reports an elliptical negation ("and not at all in the technical
// Ubuntu domain", "set forward and never back") that covers every
// occurrence of a complement word of the question (or of its phrasal
// verb's particle): the predicate is negated for it. A negation that covers the
// predicate itself ("but is only applicable to log data and not
// appropriate for generic time-series data") is no ellipsis: it negates
// the predicate, as any negation does.
func (sc *scope) elliptic(p askedPredicate, complement []string) bool {
	for _, o := range sc.verbOccurrences(p) {
		for _, id := range sc.cov[o.i] {
			if sc.ellip[id] {
				return false
			}
		}
	}
	for _, w := range complement {
		occ := sc.occurrences(w)
		if len(occ) == 0 {
			continue
		}
		all := true
		for _, o := range occ {
			e := false
			for _, id := range sc.cov[o.i] {
				e = e || sc.ellip[id]
			}
			all = all && e
		}
		if all {
			return true
		}
	}
	return false
}

// complementPhrases groups the complement words the question itself does
// not put in a privative phrase ("X rather than Y": Y is not asked of the
// predicate) or under a negation into its noun phrases: runs of adjacent
// content words ("physical clocks").
func complementPhrases(q string, complement []string) [][]string {
	want := map[string]bool{}
	for _, w := range complement {
		want[w] = true
	}
	qs := readScope(quotedRE.ReplaceAllString(q, " "))
	var out [][]string
	var run []string
	for i, tok := range qs.toks {
		if want[tok] && !qs.priv[i] && qs.cues(i) == 0 {
			run = append(run, tok)
			continue
		}
		if len(run) > 0 {
			out, run = append(out, run), nil
		}
	}
	if len(run) > 0 {
		out = append(out, run)
	}
	return out
}

// privativeOnly reports a noun phrase of the question's complement whose
// every word the sentence holds, but only inside privative phrases
// ("without using physical clocks", "instead of X"): the predicate is
// said without it. A phrase the sentence holds in part ("with noisy
// labels" - "without clean labels") decides nothing.
func (sc *scope) privativeOnly(phrases [][]string) bool {
	for _, ph := range phrases {
		inside := true
		abbr := sc.abbreviated(ph)
		for k, w := range ph {
			occ := sc.occurrences(w)
			if len(abbr[k]) > 0 {
				// "without NSP loss" holds "next sentence prediction"
				// where the abbreviation stands, not in "sentences"
				// elsewhere.
				occ = abbr[k]
			}
			inside = inside && len(occ) > 0
			for _, o := range occ {
				inside = inside && sc.priv[o.i] && !otherVerbBetween(sc, o.i)
			}
		}
		if inside {
			return true
		}
	}
	return false
}

// Concession and contrast split a sentence into sides set against each
// other: "while/although/though/whereas/despite X," makes X a side of its
// own; "but", "yet" and "however" open a new side.
var (
	concessiveOpeners = set("while whereas although though despite")
	contrastOpeners   = set("but yet however")
)

// sides numbers each token by the side of the sentence it stands on.
func (sc *scope) sides() []int {
	side := make([]int, len(sc.toks))
	cur, open := 0, false
	for i, t := range sc.toks {
		switch {
		case concessiveOpeners[t]:
			cur++
			open = true
		case contrastOpeners[t]:
			cur++
			open = false
		case t == "," && open:
			cur++
			open = false
		}
		side[i] = cur
	}
	return side
}

// splitByContrast reports a sentence whose predicate stands on one side
// of a concession or contrast and a word of the question's complement
// only on another ("While systems like Google Scholar are effective for
// general queries, they fall short when addressing these complex
// queries"): the predicate is not said of it.
func (sc *scope) splitByContrast(p askedPredicate, phrases [][]string) bool {
	if len(p.words) == 0 {
		return false
	}
	side := sc.sides()
	if len(side) == 0 || side[len(side)-1] == 0 {
		return false
	}
	predSide := map[int]bool{}
	for _, o := range sc.occurrences(p.words[0]) {
		predSide[side[o.i]] = true
	}
	if len(predSide) == 0 {
		return false
	}
	for _, ph := range phrases {
		for _, w := range ph {
			// Every token holding w, conditions included ("when
			// addressing these complex queries").
			apart, seen := true, false
			for i, tok := range sc.toks {
				if ok, _ := holdsToken(tok, w); ok {
					seen = true
					apart = apart && !predSide[side[i]]
				}
			}
			if seen && apart {
				return true
			}
		}
	}
	return false
}

// exclusives restrict a predicate to what follows them.
var exclusives = set("only solely exclusively")

// exclusiveOther reports a sentence that restricts the predicate ("only",
// "solely") to an object with the head of a question's complement phrase
// but another modifier in place of the question's: "only requires
// first-order gradients" excludes second-order ones. A modifier merely
// left out ("only uses word embeddings" for "pretrained word embeddings")
// excludes nothing.
func (sc *scope) exclusiveOther(phrases [][]string) bool {
	excl := -1
	for i, t := range sc.toks {
		if exclusives[t] {
			excl = i
			break
		}
	}
	if excl < 0 {
		return false
	}
	for _, ph := range phrases {
		if len(ph) < 2 {
			continue
		}
		head := ph[len(ph)-1]
		for _, o := range sc.occurrences(head) {
			if o.i <= excl || sc.clauseStart(o.i) > excl {
				continue // the head is not what "only" restricts
			}
			// The modifiers before the head in the sentence.
			var mods []string
			for j := o.i - 1; j > excl && len(mods) < 3 && !isFunc(sc.toks[j]) && sc.toks[j] != ","; j-- {
				mods = append(mods, sc.toks[j])
			}
			other, missing := false, false
			for _, m := range mods {
				in := false
				for _, w := range ph[:len(ph)-1] {
					ok, _ := holdsToken(m, w)
					in = in || ok
				}
				other = other || !in && !verbs[inflectionless(m)]
			}
			for _, w := range ph[:len(ph)-1] {
				held := false
				for _, m := range mods {
					ok, _ := holdsToken(m, w)
					held = held || ok
				}
				missing = missing || !held
			}
			if other && missing {
				return true
			}
		}
	}
	return false
}

// otherVerbBetween reports a verb between token i and the privative cue
// covering it that is not a light verb of use: "without using X" says X
// is not used, "without losing X" says nothing of the kind.
func otherVerbBetween(sc *scope, i int) bool {
	for _, id := range sc.cov[i] {
		if !sc.privCue[id] {
			continue
		}
		for j := sc.pos[id] + 1; j < i; j++ {
			w := sc.toks[j]
			if (strings.HasSuffix(w, "ing") && len(w) > 4 || verbs[w] && !dets[sc.at(j-1)]) && !lightUseVerbs[inflectionless(strings.TrimSuffix(w, "ing"))] && !lightUseVerbs[strings.TrimSuffix(w, "ing")+"e"] {
				return true
			}
		}
		return false
	}
	return false
}

// subjectContrasted reports a question word the sentence holds only inside
// privative phrases: "Unlike LSTMs, our model uses attention" says nothing
// of whether LSTMs do.
func subjectContrasted(sc *scope, subject []string) bool {
	for _, w := range subject {
		occ := sc.occurrences(w)
		if len(occ) == 0 {
			continue
		}
		inside := true
		for _, o := range occ {
			inside = inside && sc.priv[o.i]
		}
		if inside {
			return true
		}
	}
	return false
}

// citeRE matches a citation marker.
var citeRE = regexp.MustCompile(`\bBIBREF\d|\bet al\b|\(\s*[A-Z][A-Za-z-]+[^()]{0,60}\b(19|20)\d\d[a-z]?\s*\)|\[\d+(\s*[,–-]\s*\d+)*\]`)

// firstPersonRE matches the authors speaking of their own work.
var firstPersonRE = regexp.MustCompile(`(?i)\b(we|our|us|this (paper|work|study))\b`)

// citedSubject reports a sentence whose predicate follows a citation with
// no first person before it: the predicate is said of the cited work, not of
// the paper's own ("X BIBREF13 only extracts ...").
func citedSubject(sentence string, p askedPredicate) bool {
	if len(p.words) == 0 {
		return false
	}
	loc := citeRE.FindStringIndex(sentence)
	if loc == nil {
		return false
	}
	// The first word holding the predicate after the citation.
	rest := sentence[loc[1]:]
	for _, t := range strings.FieldsFunc(sentence[:loc[0]], func(r rune) bool { return !unicode.IsLetter(r) }) {
		if ok, _ := holdsToken(strings.ToLower(t), p.words[0]); ok {
			return false // said before the citation
		}
	}
	words := strings.FieldsFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) })
	for i, t := range words {
		if ok, _ := holdsToken(strings.ToLower(t), p.words[0]); ok {
			// "We present evidence that ELMo BIBREF0 learns ...": the
			// authors' own claim about the cited work.
			return !firstPersonRE.MatchString(sentence[:loc[0]] + " " + strings.Join(words[:i], " "))
		}
	}
	return false
}

// objectHeld reports whether a sentence holds every content word the
// question says after its predicate (its object and complement, modifiers
// included): "Does Adam need second-order gradients?" is not answered yes
// by "Adam only requires first-order gradients", which holds the verb and
// the object's head but says it of another object. Only a yes needs it: a
// no may negate the predicate in other words ("does not work without clean
// labels" for "work with noisy labels?").
func objectHeld(sentence string, object []string) bool { return holdsAll(sentence, object) }

// coordinators join a clause to the one before a comma: ", and VERB
// ...", ", but ...".
var coordinators = set("and or but yet while whereas")

// coordinated is the span of tokens of the coordinated clause holding i:
// from the last comma followed by a coordinator before i to the next one
// after it.
func (sc *scope) coordinated(i int) (from, to int) {
	cut := func(j int) bool { return sc.toks[j] == "," && coordinators[sc.at(j+1)] }
	from, to = 0, len(sc.toks)
	for j := i - 1; j >= 0; j-- {
		if cut(j) {
			from = j + 1
			break
		}
	}
	for j := i + 1; j < len(sc.toks); j++ {
		if cut(j) {
			to = j
			break
		}
	}
	return from, to
}

// objectWithPredicate reports whether the question's object is held in
// the coordinated clause of one of the predicate's occurrences (every
// occurrence of the predicate word or its family; when it is held only
// through WordNet, objectHeld stands alone).
func (sc *scope) objectWithPredicate(p askedPredicate, object []string) bool {
	if len(object) == 0 || len(p.words) == 0 {
		return true
	}
	occ := sc.occurrences(p.words[0])
	if len(occ) == 0 {
		return true
	}
	for _, o := range occ {
		from, to := sc.coordinated(o.i)
		// Participles joined by a conjunction are verb phrases of their
		// own: "trained on English data and tested on German" does not
		// say the model was tested on English.
		for j := from; j+1 < to; j++ {
			if (sc.toks[j] == "and" || sc.toks[j] == "but" || sc.toks[j] == "or") && isParticiple(sc.toks[j+1]) && isParticiple(sc.toks[o.i]) {
				if j < o.i {
					from = j + 1
				} else if j > o.i {
					to = j
					break
				}
			}
		}
		if holdsAll(strings.Join(sc.toks[from:to], " "), object) {
			return true
		}
	}
	return false
}

// subjectBeforePredicate reports whether a word of the question's subject
// that the sentence holds is held before the end of the coordinated clause
// of one of the predicate's occurrences (see objectWithPredicate for the
// occurrences): a subject said only after it is another clause's.
func (sc *scope) subjectBeforePredicate(p askedPredicate, subject []string) bool {
	if len(p.words) == 0 {
		return true
	}
	all := strings.Join(sc.toks, " ")
	var held []string
	for _, w := range subject {
		if holdsAll(all, []string{w}) {
			held = append(held, w)
		}
	}
	occ := sc.occurrences(p.words[0])
	if len(held) == 0 || len(occ) == 0 {
		return true
	}
	for _, o := range occ {
		_, to := sc.coordinated(o.i)
		before := strings.Join(sc.toks[:to], " ")
		for _, w := range held {
			if holdsAll(before, []string{w}) {
				return true
			}
		}
	}
	return false
}

// withoutTitle drops from the question's object and its phrases the words
// of a paper's title ("" drops nothing) that the question does not write
// as names: a name ("Typed Racket") must be said by the sentence itself.
func withoutTitle(object []string, phrases [][]string, title string, names map[string]bool) ([]string, [][]string) {
	if title == "" {
		return object, phrases
	}
	in := map[string]bool{}
	for _, t := range embedding.Tokenize(title) {
		in[root(t.Word)] = true
	}
	drop := func(ws []string) []string {
		var out []string
		for _, w := range ws {
			if !in[root(w)] || names[w] {
				out = append(out, w)
			}
		}
		return out
	}
	var ph [][]string
	for _, p := range phrases {
		if q := drop(p); len(q) > 0 {
			ph = append(ph, q)
		}
	}
	return drop(object), ph
}

// hedgedBefore reports a hedge (hedges) that reaches the predicate: one
// before the first comma (or clause coordinated, see coordinated) after
// its last occurrence. A hedge set off after it says nothing of it
// ("There is no generally recognized formal definition for outlier, but
// roughly it means values that would commonly occur"; "does not improve
// performance, suggesting that ..."); one in a subordinate clause that
// runs on still counts ("the model is trained to predict whether ...").
// With no occurrence of the predicate's own words (a WordNet synonym, a
// comparison's direction), any hedge counts.
func (sc *scope) hedgedBefore(p askedPredicate) bool {
	var occ []occurrence
	for _, w := range append(append([]string{}, p.words...), p.anyOf...) {
		occ = append(occ, sc.occurrences(w)...)
	}
	if len(occ) == 0 {
		return true
	}
	last := 0
	for _, o := range occ {
		last = max(last, o.i)
	}
	_, end := sc.coordinated(last)
	for j := last + 1; j < end; j++ {
		// "there is no clear consensus about whether X might be Y": an
		// open question after the predicate, the object of a preposition,
		// is what the claim is about; it does not hedge the claim ("is
		// trained to predict whether X" still asks, not claims).
		if sc.toks[j] == "," || sc.toks[j] == "whether" && preps[sc.toks[j-1]] {
			end = j
			break
		}
	}
	return p.hedged(norm(reportedRE.ReplaceAllString(strings.Join(sc.toks[:end], " "), " ")))
}

// possibility reports a question that asks whether something can be
// ("Can the attraction be interpreted as ...?"): a sentence that says it
// may be ("This force may be interpreted as ...") answers it, as a hedged
// question is answered by a hedged sentence.
func possibility(q string) bool { return hasAny(q, []string{" can ", " could "}) }

// nonModalHedges are the hedges other than the modals of possibility
// ("may", "might", "could"): a supposition, an open question or an
// unknown leaves even a question of possibility open.
var nonModalHedges = func() []string {
	var out []string
	for _, h := range hedges {
		if h != " may " && h != " might " && h != " could " {
			out = append(out, h)
		}
	}
	return out
}()

// questionSubject returns the content words of a yes/no question's
// subject, the words naming its paper aside (nil when no predicate can be
// read).
func questionSubject(question string) []string {
	qtext := judgedText(question)
	p, ok := predicateOf(qtext)
	if !ok {
		return nil
	}
	subject, _ := subjectStems(question, p)
	return withoutRefWords(qtext, subject)
}

// subjectHeld reports a sentence that holds the whole subject of the
// question, with at least one word that is not question scaffolding: a
// sentence about cited work ("The original BERT implementation (Devlin et
// al., 2019) uses ...") speaks of what the question asks about ("Does the
// original BERT implementation use ...?") and may decide it.
func subjectHeld(sentence string, subject []string) bool {
	specific := false
	for _, w := range subject {
		for _, st := range embedding.ContentStems(w) {
			specific = specific || !query.IsScaffold(st)
		}
	}
	return specific && holdsAll(sentence, subject)
}

// subjectMentioned reports a sentence that holds a word of the question's
// subject that is not question scaffolding ("RoBERTa" of "Is RoBERTa
// trained with ...?"); true when the subject has no such word.
func subjectMentioned(sentence string, subject []string) bool {
	specific := false
	for _, w := range subject {
		scaffold := true
		for _, st := range embedding.ContentStems(w) {
			scaffold = scaffold && query.IsScaffold(st)
		}
		if scaffold {
			continue
		}
		specific = true
		if holdsAll(sentence, []string{w}) {
			return true
		}
	}
	return !specific
}

// holdsAll reports whether a sentence holds every one of words (see
// holds), an abbreviation holding the words it stands for.
func holdsAll(sentence string, want []string) bool {
	if len(want) == 0 {
		return true
	}
	words, roots := map[string]bool{}, map[string]bool{}
	for _, t := range embedding.Tokenize(sentence) {
		words[t.Word] = true
		roots[root(t.Word)] = true
	}
	// A hyphenated word holds its closed form ("page-table" holds
	// "pagetable"; the reverse is holds' own).
	for j := range joinedHyphenated(sentence) {
		words[j] = true
		roots[root(j)] = true
	}
	// An abbreviation holds the words it stands for: "PR" holds
	// "precision-recall", "NSP" holds "next sentence prediction".
	var parts []string
	var of []int
	for i, w := range want {
		for _, t := range embedding.Tokenize(w) {
			parts, of = append(parts, t.Word), append(of, i)
		}
	}
	abbreviated := make([]bool, len(want))
	for i := range parts {
		initials := ""
		for j := i; j < len(parts) && j-i < 6; j++ {
			initials += string([]rune(parts[j])[:1])
			if j > i && words[initials] {
				for k := i; k <= j; k++ {
					abbreviated[of[k]] = true
				}
			}
		}
	}
	for i, w := range want {
		if !abbreviated[i] && !holds(words, roots, w) {
			return false
		}
	}
	return true
}

// withoutRefWords drops from words those naming the question's paper
// ("... according to Pennington et al.?") and the lead-in "according":
// they say which paper, not what is asked of it.
func withoutRefWords(question string, words []string) []string {
	refs := query.RefWords(question)
	skip := map[string]bool{root("according"): true}
	for w := range refs {
		for _, part := range embedding.Tokenize(strings.ToLower(w)) {
			skip[root(part.Word)] = true
		}
	}
	var out []string
	for _, w := range words {
		keep := false
		for _, part := range embedding.Tokenize(w) {
			keep = keep || !skip[root(part.Word)]
		}
		if keep {
			out = append(out, w)
		}
	}
	return out
}

// phrasesTogether reports whether the sentence holds each of the
// question's complement noun phrases of two or more words in one place:
// all its words within a span of twice its length, no clause break
// between ("Brazilian mathematicians" is not held by "French
// mathematicians in honor of the Brazilian computer scientist"). A phrase
// some word of which the sentence holds only otherwise (an abbreviation)
// is not checked.
func (sc *scope) phrasesTogether(phrases [][]string) bool {
	for _, ph := range phrases {
		if len(ph) < 2 {
			continue
		}
		pos := make([][]int, len(ph))
		missing := false
		for k, w := range ph {
			for i, tok := range sc.toks {
				if ok, _ := holdsToken(tok, w); ok {
					pos[k] = append(pos[k], i)
				}
			}
			missing = missing || len(pos[k]) == 0
		}
		if missing {
			continue
		}
		span := 2 * len(ph)
		found := false
		for _, from := range pos[0] {
			lo := max(from-span, 0)
			for start := lo; start <= from && !found; start++ {
				end := start + span
				all := true
				for k := range ph {
					in := false
					for _, i := range pos[k] {
						in = in || i >= start && i <= end
					}
					all = all && in
				}
				if all && !sc.breakBetween(start, end, pos) {
					found = true
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// breakBetween reports a comma between the first and last phrase word
// found in [start, end].
func (sc *scope) breakBetween(start, end int, pos [][]int) bool {
	first, last := end, start
	for _, ps := range pos {
		for _, i := range ps {
			if i >= start && i <= end {
				first, last = min(first, i), max(last, i)
			}
		}
	}
	for i := first; i < last; i++ {
		if sc.toks[i] == "," {
			return true
		}
	}
	return false
}

// abbreviated locates the words of a question phrase that the sentence
// says by their initials ("NSP" for "next sentence prediction"): for each
// word, the tokens of its abbreviation (none: not abbreviated).
func (sc *scope) abbreviated(ph []string) [][]occurrence {
	out := make([][]occurrence, len(ph))
	for i := range ph {
		initials := ""
		for j := i; j < len(ph) && j-i < 6; j++ {
			initials += string([]rune(ph[j])[:1])
			if j == i {
				continue
			}
			for t, tok := range sc.toks {
				if tok == initials {
					for k := i; k <= j; k++ {
						out[k] = append(out[k], occurrence{i: t})
					}
				}
			}
		}
	}
	return out
}

// reversedOrder reports a question that places its predicate before (or
// after) something and a sentence (both normalised, see norm) that says
// only the other order.
func reversedOrder(q, s string) bool {
	for _, p := range [2][2]string{{" before ", " after "}, {" after ", " before "}} {
		if strings.Contains(q, p[0]) && !strings.Contains(q, p[1]) && strings.Contains(s, p[1]) && !strings.Contains(s, p[0]) {
			return true
		}
	}
	return false
}

// numbersOf returns the numbers among toks (polarityTokens): tokens of
// digits, with a decimal point or comma at most ("90", "1.5").
func numbersOf(toks []string) []string {
	var out []string
	for _, t := range toks {
		if t != "" && strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' }) < 0 && unicode.IsDigit(rune(t[0])) {
			out = append(out, t)
		}
	}
	return out
}

// numbersHeld reports whether every number of nums is a token of toks.
func numbersHeld(nums, toks []string) bool {
	for _, n := range nums {
		found := false
		for _, t := range toks {
			found = found || t == n
		}
		if !found {
			return false
		}
	}
	return true
}
