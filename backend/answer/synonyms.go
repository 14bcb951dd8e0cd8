package answer

import (
	"strings"
	"sync"

	"github.com/papertree/papertree/backend/embedding"

	"github.com/papertree/papertree/backend/answer/internal/wordnet"
	"github.com/papertree/papertree/backend/retrieve"
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

// particles are the adverbial particles of a phrasal verb ("tell the
// structures apart"): with the verb they make one WordNet lemma.
var particles = set("apart away out up down off back aside together")

// wordnetRoots maps a single word's root (root) to the roots of its
// synonyms and antonyms; a phrasal verb, keyed by its verb's root and its
// particle ("tell_apart"), maps to its single-word synonyms' roots too.
// Built on first use.
var wordnetRoots = sync.OnceValues(func() (map[string]map[string]bool, map[string]map[string]bool) {
	link := func(m map[string]map[string]bool, a, b string) {
		if m[a] == nil {
			m[a] = map[string]bool{}
		}
		m[a][b] = true
	}
	// key is a lemma's key: the root of a single word, the verb's root and
	// the particle of a phrasal verb, "" for other multi-word lemmas.
	key := func(w string) (string, bool) {
		f := strings.Split(w, "_")
		switch {
		case len(f) == 1 && !strings.Contains(w, "-"):
			return root(w), true
		case len(f) == 2 && particles[f[1]]:
			return root(f[0]) + "_" + f[1], false
		}
		return "", false
	}
	syn, ant := map[string]map[string]bool{}, map[string]map[string]bool{}
	for _, s := range wordnet.Synsets() {
		var single, all []string
		for _, w := range s.Words {
			if k, one := key(w); k != "" {
				all = append(all, k)
				if one {
					single = append(single, k)
				}
			}
		}
		for _, a := range all {
			for _, b := range single {
				if a != b {
					link(syn, a, b)
				}
			}
		}
	}
	for _, s := range wordnet.Antonyms() {
		if len(s.Words) != 2 {
			continue
		}
		a, oneA := key(s.Words[0])
		b, oneB := key(s.Words[1])
		if a != "" && b != "" && a != b {
			if oneB {
				link(ant, a, b)
			}
			if oneA {
				link(ant, b, a)
			}
		}
	}
	return syn, ant
})

// wordnetKey is the WordNet key standing for the predicate word w of
// question: its phrasal verb when a particle follows it in its clause and
// the table holds the pair ("Can they tell the structures apart?" asks
// about "tell_apart"), else w's root.
func wordnetKey(question, w string) string {
	toks := questionTokens(question)
	syn, _ := wordnetRoots()
	for i, t := range toks {
		if t.w != w {
			continue
		}
		for _, u := range toks[i+1:] {
			if particles[u.w] {
				if k := root(w) + "_" + u.w; syn[k] != nil {
					return k
				}
			}
			if u.comma || subords[u.w] || conjs[u.w] && u.w != "and" && u.w != "or" {
				break
			}
		}
		break
	}
	return root(w)
}

// wordnetHolds reports whether sentence token tok says the predicate word
// w by a WordNet synonym, or by an antonym (neg).
func wordnetHolds(tok, w string) (ok, neg bool) { return wordnetHoldsKey(tok, w, root(w)) }

// wordnetHoldsKey is wordnetHolds for the WordNet key of w (wordnetKey).
func wordnetHoldsKey(tok, w, key string) (ok, neg bool) {
	if tok == "," || tok == "" || isFunc(tok) || auxBe[tok] || auxDo[tok] || auxModal[tok] {
		return false, false
	}
	for _, e := range adjectiveEndings {
		if strings.HasSuffix(tok, e) && !strings.HasSuffix(w, e) {
			return false, false
		}
	}
	rt, rw := root(tok), key
	wordnetSyn, wordnetAnt := wordnetRoots()
	switch {
	case rt == root(w) || rt == rw:
		return false, false
	case wordnetSyn[rw][rt]:
		return true, false
	case wordnetAnt[rw][rt]:
		return true, true
	}
	return false, false
}

// wordnetOccurrences lists the tokens saying w (of WordNet key key,
// wordnetKey) by a synonym or antonym, read as occurrences does (a
// condition's dropped, a relative clause's only when no other remains).
func (sc *scope) wordnetOccurrences(w, key string) []occurrence {
	return sc.occurrencesBy(func(tok string) (bool, bool) { return wordnetHoldsKey(tok, w, key) }, w)
}

// predicateStem is the stem of the question's verb or adjective and its
// WordNet key (wordnetKey) when a WordNet synonym may hold it (not a
// light or empty verb, nor a comparison); "" otherwise.
func predicateStem(question string) (stem, key string) {
	qtext := judgedText(question)
	p, ok := predicateOf(qtext)
	if !ok || p.abstain || p.compare || len(p.words) != 1 || emptyVerbs[p.words[0]] || lightVerbs[p.words[0]] {
		return "", ""
	}
	return embedding.Stem(p.words[0]), wordnetKey(qtext, p.words[0])
}

// withPredicateSynonym returns a deciding sentence's stems with the
// predicate's stem when one of them is its WordNet synonym or antonym:
// the sentence says what the question asks in another word, and its
// coverage of the question counts it (the polarity rules read which).
func withPredicateSynonym(have map[string]bool, pstem, rp string) map[string]bool {
	if pstem == "" || have[pstem] {
		return have
	}
	wordnetSyn, wordnetAnt := wordnetRoots()
	for h := range have {
		if rh := retrieve.RootOfStem(h); wordnetSyn[rp][rh] || wordnetAnt[rp][rh] {
			out := make(map[string]bool, len(have)+1)
			for t := range have {
				out[t] = true
			}
			out[pstem] = true
			if i := strings.IndexByte(rp, '_'); i >= 0 {
				out[embedding.Stem(rp[i+1:])] = true // "tell X apart"
			}
			return out
		}
	}
	return have
}
