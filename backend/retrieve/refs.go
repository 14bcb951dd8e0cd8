package retrieve

// dropReferenceLeaves removes candidates from reference lists and
// acknowledgements (the signals' refs flags) unless the question asks about
// citations or funding: a bibliography entry holds the words of the paper
// it cites, so a strategy that scores passages by similarity alone (naive's
// chunks, fable's subtrees) quotes "Benioff 1980" as the answer to a
// question about Turing machines. pt-rag skips those leaves while it
// scores them.
func dropReferenceLeaves(req Request, cs []cand) []cand {
	if req.Q().Citations {
		return cs
	}
	out := cs[:0]
	for _, c := range cs {
		if c.d != nil && extraOf(c.d).refs[c.o] {
			continue
		}
		out = append(out, c)
	}
	return out
}
