package answer

import (
	"strings"

	"github.com/papertree/papertree/backend/embedding"
)

// A deciding sentence says yes only about what it says the predicate of:
// "The decoder is shared" says nothing about the encoder, "written in
// C++, with Python bindings" not that the library is written in Python.

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
	if len(occ) == 0 {
		return false
	}
	for _, o := range occ {
		end := sc.clauseEnd(o.i + 1)
		if holdsAll(joinToks(sc.toks[o.i+1:end]), object) {
			return false
		}
		own := false // the predicate's own complement before the comma
		for j := o.i + 1; j < end; j++ {
			if t := sc.toks[j]; !isFunc(t) && !qstems[t] && len(embedding.ContentStems(t)) == 0 || contentOutside(t, qstems) {
				own = true
			}
		}
		if !own {
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
