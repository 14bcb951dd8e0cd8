package answer

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/papertree/papertree/backend/embedding"
)

// A quantity a yes/no question bounds ("more than 90%", "at least 100
// examples", "under 40 thousand") is decided by the deciding sentence's
// number of the same kind, read with that number's own qualifier ("up to
// 17%", "less than 40K", "over 1800", "about 70%"): a verdict is stated
// only when every value the sentence allows satisfies the bound (yes) or
// none does (no). "achieves 90%" does not say "over 90%".

// numberRE matches a number with its qualifier and unit.
var numberRE = regexp.MustCompile(`(?i)(?:\b(up to|at most|no more than|less than|fewer than|under|below|more than|over|above|greater than|at least|exceeding|exceeds|exceed|about|around|approximately|roughly|nearly|almost|only|some)\s+)?(\d[\d,]*(?:\.\d+)?)\s*(%|percent\b|per cent\b|k\b|thousand\b|million\b|billion\b)?`)

// numBound is a bound on a quantity, or a sentence's stated range of one.
type numBound struct {
	lo, hi       float64 // the values allowed; lo > hi never
	loOpen, hiOp bool    // open ends
	percent      bool
	// cue is the comparison phrase of a question's bound ("more than").
	cue string
}

const numInf = 1e300

// readNumber reads one numberRE match as the range of values it allows.
func readNumber(m []string) (numBound, bool) {
	v, err := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
	if err != nil {
		return numBound{}, false
	}
	unit := strings.ToLower(m[3])
	switch unit {
	case "k", "thousand":
		v *= 1e3
	case "million":
		v *= 1e6
	case "billion":
		v *= 1e9
	}
	b := numBound{lo: v, hi: v, percent: unit == "%" || strings.HasPrefix(unit, "per")}
	switch strings.ToLower(m[1]) {
	case "up to", "at most", "no more than":
		b.lo = -numInf
	case "less than", "fewer than", "under", "below":
		b.lo, b.hiOp = -numInf, true
	case "more than", "over", "above", "greater than", "exceeding", "exceeds", "exceed":
		b.hi, b.loOpen = numInf, true
	case "at least":
		b.hi = numInf
	case "about", "around", "approximately", "roughly", "nearly", "almost":
		b.lo, b.hi = v*0.9, v*1.1
	}
	return b, true
}

// questionBound is the bound the question (as judged, after its
// predicate) puts on a quantity: a comparison word before a number.
func questionBound(after string) (numBound, bool) {
	for _, m := range numberRE.FindAllStringSubmatch(after, -1) {
		switch strings.ToLower(m[1]) {
		case "", "about", "around", "approximately", "roughly", "nearly", "almost", "only", "some":
			continue
		}
		b, ok := readNumber(m)
		b.cue = strings.ToLower(m[1])
		return b, ok
	}
	return numBound{}, false
}

// withoutCue drops from a question's complement stems the words of its
// bound's comparison phrase: "more" in "more than 90%" is the number's,
// not a word the sentence must hold.
func (q numBound) withoutCue(stems []string) []string {
	drop := map[string]bool{}
	for _, w := range strings.Fields(q.cue) {
		for _, t := range embedding.ContentStems(w) {
			drop[t] = true
		}
		drop[w] = true
	}
	var out []string
	for _, t := range stems {
		if !drop[t] {
			out = append(out, t)
		}
	}
	return out
}

// decide reports whether every value of r lies in the bound q (yes),
// none does (no), or neither can be said (ok false).
func (q numBound) decide(r numBound) (yes, ok bool) {
	in := func(v float64, open bool) bool { // v (an end of r) inside q
		above := v > q.lo || v == q.lo && (!q.loOpen || open)
		below := v < q.hi || v == q.hi && (!q.hiOp || open)
		return above && below
	}
	switch {
	case in(r.lo, r.loOpen) && in(r.hi, r.hiOp):
		return true, true
	case r.hi < q.lo || r.hi == q.lo && (q.loOpen || r.hiOp):
		return false, true
	case r.lo > q.hi || r.lo == q.hi && (q.hiOp || r.loOpen):
		return false, true
	}
	return false, false
}

// sentenceQuantity reads the first number of the sentence of the bound's
// kind (a percentage for a percentage) and decides the bound with it;
// ok is false when the sentence states no such number or its range
// straddles the bound.
func sentenceQuantity(q numBound, sentence string) (yes, ok bool) {
	for _, m := range numberRE.FindAllStringSubmatch(sentence, -1) {
		r, good := readNumber(m)
		if !good || r.percent != q.percent {
			continue
		}
		return q.decide(r)
	}
	return false, false
}
