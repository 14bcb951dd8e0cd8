package answer

import (
	"strings"

	"github.com/papertree/papertree/backend/embedding"
)

// A deciding sentence decides the question only about what it says the
// predicate of: "Beam search is not used for the translation model" says
// nothing about the summarization model, "The decoder is shared" nothing
// about the encoder, "written in C++, with Python bindings" not that the
// library is written in Python.

// contentOutside reports whether tok is a content word none of whose
// stems are in have.
func contentOutside(tok string, have map[string]bool) bool {
	if tok == "," || isFunc(tok) || isAdverb(tok) || tok == "not" || tok == "never" || len(numbersOf([]string{tok})) > 0 {
		return false
	}
	st := embedding.ContentStems(tok)
	if len(st) == 0 {
		return false
	}
	for _, t := range st {
		if have[t] {
			return false
		}
	}
	return true
}

// otherComplement reports whether every occurrence of the predicate is
// said, in its clause after it, of another object than the question's
// (object, its stems): the words there hold none of the object's but a
// content word the question does not hold (qstems) ("not required for
// inference" for "required for training?"), or a word the question does
// not hold stands right before one of the object's, as its modifier ("not
// used for the translation model" for "used for the summarization
// model?"). False when the predicate's word does not occur (a WordNet
// synonym held it).
func (sc *scope) otherComplement(p askedPredicate, object []string, qstems map[string]bool) bool {
	if len(p.words) == 0 {
		return false
	}
	occ := sc.occurrences(p.words[0])
	if len(occ) == 0 {
		return false
	}
	ostems := map[string]bool{}
	for _, w := range object {
		for _, t := range embedding.ContentStems(w) {
			ostems[t] = true
		}
	}
	isObj := func(tok string) bool {
		for _, t := range embedding.ContentStems(tok) {
			if ostems[t] {
				return true
			}
		}
		return false
	}
	for _, o := range occ {
		outside, obj, modifier := false, false, false
		for j := o.i + 1; j < sc.clauseEnd(o.i+1); j++ {
			tok := sc.toks[j]
			if pronouns[tok] || conjs[tok] {
				break // a relative clause: "words it has never seen"
			}
			if sc.priv[j] {
				continue // "does not work without clean labels"
			}
			if isObj(tok) {
				obj = true
				continue
			}
			if contentOutside(tok, qstems) {
				outside = true
				if next := sc.at(j + 1); next != "" && isObj(next) && !isObj(tok) {
					modifier = true
				}
			}
		}
		if !(outside && !obj || modifier) {
			return false
		}
	}
	return true
}

// otherSubject reports a sentence whose predicate is said of another
// subject than the question's: the question's own subject is short (at
// most two content stems), no word of the question's own subject
// (ownSubject, the words naming the paper left out) is held anywhere in
// the sentence, and the words before the predicate in its clause hold a
// content word the question does not hold, not introduced by "our",
// "this" or "these" (the paper's own system, named as its authors do).
func (sc *scope) otherSubject(p askedPredicate, ownSubject []string, qstems map[string]bool) bool {
	if len(p.words) == 0 || len(ownSubject) == 0 || len(ownSubject) > 2 {
		// A subject described at length in the asker's own words ("the
		// students in the user study of the understandable consensus
		// algorithm") is one a paper names otherwise ("participants");
		// only a short one ("the encoder") is contradicted by another.
		return false
	}
	all := stemSet(joinToks(sc.toks))
	for _, w := range ownSubject {
		for _, t := range embedding.ContentStems(w) {
			if all[t] {
				return false
			}
			// A name run together from the subject's words
			// ("RecursiveNN" for "recursive neural network") holds it.
			for h := range all {
				if len(t) >= 4 && strings.HasPrefix(h, t) {
					return false
				}
			}
		}
	}
	occ := sc.occurrences(p.words[0])
	if len(occ) == 0 {
		return false
	}
	for _, o := range occ {
		from := sc.clauseStart(o.i)
		other := false
		for j := from; j < o.i; j++ {
			switch sc.toks[j] {
			case "our", "this", "these", "we", "it", "they":
				return false
			}
			if contentOutside(sc.toks[j], qstems) && !verbs[inflectionless(sc.toks[j])] {
				other = true
			}
		}
		if !other {
			return false
		}
	}
	return true
}

// adjunctOnly reports whether the question's object is held after the
// predicate only past a comma that opens a prepositional phrase ("written
// in C++, with Python bindings"), the predicate's own clause holding
// another complement: the object is an adjunct's, not the predicate's.
func (sc *scope) adjunctOnly(p askedPredicate, object []string, qstems map[string]bool) bool {
	if len(object) == 0 || len(p.words) == 0 {
		return false
	}
	occ := sc.occurrences(p.words[0])
	if len(occ) == 0 || !sc.otherComplement(p, object, qstems) {
		return false
	}
	for _, o := range occ {
		end := sc.clauseEnd(o.i + 1)
		if holdsAll(joinToks(sc.toks[o.i+1:end]), object) {
			return false
		}
		if end+1 >= len(sc.toks) || sc.toks[end] != "," || !preps[sc.toks[end+1]] {
			return false
		}
	}
	return true
}

func joinToks(toks []string) string {
	out := ""
	for k, t := range toks {
		if k > 0 {
			out += " "
		}
		out += t
	}
	return out
}
