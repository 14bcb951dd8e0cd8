package retrieve

import (
	"math"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/query"
)

// BM25 constants of the sentence keyword signal (the usual values).
const (
	sentBM25K1 = 1.2
	sentBM25B  = 0.75
)

// sentKeyword is the sentence keyword signal of one paper for one
// question: BM25 where the documents are the sentences of the paper's
// leaves, so term rarity (IDF) is the paper's own: "Common Crawl" in a
// paper that names it in one sentence counts far more than "vectors",
// which that paper uses in every paragraph. The other lexical signals
// cannot tell the two apart: SentenceScore counts every question term
// alike (in a passage's score, with one paper searched, it weighs them by
// their rarity among the paper's leaves: paperTermWeights), and the FTS5
// keyword score rates whole passages, where a long
// paragraph that repeats common terms outscores the one sentence that holds
// the rare ones. Sentences are stem sets (sentSig), so term frequency is 1
// and a sentence's length is its number of distinct stems.
//
// Scores are divided by the score of an average-length sentence holding
// every question term (the sum of the terms' IDF) and capped at 1, so they
// say how much of the question's rare vocabulary one sentence holds. A
// question term the paper never uses has the highest IDF and lowers every
// sentence's score, which keeps scores comparable across the papers of a
// library-wide question: dividing by each paper's own best sentence
// instead gave a paper that shares one common word with the question the
// same top score as the paper that answers it (own set, library-wide paper
// hit 0.906 -> 0.891, support hit 0.672 -> 0.641 at weight 0.4).
type sentKeyword struct {
	qterms []string
	idf    []float64
	avg    float64 // average sentence length (distinct stems)
	norm   float64 // sum of idf: the normaliser
	// trim is the weight of this signal against SentenceScore when
	// trimming a passage to its best sentences: the same ratio as in the
	// passage's score, so trimming keeps the sentence that made the
	// passage relevant.
	trim float64
	// expand adds to a sentence's stems the question terms it holds in
	// another form (query.Question.Expand).
	expand func([]string) []string
}

// newSentKeyword builds the signal over the sentences of leaves
// (bibliography excluded by the caller) and returns it with, per leaf
// order, the score of the leaf's best sentence (0 elsewhere). It returns
// nil when no sentence holds a question term.
func newSentKeyword(d *PaperData, question *query.Question, leaves []int) (*sentKeyword, []float64) {
	qterms := question.Terms
	out := make([]float64, len(d.Nodes))
	if len(qterms) == 0 || len(qterms) > 64 {
		return nil, out
	}
	x := extraOf(d)
	// One pass for document frequencies and lengths: each sentence's hits
	// as a bit mask over qterms.
	type sent struct {
		o    int
		mask uint64
		n    int
	}
	var ss []sent
	df := make([]int, len(qterms))
	total, hits := 0, 0
	for _, o := range leaves {
		for _, g := range x.sents[o] {
			m := termMask(qterms, question.Expand(g.stems))
			for i := range qterms {
				if m&(1<<i) != 0 {
					df[i]++
				}
			}
			if m != 0 {
				hits++
			}
			total += len(g.stems)
			ss = append(ss, sent{o, m, len(g.stems)})
		}
	}
	if hits == 0 {
		return nil, out
	}
	n := float64(len(ss))
	k := &sentKeyword{expand: question.Expand, qterms: qterms, idf: make([]float64, len(qterms)), avg: max(float64(total)/n, 1)}
	for i := range qterms {
		k.idf[i] = math.Log(1 + (n-float64(df[i])+0.5)/(float64(df[i])+0.5))
		k.norm += k.idf[i]
	}
	for _, s := range ss {
		if s.mask != 0 {
			out[s.o] = max(out[s.o], k.score(s.mask, s.n))
		}
	}
	return k, out
}

// termMask has bit i set when stems holds qterms[i].
func termMask(qterms, stems []string) uint64 {
	var m uint64
	for i, t := range qterms {
		for _, s := range stems {
			if s == t {
				m |= 1 << i
				break
			}
		}
	}
	return m
}

// score is the normalised BM25 score of a sentence of n distinct stems
// holding the question terms in mask.
func (k *sentKeyword) score(mask uint64, n int) float64 {
	norm := sentBM25K1 * (1 - sentBM25B + sentBM25B*float64(n)/k.avg)
	sc := 0.0
	for i := range k.qterms {
		if mask&(1<<i) != 0 {
			sc += k.idf[i] * (sentBM25K1 + 1) / (1 + norm)
		}
	}
	return min(sc/k.norm, 1)
}

// sentence scores one sentence of text (0 for a nil k).
func (k *sentKeyword) sentence(s string) float64 {
	if k == nil {
		return 0
	}
	stems := distinct(embedding.ContentStems(s))
	return k.score(termMask(k.qterms, k.expand(stems)), len(stems))
}

func distinct(ts []string) []string {
	seen := make(map[string]bool, len(ts))
	out := ts[:0:0]
	for _, t := range ts {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}
