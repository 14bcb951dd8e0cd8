package answer

import (
	"strings"
	"sync"

	"github.com/papertree/papertree/backend/embedding"

	"github.com/papertree/papertree/backend/answer/internal/wordnet"
)

// WordNet synonyms and antonyms of a yes/no question's predicate.
//
// A deciding sentence often says the question's verb or adjective with
// another word of the same meaning ("Were hardware interlocks replaced by
// software checks?" - "software checks were substituted for the hardware
// interlocks") or with its antonym ("Were the messages clear?" - "the
// messages were unclear"). The table of package wordnet holds WordNet
// 3.0's verb and adjective synonym sets and lexical antonym pairs, each
// word only in its most frequent senses (see its header), a closed
// resource rather than a list written for questions.
//
// It is read for the predicate's verb or adjective only (not for a light
// or empty verb, nor the object or subject), only when the sentence does
// not hold the word itself or a word of its family, and only when the
// verdict is composed (Compose, Verdict); the Decider that retrieval uses
// does not read it. A synonym holds the predicate as the word would; an
// antonym holds it negated, as a negating prefix does ("unclear" for
// "clear"); the polarity rules then decide as for the word itself.

// wordnetRoots maps a single word's root (root) to the roots of its
// synonyms and antonyms; built on first use.
var wordnetRoots = sync.OnceValues(func() (map[string]map[string]bool, map[string]map[string]bool) {
	link := func(m map[string]map[string]bool, a, b string) {
		if m[a] == nil {
			m[a] = map[string]bool{}
		}
		m[a][b] = true
	}
	roots := func(words []string) []string {
		var out []string
		for _, w := range words {
			if !strings.Contains(w, "_") && !strings.Contains(w, "-") {
				out = append(out, root(w))
			}
		}
		return out
	}
	syn, ant := map[string]map[string]bool{}, map[string]map[string]bool{}
	for _, s := range wordnet.Synsets() {
		rs := roots(s.Words)
		for _, a := range rs {
			for _, b := range rs {
				if a != b {
					link(syn, a, b)
				}
			}
		}
	}
	for _, s := range wordnet.Antonyms() {
		if rs := roots(s.Words); len(rs) == 2 && rs[0] != rs[1] {
			link(ant, rs[0], rs[1])
			link(ant, rs[1], rs[0])
		}
	}
	return syn, ant
})

// wordnetHolds reports whether sentence token tok says the predicate word
// w by a WordNet synonym, or by an antonym (neg).
func wordnetHolds(tok, w string) (ok, neg bool) {
	if tok == "," || tok == "" || isFunc(tok) || auxBe[tok] || auxDo[tok] || auxModal[tok] {
		return false, false
	}
	for _, e := range adjectiveEndings {
		if strings.HasSuffix(tok, e) && !strings.HasSuffix(w, e) {
			return false, false
		}
	}
	rt, rw := root(tok), root(w)
	wordnetSyn, wordnetAnt := wordnetRoots()
	switch {
	case rt == rw:
		return false, false
	case wordnetSyn[rw][rt]:
		return true, false
	case wordnetAnt[rw][rt]:
		return true, true
	}
	return false, false
}

// wordnetOccurrences lists the tokens saying w by a synonym or antonym,
// read as occurrences does (a condition's dropped, a relative clause's
// only when no other remains).
func (sc *scope) wordnetOccurrences(w string) []occurrence {
	var all, main []occurrence
	for i, tok := range sc.toks {
		ok, neg := wordnetHolds(tok, w)
		if !ok {
			continue
		}
		if st := sc.clauseStart(i); st > 0 && conditions[sc.toks[st-1]] {
			continue
		}
		o := occurrence{i: i, neg: neg, as: w}
		all = append(all, o)
		j := i - 1
		for j >= 0 && isAdverb(sc.toks[j]) {
			j--
		}
		if p := sc.at(j); p != "that" && p != "which" && p != "who" {
			main = append(main, o)
		}
	}
	if len(main) > 0 {
		return main
	}
	return all
}

// predicateStem is the stem of the question's verb or adjective when a
// WordNet synonym may hold it (not a light or empty verb, nor a
// comparison); "" otherwise.
func predicateStem(question string) string {
	p, ok := predicateOf(negQuestionRE.ReplaceAllString(quotedRE.ReplaceAllString(question, " "), "$1 not"))
	if !ok || p.abstain || p.compare || len(p.words) != 1 || emptyVerbs[p.words[0]] || lightVerbs[p.words[0]] {
		return ""
	}
	return embedding.Stem(p.words[0])
}

// withPredicateSynonym returns a deciding sentence's stems with the
// predicate's stem when one of them is its WordNet synonym or antonym:
// the sentence says what the question asks in another word, and its
// coverage of the question counts it (the polarity rules read which).
func withPredicateSynonym(have map[string]bool, pstem string) map[string]bool {
	if pstem == "" || have[pstem] {
		return have
	}
	rp := rootOfStem(pstem)
	wordnetSyn, wordnetAnt := wordnetRoots()
	for h := range have {
		if rh := rootOfStem(h); wordnetSyn[rp][rh] || wordnetAnt[rp][rh] {
			out := make(map[string]bool, len(have)+1)
			for t := range have {
				out[t] = true
			}
			out[pstem] = true
			return out
		}
	}
	return have
}
