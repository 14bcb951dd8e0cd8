package answer

import (
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/retrieve"
)

// The predicate of a yes/no question.
//
// A sentence that holds most of a yes/no question's words may still not
// answer it: "Do any of their reviews contain translations for both Catalan
// and Basque?" is not answered yes by "The final Catalan corpus contains 567
// annotated reviews and the final Basque corpus 343", nor "Does Autoformer
// use series decomposition only as a pre-processing step?" by "Autoformer
// harnesses the decomposition as an inner block". The word overlap lies in
// the question's subject; what the question asks - its predicate - is not
// said. So a deciding sentence must also hold the predicate.
//
// The predicate is read off the question's syntax, without a tagger, from
// closed word classes, word shapes and a list of common verbs:
//
//   - "Do/Does/Did/Can/Could/Must/... SUBJECT VERB ..." asks about the
//     first base-form verb after the subject: "Does the 1.5B parameter
//     language model fully FIT WebText?", "Did the LSTM hate speech model
//     PERFORM better ...?". Several candidates (noun-verb words such as
//     "model" or "hate") are told apart by what stands around them: after an
//     adverb ("also optimize"), or before an article, a pronoun, a name, a
//     number, a comparative or the end of the question, a word is the verb;
//     among equals the last wins, since a subject's nouns come first.
//   - "Is/Are/Was/Were SUBJECT ADJ/PARTICIPLE/COMPARATIVE ..." asks about
//     the first adjective, participle or comparative after the subject
//     ("Is the standard Transformer model computationally UNIVERSAL?",
//     "Are their formal queries TREE-STRUCTURED?"); a participle before a
//     prepositional phrase that a later participle follows belongs to the
//     subject ("mutants produced by a tool GUARANTEED to compile").
//   - "Has/Had SUBJECT PARTICIPLE ..." asks about the participle.
//   - "Is there X ...?" asks whether X exists: any content word of X.
//   - A reporting verb followed by "that" ("Do they find that nonconvex
//     costs CAUSE lumpy investment?", "... show that deciding it is
//     NP-HARD?") asks about the predicate of its clause: papers report with
//     many verbs (find, show, conclude, demonstrate), the claim is the
//     clause. So does a judging verb's adjective ("consider X USABLE") and
//     a catenative verb's infinitive ("try to USE").
//   - A light verb ("contain", "use", "include", "provide") says little by
//     itself: the first content word of its object must be held too; an
//     empty one ("have", "do", "get") says nothing: only that word counts
//     ("Does each image have one CAPTION?", "done MANUALLY").
//
// A sentence holds a predicate word when one of its words has the same stem,
// the same root once a derivational ending is cut ("usable" - "used"), or
// the stem behind a negating or degree prefix ("fit" - "underfits"). A
// comparison ("perform better than", "more effective", "as closely tied
// as") is also held by a sentence that states a comparison's direction
// ("outperforms", "inferior", "worse"): that is what the question asks.
// When no predicate can be read (an unusual question form), the check is
// not made.

// askedPredicate is what a deciding sentence must hold: every word of
// words, or any one of anyOf (existential questions). compare marks a
// comparison.
type askedPredicate struct {
	words   []string
	anyOf   []string
	compare bool
	// abstain marks a question whose predicate cannot be told apart from
	// a clause in its subject: no sentence decides it.
	abstain bool
	// head is the last word of a light or empty verb's object noun phrase
	// when it differs from the first ("use pretrained word EMBEDDINGS"):
	// a deciding sentence must hold it too (see polarity.go).
	head string
	// quantity marks a comparison that counts the object ("predict more
	// than one relation"): the sentence must say the verb; a direction
	// ("improvement") does not stand for it.
	quantity bool
	// wordnet is the WordNet key (wordnetKey) whose synonyms and antonyms
	// hold the verb or adjective; "" when none may (synonyms.go).
	wordnet string
	// attitude marks a question that asks what its subject holds to be
	// so ("Does the paper consider X adequate?", "Do they believe that
	// ..."): the authors' "we believe" states that stance, it does not
	// hedge it (see hedged).
	attitude bool
	// passiveLight marks a passive light verb ("Is greedy decoding
	// used to ...?"): its object is the question's subject, which a
	// deciding sentence must name (subjectMentioned), as it must hold an
	// active light verb's object.
	passiveLight bool
	// nominal marks a noun phrase predicate with modifiers ("a robust
	// statistic"): its last word, the head noun, classifies the subject;
	// a sentence that says the modifiers of the subject after a form of
	// "be" ("the median is highly robust") holds it (see polarity.go).
	nominal bool
}

// attitudeVerbs are the reporting verbs of a stance rather than a finding.
var attitudeVerbs = set("believe think")

// hedged reports a hedge in the normalised text s; for a question about
// the subject's stance (attitude) "we believe" answers rather than hedges.
func (p askedPredicate) hedged(s string) bool {
	if p.attitude {
		s = strings.ReplaceAll(s, " we believe ", " ")
	}
	return hasAny(s, hedges)
}

// qtok is one word of a question with its original case.
type qtok struct {
	w, orig string
	comma   bool // a comma follows
}

// A quoted span (a title, quotedRE) and a parenthetical ("Khan and Thomas
// (2008)", parenRE) are not part of the question's clause.

func questionTokens(q string) []qtok {
	q = quotedRE.ReplaceAllString(q, " Title ")
	q = parenRE.ReplaceAllString(q, " ")
	var out []qtok
	for _, f := range strings.Fields(q) {
		comma := strings.HasSuffix(strings.TrimRight(f, `"'”’)`), ",")
		t := strings.TrimFunc(f, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		})
		if t == "" {
			if comma && len(out) > 0 {
				out[len(out)-1].comma = true
			}
			continue
		}
		out = append(out, qtok{w: strings.ToLower(t), orig: t, comma: comma})
	}
	return out
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

var (
	auxDo    = set("do does did")
	auxModal = set("can could must should will would may might shall")
	auxBe    = set("is are was were")
	auxHave  = set("has have had")
	dets     = set("the a an any all each every some no their its his her our your my both either neither such another other many much several few most one two three four five this these those")
	pronouns = set("they we it he she you i")
	demons   = set("this that these those")
	preps    = set("of in on at for with from by to into onto over under between among across through without within about against after before during via than as per like upon toward towards beyond behind around")
	conjs    = set("and or but nor whether if when while where because since although though that which who whom whose what how why so than")
	// advs are adverbs that stand before a verb or adjective; words in -ly
	// count too (lyNot lists the -ly words that are not adverbs).
	advs = set("also still already actually even ever always often only just really indeed necessarily generally usually typically further again not never yet too very then jointly well")
	// focus adverbs stand before noun phrases too ("only data from
	// Twitter"): they do not announce a verb.
	focus = set("only even just")
	// subordinators open an adverbial clause after the main predicate
	// ("... cause lumpy investment when plants face shocks").
	subords = set("when while if because although though whereas unless since where after before once")
	lyNot   = set("apply reply supply rely imply multiply comply family assembly anomaly italy july poly monopoly fly ally early")
	comps   = set("more less fewer better worse higher lower larger smaller bigger faster slower greater weaker stronger longer shorter easier harder cheaper simpler deeper wider closer earlier later richer broader lighter heavier newer older superior inferior")
	irregs  = set("done made given taken seen known shown found built written held told brought thought chosen drawn grown led left lost kept put set read spent won understood begun broken driven proven spoken hidden born paid sent taught meant felt got gotten run")
	// lightVerbs say little by themselves: the object carries the claim
	// too. emptyVerbs say nothing: only the object counts ("Does each image
	// have one caption?" - "each image comes with one caption").
	lightVerbs = set("make made take taken give given contain include involve comprise provide use used")
	emptyVerbs = set("have has had do does did done get got")
	// judging verbs take the claim as an adjective after their object
	// ("Do they consider 40ng of input DNA usable?").
	judging = set("consider deem judge regard find")
	// resultative verbs take the claim as the adjective or comparison
	// after their object ("Does X make training more stable?").
	resultative = set("make render")
	// catenative verbs take the asked verb as an infinitive.
	catenative = set("try attempt aim seek want manage plan tend intend")
	// necessity participles make a modal of "be X to": "are required to
	// share" asks about sharing.
	necessity = set("required needed obliged forced")
	// ability adjectives make a modal of "be X to" as "can" and "cannot"
	// are: "Is X unable to learn from Y?" asks about learning, negated
	// ("unable" is a clause negator, see polarity.go), and is answered
	// by "X does not learn from Y" as "Can X learn ...?" would be.
	ability = set("able unable")
	// reporting verbs take the claim as a that-clause.
	reporting = set("show find demonstrate prove claim conclude report argue confirm observe state establish reveal indicate suggest say believe think know note")
)

// verbs are common base-form verbs of research writing; a question's main
// verb is usually one of them (noun-verb words such as "model" or "test"
// are told apart by position, see askedPredicate).
var verbs = set(`accept account achieve acquire adapt add address adjust affect agree aim allow alter analyse analyze answer appear apply approximate argue arise assess assign assume attain attempt avoid balance beat become begin behave benefit block boost break bring build calculate capture carry cause change check choose claim classify collect combine come compare compensate compete complete comprise compute conclude confirm conflict confuse consider consist constrain construct contain contribute control converge convert correct correlate correspond cost cover create cross cut deal decide decline decrease define degrade deliver demonstrate depend derive describe design detect determine develop differ discover discuss distinguish do dominate drive drop earn eliminate employ enable encode encourage enhance ensure estimate evaluate exceed exhibit exist expand expect explain exploit explore express extend extract face fail fall favor favour fill filter find fit fix focus follow forget form gain generalize generalise generate get give go grow guarantee handle happen harm have help hold hurt identify ignore implement improve include incorporate increase indicate induce infer influence inform integrate interact introduce involve keep know label lack lead learn leave lend limit link lose lower maintain make manage match matter measure meet merge miss mitigate model modify move need observe obtain occur offer operate optimize optimise outperform overcome overfit overturn pass perform persist place play plan post precede predict prefer prepare present preserve prevent produce prove provide publish qualify raise rank reach read recognize recover reduce reflect refute reject relate release rely remain remove repeat replace replicate report represent reproduce require resemble resolve respond restrict result retain return reveal reverse run satisfy save scale score see seek select separate serve share show shrink simulate slow solve speed split start stay stop store strengthen struggle succeed suffer suggest support surpass survive take target teach tell tend test train transfer translate treat trigger try tune turn underperform understand undergo update use utilize validate vary verify violate want weaken win work worsen yield`)

func isAdverb(w string) bool {
	return advs[w] || strings.HasSuffix(w, "ly") && len(w) > 4 && !lyNot[w]
}

// quantity reports a comparative at k that counts the object ("predict
// more than one relation", "fewer than 10 steps"): a number follows its
// "than".
func quantity(rest []qtok, k int) bool {
	if k+2 >= len(rest) || rest[k+1].w != "than" {
		return false
	}
	n := rest[k+2].w
	return n == "one" || numberWords[n] || n != "" && unicode.IsDigit([]rune(n)[0])
}

func isComparative(w, next string) bool {
	return comps[w] || next == "than" && w != "rather" && (strings.HasSuffix(w, "er") || strings.HasSuffix(w, "ier"))
}

func isParticiple(w string) bool {
	if i := strings.LastIndexByte(w, '-'); i >= 0 {
		w = w[i+1:]
	}
	return irregs[w] || strings.HasSuffix(w, "ed") && len(w) > 3 && !verbs[w]
}

// isAdjective guesses an adjective from its ending.
func isAdjective(w string) bool {
	if isParticiple(w) {
		return true
	}
	for _, s := range []string{"al", "ous", "ive", "able", "ible", "ic", "ful", "less", "ant", "ary", "ory", "ile", "ish", "ular"} {
		if strings.HasSuffix(w, s) && len(w) >= len(s)+2 {
			return true
		}
	}
	return strings.HasSuffix(w, "ent") && !strings.HasSuffix(w, "ment") && len(w) > 5
}

// isName reports a word that names something rather than predicates:
// capitalised, with a digit, or possessive.
func isName(t qtok) bool {
	r := []rune(t.orig)
	return unicode.IsUpper(r[0]) || strings.ContainsAny(t.w, "0123456789'’")
}

func isFunc(w string) bool { return dets[w] || preps[w] || conjs[w] || pronouns[w] }

// baseForm reports a word that can be a verb's base form (the form after
// "does" or "can"): not a plural, participle, gerund or adverb.
func baseForm(w string) bool {
	if verbs[w] {
		return true
	}
	if isAdverb(w) || isParticiple(w) || strings.HasSuffix(w, "ing") {
		return false
	}
	return !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us")
}

// predicateOf reads the predicate of a yes/no question; ok is false when
// the question has no auxiliary opening its clause.
func predicateOf(question string) (p askedPredicate, ok bool) {
	toks := questionTokens(question)
	if len(toks) > 4 && auxBe[toks[0].w] && toks[1].w == "it" {
		// "Is it true that X does not ...?" asks about the clause.
		j := 2
		if toks[j].w == "the" {
			j++
		}
		if truthWords[toks[j].w] && toks[j+1].w == "that" && j+2 < len(toks) {
			return thatClause(toks[j+2:])
		}
	}
	for i, t := range toks {
		if (i == 0 || toks[i-1].comma) && (auxDo[t.w] || auxModal[t.w] || auxBe[t.w] || auxHave[t.w]) {
			return clausePredicate(t.w, toks[i+1:])
		}
	}
	return p, false
}

// clausePredicate reads the predicate of the clause rest that follows the
// auxiliary aux.
func clausePredicate(aux string, rest []qtok) (askedPredicate, bool) {
	var p askedPredicate
	if len(rest) == 0 {
		return p, false
	}
	if auxBe[aux] && rest[0].w == "there" {
		// "Is there an agreed formal convention for ...?": any content word
		// of the noun phrase.
		for _, t := range rest[1:] {
			if preps[t.w] || conjs[t.w] {
				break
			}
			if !isFunc(t.w) {
				p.anyOf = append(p.anyOf, t.w)
			}
		}
		return p, len(p.anyOf) > 0
	}
	// The subject's first word: articles, quantifiers ("any of the") and
	// adverbs do not count; a demonstrative before a non-noun is the
	// subject itself ("Is this more effective ...?").
	h := 0
	for h < len(rest) {
		w, next := rest[h].w, ""
		if h+1 < len(rest) {
			next = rest[h+1].w
		}
		if demons[w] && (next == "" || isFunc(next) || isAdverb(next) || isComparative(next, "")) {
			break
		}
		if !dets[w] && !preps[w] && (!isAdverb(w) || isName(rest[h])) {
			// A capitalised word in -ly is a name ("Is HitAnomaly
			// appropriate ...?"), not an adverb.
			break
		}
		h++
	}
	if h >= len(rest) {
		return p, false
	}
	start := h + 1
	pronoun := pronouns[rest[h].w] || demons[rest[h].w]
	if auxBe[aux] || auxHave[aux] {
		if e, ok := subjectClauseEnd(rest, start); ok {
			// "Is the proof that X is transcendental well known?": the
			// clause in the subject has a predicate of its own; the
			// question's comes after it. None there: the question cannot
			// be read, and a verdict is not risked.
			if p, ok := bePredicate(rest, e+1, auxHave[aux], false); ok {
				return p, true
			}
			return askedPredicate{abstain: true}, true
		}
		return bePredicate(rest, start, auxHave[aux], false)
	}
	if auxModal[aux] {
		// "Can X be universal?", "Can X be interpreted as Y?": a modal's
		// "be" after the subject asks what "Is X ...?" asks.
		for k := start; k < len(rest) && !subords[rest[k].w] && !rest[k-1].comma; k++ {
			if rest[k].w == "be" && rest[k-1].w != "to" {
				return bePredicate(rest, k+1, false, false)
			}
		}
	}
	if pronoun {
		// "Do they experiment with ...?": the word after the pronoun is
		// the verb, known or not.
		for k := start; k < len(rest); k++ {
			if !isAdverb(rest[k].w) {
				if isFunc(rest[k].w) || isName(rest[k]) {
					break
				}
				return finishVerb(rest, k)
			}
		}
	}
	return verbPredicate(rest, start, true)
}

// bePredicate reads the adjective, participle or comparative after the
// subject of "Is X ...?" (participles only for "Has X ...?"). With
// immediate (the clause after "show that X is"), the first content word
// is the predicate.
func bePredicate(rest []qtok, start int, participleOnly, immediate bool) (askedPredicate, bool) {
	var p askedPredicate
	afterAdv := immediate
	for k := start; k < len(rest); k++ {
		w, next, prev := rest[k].w, "", rest[k-1].w
		if k+1 < len(rest) {
			next = rest[k+1].w
		}
		switch {
		case isAdverb(w):
			afterAdv = true
			continue
		case w == "as" && !participleOnly:
			// "as closely tied to X as Y": a comparison of equality.
			p.compare = true
			afterAdv = true
			continue
		case isComparative(w, next) && !participleOnly:
			p.compare = true
			if (w == "more" || w == "less") && next != "" && !isFunc(next) {
				w = next
				k++
			}
			return p.with(rest, k, w), true
		case afterAdv && !isFunc(w):
			// after "already", "computationally": the predicate itself.
			return p.with(rest, k, w), true
		case subords[w] || rest[k-1].comma:
			return p, false
		case isFunc(w) || isName(rest[k]) || dets[prev]:
			continue
		case (necessity[w] || ability[w]) && infinitive(rest, k+1) && !participleOnly:
			// "Are X required to share Y?": a participle of necessity
			// before an infinitive is a modal, as "have to" is; the
			// verb after it is the predicate.
			return finishVerb(rest, k+2)
		case isParticiple(w):
			// A participle before a prepositional phrase may belong to
			// the subject ("the filtering based on fluency ... done
			// automatically?", "mutants produced by a tool guaranteed to
			// compile?"): a later participle is then the predicate.
			if preps[next] && !infinitive(rest, k+1) {
				for j := k + 2; j < len(rest) && !subords[rest[j].w]; j++ {
					if isParticiple(rest[j].w) && !dets[rest[j-1].w] && !preps[rest[j-1].w] && !isName(rest[j]) {
						if necessity[rest[j].w] && infinitive(rest, j+1) && !participleOnly {
							return finishVerb(rest, j+2)
						}
						return p.passive(rest, j, rest[j].w, participleOnly), true
					}
				}
			}
			return p.passive(rest, k, w, participleOnly), true
		case !participleOnly && isAdjective(w) && (next == "" || isFunc(next) || rest[k].comma) && !indefiniteHead(rest, start, k):
			// An adjective before a noun modifies it ("Is the Twitter
			// political corpus balanced?", "Is the idea of an infinite
			// hypothetical population implicit in ...?"); before a
			// preposition, a conjunction or the end it is the predicate
			// ("Is the data specific to a domain?", "Is the tropical
			// semiring associative and distributive?").
			return p.with(rest, k, w), true
		}
	}
	if !participleOnly && !immediate {
		if p, ok := nominalPredicate(rest, start); ok {
			return p, true
		}
		return bareAdjective(rest, start)
	}
	return p, false
}

// indefiniteHead reports a word at k that heads a noun phrase an
// indefinite article opens after the subject ("Is the median a robust
// STATISTIC?": a noun in -ic, not the predicate adjective); the noun
// phrase is the predicate (nominalPredicate).
func indefiniteHead(rest []qtok, start, k int) bool {
	for j := k - 1; j >= start; j-- {
		w := rest[j].w
		if w == "a" || w == "an" {
			return j == 0 || !isFunc(rest[j-1].w)
		}
		if isFunc(w) || rest[j].comma {
			return false
		}
	}
	return false
}

// bareAdjective reads "Is X ADJ?" for an adjective whose form does not
// show it ("straightforward", "robust", "easy"): the first content word
// right after the subject's last noun that ends the clause or stands
// before a preposition ("Is the proof of the lemma straightforward to
// check?").
func bareAdjective(rest []qtok, start int) (askedPredicate, bool) {
	for k := max(start, 1); k < len(rest); k++ {
		w, prev, next := rest[k].w, rest[k-1], ""
		if k+1 < len(rest) {
			next = rest[k+1].w
		}
		if subords[w] || prev.comma || (w == "a" || w == "an" || w == "the") && !preps[prev.w] {
			// "Is this an English language corpus?" asks about a noun
			// phrase (nominalPredicate), not an adjective.
			break
		}
		if isFunc(w) || isName(rest[k]) || isAdverb(w) || isFunc(prev.w) || auxBe[prev.w] || sForm(w) {
			// An adjective takes no -s: "the specialist models in the
			// distillation paper slow to train?" asks about "slow".
			continue
		}
		if next == "" || preps[next] || subords[next] || rest[k].comma {
			return askedPredicate{}.with(rest, k, w), true
		}
	}
	return askedPredicate{}, false
}

// subjectClauseEnd finds a clause inside the subject of "Is X ...?" ("the
// claim that the heap is balanced", "the model which uses attention"): a
// complementizer or relative pronoun after a noun, followed by a finite
// verb of its own. It returns the index of that clause's own predicate
// word (its adjective or participle after "is", else its verb), after
// which the question's predicate stands.
func subjectClauseEnd(rest []qtok, start int) (int, bool) {
	for j := start; j+2 < len(rest); j++ {
		w := rest[j].w
		if subords[w] || rest[j-1].comma {
			return 0, false
		}
		noun := j >= 2 && dets[rest[j-2].w] // "the claim that": a noun, not a verb
		if w != "that" && w != "which" && w != "who" || isFunc(rest[j-1].w) || !noun && (reporting[rest[j-1].w] || judging[rest[j-1].w]) {
			continue
		}
		// "the claim that the heap is ...": the clause's subject comes
		// first; "participants who were not ...", "a model that is
		// ...": the relative pronoun is the subject, its verb follows.
		from := j + 2
		if w != "that" || auxBe[rest[j+1].w] || auxHave[rest[j+1].w] || auxDo[rest[j+1].w] || auxModal[rest[j+1].w] {
			from = j + 1
		}
		for v := from; v < len(rest); v++ {
			t := rest[v].w
			if subords[t] || rest[v-1].comma {
				return 0, false
			}
			switch {
			case auxBe[t] || auxHave[t]:
				p, ok := bePredicate(rest, v+1, auxHave[t], true)
				if !ok || len(p.words) == 0 {
					return 0, false
				}
				for e := v + 1; e < len(rest); e++ {
					if strings.Split(rest[e].w, "-")[0] == p.words[0] {
						return e, true
					}
				}
				return 0, false
			case auxDo[t] || auxModal[t]:
				continue
			case verbs[inflectionless(t)] && !dets[rest[v-1].w] && !preps[rest[v-1].w]:
				return v, true
			}
		}
		return 0, false
	}
	return 0, false
}

// nominalPredicate reads "Is X a/an/the Y?": the noun phrase after a
// determiner that follows the subject's last noun (not a preposition:
// "the activity of a neuron" is still the subject) - "Is the activity of
// a neuron an all-or-none process?" asks about "all-or-none process", its
// modifiers included ("a good model" is not held by "a bad model").
func nominalPredicate(rest []qtok, start int) (askedPredicate, bool) {
	var p askedPredicate
	for k := start; k+1 < len(rest); k++ {
		w, prev := rest[k].w, rest[k-1].w
		if subords[w] || rest[k-1].comma {
			break
		}
		if w != "a" && w != "an" && w != "the" || isFunc(prev) || isAdverb(prev) {
			continue
		}
		for j := k + 1; j < len(rest) && !preps[rest[j].w] && !conjs[rest[j].w] && !subords[rest[j].w]; j++ {
			if !isFunc(rest[j].w) && !isAdverb(rest[j].w) {
				p.words = append(p.words, strings.Split(rest[j].w, "-")...)
			}
			if rest[j].comma {
				break
			}
		}
		p.nominal = len(p.words) > 1
		return p, len(p.words) > 0
	}
	return p, false
}

// verbPredicate reads the verb after the subject of "Does X ...?"; base
// asks for a base form (after "does", "can"); otherwise (a that-clause) any
// form.
func verbPredicate(rest []qtok, start int, base bool) (askedPredicate, bool) {
	best, bestScore, unknown := -1, -1, -1
	relative := false
	for k := start; k < len(rest); k++ {
		t := rest[k]
		prev, next := rest[k-1].w, ""
		if k+1 < len(rest) {
			next = rest[k+1].w
		}
		if best >= 0 && (subords[t.w] || rest[k-1].comma) {
			break
		}
		if t.w == "that" || t.w == "which" || t.w == "who" {
			// A relative clause in the subject: its verb is not the
			// question's ("an algorithm that optimizes ... also optimize").
			relative = !reporting[prev]
			continue
		}
		if isFunc(t.w) || isName(t) || isAdverb(t.w) || prev == "to" {
			continue
		}
		if preps[prev] || dets[prev] || possessive(rest[k-1]) || possessedInPhrase(rest, k) ||
			isAdverb(prev) && k >= 2 && (preps[rest[k-2].w] || dets[rest[k-2].w]) {
			// After a preposition, a determiner or a possessive a
			// verb-shaped word is a noun: "at test time", "the test",
			// "the programmer's reach", "out of the programmer's direct
			// reach".
			continue
		}
		known := verbs[t.w] || !base && verbs[inflectionless(t.w)]
		if relative && (known || verbs[inflectionless(t.w)]) {
			relative = false
			continue
		}
		if base && !baseForm(t.w) {
			continue
		}
		preAdv := isAdverb(prev) && !focus[prev]
		if !known && !preAdv {
			// A verb the list lacks: a base form that takes a determined
			// object ("does an advertiser pay its own bid") - used only
			// when no known verb is found.
			// So does one before a preposition right after the subject's
			// noun, the first or a plural ("can messages flow from ...",
			// "can log entries flow from ..."; not "some large dataset
			// for").
			// So does one right after a name that ends a prepositional
			// phrase of the subject ("do papers surveyed in LongEval skip
			// human evaluation").
			if base && unknown < 0 && (dets[next] && next != "one" || pronouns[next] || preps[next] && (k == start || plural(prev)) ||
				next != "" && !isFunc(next) && k >= 2 && isName(rest[k-1]) && preps[rest[k-2].w] && !isName(rest[k])) {
				unknown = k
			}
			continue
		}
		score := 0
		switch {
		case preAdv:
			score = 3
		case dets[next] || pronouns[next] || isAdverb(next) || isComparative(next, "") ||
			k+1 < len(rest) && isName(rest[k+1]) || reporting[t.w] && next == "that":
			score = 2
		case next == "":
			score = 1
		}
		if score >= bestScore {
			best, bestScore = k, score
		}
	}
	if best < 0 {
		best = unknown
	}
	if best < 0 {
		return askedPredicate{}, false
	}
	return finishVerb(rest, best)
}

// sForm reports a word in -s that no adjective ends in (a plural noun or
// a verb's third person: "models"; not "various", "less", "gratis").
func sForm(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is")
}

// plural reports a word in a plural noun's form.
func plural(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !isFunc(w) && !verbs[inflectionless(w)]
}

// inflectionless cuts a verb's -s, -es, -ed or -d.
func inflectionless(w string) string {
	for _, e := range []string{"es", "ed", "s", "d"} {
		if b := strings.TrimSuffix(w, e); b != w && verbs[b] {
			return b
		}
	}
	return w
}

// thatClause reads the predicate of a that-clause c (the claim of "find
// that ..." or "Is it true that ...?"): its own auxiliary's, or its verb.
func thatClause(c []qtok) (askedPredicate, bool) {
	for j, t := range c {
		if j > 0 && auxHave[t.w] && j+2 < len(c) && c[j+1].w == "to" {
			// "X have to be kept", "X has to use Y": a modal of
			// necessity; the verb after it is the predicate.
			if c[j+2].w == "be" {
				return bePredicate(c, j+3, false, true)
			}
			return verbPredicate(c, j+2, true)
		}
		if j > 0 && (auxDo[t.w] || auxModal[t.w] || auxBe[t.w] || auxHave[t.w]) {
			if auxBe[t.w] || auxHave[t.w] {
				return bePredicate(c, j+1, auxHave[t.w], true)
			}
			return verbPredicate(c, j+1, true)
		}
	}
	return verbPredicate(c, 1, false)
}

// outdoing verbs state a comparison's direction by themselves.
var outdoing = set("beat outperform surpass exceed outdo")

// truthWords open "Is it true that ...?", "Is it the case that ...?".
var truthWords = set("true case correct right so")

// finishVerb makes the predicate of the verb rest[best]: the that-clause
// of a reporting verb, and whether it compares ("perform better than").
func finishVerb(rest []qtok, best int) (askedPredicate, bool) {
	w := rest[best].w
	if catenative[w] && best+2 < len(rest) && rest[best+1].w == "to" {
		// "Do they try to use ...?" asks about using.
		for k := best + 2; k < len(rest); k++ {
			if !isAdverb(rest[k].w) {
				return finishVerb(rest, k)
			}
		}
	}
	if reporting[w] && best+2 < len(rest) && rest[best+1].w == "that" {
		if p, ok := thatClause(rest[best+2:]); ok {
			p.attitude = p.attitude || attitudeVerbs[w]
			return p, true
		}
	}
	if judging[w] && best+2 < len(rest) {
		// "consider X an adequate foundation": an article after the
		// object opens the complement noun phrase, the claim, read as
		// "Is X an adequate foundation?" reads it.
		if p, ok := nominalPredicate(rest, best+2); ok {
			p.attitude = true
			return p, true
		}
	}
	if judging[w] || resultative[w] {
		// "consider X usable": the adjective after the object; "make X
		// more expensive": the comparison it results in.
		for k := best + 2; k < len(rest) && !subords[rest[k].w] && !rest[k-1].comma; k++ {
			if resultative[w] && isComparative(rest[k].w, "") && !dets[rest[k-1].w] && !preps[rest[k-1].w] {
				return bePredicate(rest, k, false, false)
			}
			if isAdjective(rest[k].w) && !dets[rest[k-1].w] && !preps[rest[k-1].w] && !isName(rest[k]) {
				return askedPredicate{attitude: judging[w]}.with(rest, k, rest[k].w), true
			}
		}
	}
	var p askedPredicate
	for k := best + 1; k <= best+2 && k < len(rest); k++ {
		if isComparative(rest[k].w, "") {
			p.compare = true // "perform better", "train faster"
		}
	}
	if outdoing[w] {
		// "Does X beat Y?" asks a comparison's direction, which
		// "X outperforms Y" or "X is inferior to Y" states.
		p.compare = true
	}
	return p.with(rest, best, w), true
}

// passive adds the participle w at rest[k] after "is/was SUBJECT": a light
// verb there is passive ("Is the same temperature used when training?"),
// its object is the subject, already said; what follows is no object the
// sentence must hold. After "has" (perfect) the participle is active.
func (p askedPredicate) passive(rest []qtok, k int, w string, perfect bool) askedPredicate {
	if perfect || !lightVerbs[w] {
		return p.with(rest, k, w)
	}
	p.words = append(p.words, w)
	p.passiveLight = true
	return p
}

// with adds the predicate word w at rest[k] (a hyphenated word: each part)
// and, for a light verb, the first content word of its object.
func (p askedPredicate) with(rest []qtok, k int, w string) askedPredicate {
	for j := k + 1; j < len(rest); j++ {
		// A comparison anywhere after the predicate: "fluent in language
		// generation as well as monolingual models", "better ... than".
		if rest[j].w == "than" && rest[j-1].w != "rather" || rest[j].w == "as" && j+1 < len(rest) && (rest[j+1].w == "well" || isAdverb(rest[j+1].w) || isAdjective(rest[j+1].w)) {
			p.compare = true
		}
		if rest[j].w == "than" && quantity(rest, j-1) {
			p.quantity = true
		}
	}
	if !lightVerbs[w] && !emptyVerbs[w] {
		p.words = append(p.words, strings.Split(w, "-")...)
		return p
	}
	if lightVerbs[w] {
		p.words = append(p.words, w)
	}
	for j := k + 1; j < len(rest); j++ {
		t := rest[j]
		if m := possessiveName(rest, j); m >= j {
			// "have Typed Racket's automatic contracts": a possessive
			// name determines the object, it is not the object.
			j = m
			continue
		}
		if (t.w == "more" || t.w == "less" || t.w == "fewer") && j+1 < len(rest) && rest[j+1].w == "than" {
			// "provide more than 100GB of memory": a quantity compared,
			// the object follows it (a sentence saying "less than"
			// answers no, see flipped).
			p.compare = true
			j++
			continue
		}
		// An empty verb's content may be an adverb ("done manually").
		if !isFunc(t.w) && (!isAdverb(t.w) || emptyVerbs[w]) {
			p.words = append(p.words, strings.Split(t.w, "-")...)
			h := j
			for m := j + 1; m < len(rest) && !isFunc(rest[m].w) && !subords[rest[m].w] && !privativeHeads[rest[m].w] && !rest[m-1].comma && !isAdverb(rest[j].w); m++ {
				h = m
			}
			if h != j {
				parts := strings.Split(rest[h].w, "-")
				p.head = parts[len(parts)-1]
			}
			return p
		}
	}
	if emptyVerbs[w] {
		p.words = append(p.words, w)
	}
	return p
}

// infinitive reports a "to" at rest[k] that opens an infinitive ("used
// to generate the examples"), not a prepositional phrase.
func infinitive(rest []qtok, k int) bool {
	return k+1 < len(rest) && rest[k].w == "to" && verbs[rest[k+1].w]
}

// possessive reports a word in a possessive's form ("programmer's",
// "users'").
func possessive(t qtok) bool {
	o := strings.ReplaceAll(t.orig, "’", "'")
	return strings.HasSuffix(o, "'s") || strings.HasSuffix(o, "s'")
}

// possessedInPhrase reports a word that ends a noun phrase opened by a
// preposition and a possessive, a word between: "out of the programmer's
// direct REACH". A subject's possessive ("Does the author's method BEAT
// ...?") follows no preposition.
func possessedInPhrase(rest []qtok, k int) bool {
	for m := k - 1; m >= max(k-2, 0); m-- {
		if rest[m].comma || isFunc(rest[m].w) && !possessive(rest[m]) {
			return false
		}
		if possessive(rest[m]) {
			j := m - 1
			for j >= 0 && (dets[rest[j].w] || isName(rest[j]) && !possessive(rest[j])) {
				j--
			}
			return j >= 0 && preps[rest[j].w]
		}
	}
	return false
}

// possessiveNames are the words of the question's possessive name runs
// ("typed", "racket" of "Typed Racket's"), lowercased without "'s".
func possessiveNames(question string) map[string]bool {
	out := map[string]bool{}
	toks := questionTokens(question)
	for j := 0; j < len(toks); j++ {
		if m := possessiveName(toks, j); m >= j {
			for k := j; k <= m; k++ {
				w := strings.TrimSuffix(strings.TrimSuffix(strings.ReplaceAll(toks[k].w, "’", "'"), "'s"), "'")
				out[w] = true
			}
			j = m
		}
	}
	return out
}

// possessiveName returns the index of the possessive word ending a run of
// name words that starts at j ("Typed Racket's", "Adam Back's"), or -1.
func possessiveName(rest []qtok, j int) int {
	for m := j; m < len(rest) && isName(rest[m]); m++ {
		if possessive(rest[m]) {
			return m
		}
		if rest[m].comma {
			break
		}
	}
	return -1
}

// privativeHeads open a privative phrase ("dense features instead of
// sparse ones", "X rather than Y"): the noun phrase before them ends.
var privativeHeads = set("instead rather unlike")

// prefixes that negate or grade a predicate without changing its root:
// "underfits" holds "fit".
var morphPrefixes = []string{"under", "over", "out", "un", "non", "in", "im", "dis", "mis", "re", "co", "pre"}

// root is a word's stem with a derivational ending cut: "usable" and "used"
// share the root "us".
func root(w string) string {
	s := embedding.Stem(w)
	for _, e := range []string{"abl", "ibl"} {
		if strings.HasSuffix(s, e) && len(s) > len(e)+1 {
			return s[:len(s)-len(e)]
		}
	}
	return s
}

// holds reports whether the sentence, given as its words, holds the
// predicate word w: by a root of its family (related), a synonym's
// (synonymGroups) or either behind a prefix, as holdsToken reads it.
func holds(words map[string]bool, roots map[string]bool, w string) bool {
	if j := strings.ReplaceAll(w, "-", ""); j != w && roots[root(j)] {
		return true // "pre-trained" held by "pretrained"
	}
	for _, part := range embedding.Tokenize(w) {
		r := root(part.Word)
		if !roots[r] {
			found := false
			for sr := range roots {
				found = found || retrieve.Related(sr, r) || synonymRoots[r][sr]
			}
			for sw := range words {
				for _, pre := range morphPrefixes {
					if strings.HasPrefix(sw, pre) && retrieve.Related(root(sw[len(pre):]), r) {
						found = true
					}
				}
			}
			if !found {
				return false
			}
		}
	}
	return true
}

// comparativeCues state a comparison's direction.
var comparativeCues = []string{" better ", " worse ", " outperform", " underperform", " superior ", " inferior ", " higher ", " lower ", " faster ", " slower ", " larger ", " smaller ", " improve", " surpass", " exceed", " beat ", " beats "}
