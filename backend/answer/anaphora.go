package answer

import (
	"strings"
	"unicode"
)

// Anaphoric deciding sentences.
//
// A sentence whose subject is a pronoun or a demonstrative ("These
// operations do not necessitate communication with other hosts.", "But for
// categorical variables, none of these make any sense.", "He can't check
// the transaction for himself") names what it speaks of in the sentence
// before it. Its own words then cover little of a yes/no question, which
// names that antecedent ("Does each host's outer-loop block computation
// require communicating with other hosts?"), and the coverage threshold
// dropped it although it says the predicate with its polarity. Such a
// sentence is weighed with the words of the sentence before it in the same
// passage: for the coverage of the question and for naming its subject.
// The predicate and its polarity are still read off the sentence alone.

// anaphors are the pronouns and demonstratives that, as a clause's subject
// or its determiner, refer back ("it" only when no form of "be" follows:
// "It is possible to ..." is expletive).
var anaphors = set("this these those it they he she such both")

// anaphorQuantifiers take a pronoun after "of" ("none of these").
var anaphorQuantifiers = set("none all each both neither either some most many several one two few")

// leadConnectives open a sentence without being its subject.
var leadConnectives = set("but and yet so thus hence therefore however moreover furthermore also still instead consequently accordingly indeed then nevertheless nonetheless")

// leadPrepositions open an adverbial lead-in that ends at a comma ("For
// categorical variables, ...", "In the long run, ...").
var leadPrepositions = set("for in on at with under after before during from by since as to through within without over among across per")

// selfNouns after a demonstrative name the text itself ("This paper", "This
// section"), not something the sentence before said.
var selfNouns = set("paper work study article section chapter thesis report note letter memo book")

// anaphoric reports a sentence whose subject (after leading connectives and
// a prepositional lead-in set off by a comma) is a pronoun, a demonstrative
// or a quantifier over one ("none of these").
func anaphoric(sentence string) bool {
	type tok struct {
		w     string
		comma bool
	}
	var toks []tok
	for _, f := range strings.Fields(sentence) {
		comma := strings.HasSuffix(f, ",")
		w := strings.ToLower(strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' }))
		if w == "" {
			continue
		}
		toks = append(toks, tok{w, comma})
		if len(toks) == 16 {
			break
		}
	}
	i := 0
	for i < len(toks) && leadConnectives[toks[i].w] && !toks[i].comma {
		i++
	}
	for i < len(toks) && leadConnectives[toks[i].w] && toks[i].comma {
		i++ // "However, ..."
	}
	if i < len(toks) && leadPrepositions[toks[i].w] {
		j := i
		for j < len(toks) && j-i < 8 && !toks[j].comma {
			j++
		}
		if j == len(toks) || !toks[j].comma {
			return false
		}
		i = j + 1
	}
	if i >= len(toks) {
		return false
	}
	w := toks[i].w
	if anaphorQuantifiers[w] && i+2 < len(toks) && toks[i+1].w == "of" {
		w = toks[i+2].w
		return w == "these" || w == "those" || w == "them" || w == "this" || w == "it"
	}
	if !anaphors[w] {
		return false
	}
	if i+1 < len(toks) {
		next := toks[i+1].w
		if w == "it" && (auxBe[next] || next == "seems" || next == "appears") {
			return false
		}
		if selfNouns[next] {
			return false
		}
	}
	return true
}

// antecedents returns for each sentence the index of the sentence before it
// in the same passage when its subject is anaphoric (anaphoric), -1
// otherwise. Table rows and captions have none.
func antecedents(sents []sentence) []int {
	out := make([]int, len(sents))
	for i := range sents {
		out[i] = -1
		if i == 0 || sents[i-1].ev != sents[i].ev || sents[i].pos <= sents[i-1].pos || sents[i].role != sents[i-1].role ||
			sents[i].context != "" || sents[i-1].context != "" {
			continue
		}
		if anaphoric(sents[i].text) {
			out[i] = i - 1
		}
	}
	return out
}

// withAntecedent returns a sentence's stems with those of the sentence its
// subject refers back to (have when there is none).
func withAntecedent(have, prev map[string]bool) map[string]bool { return unionStems(have, prev) }
