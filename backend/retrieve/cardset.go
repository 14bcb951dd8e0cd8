package retrieve

import (
	"context"
	"math/bits"
	"strings"
	"sync"

	"github.com/papertree/papertree/backend/embedding"
)

// cardSet is the library's identity cards with what every question's
// identification reads of all of them, built once per library state
// (cardCache): how many cards hold each name, how many titles lead with
// each name, and an inverted index from the words a question can touch a
// card with to the cards. At 5,000 papers the loops over every card were a
// fixed cost of each library-wide question (counting names alone 2.7 ms);
// the index visits only the cards a question touches.
type cardSet struct {
	cards []*card
	df    map[string]int // cards whose names hold the word
	leads map[string]int // cards whose title lead is the word
	named map[string]bool
	// By word, the indices of the cards whose title holds it (content
	// words and every word of the title's lead: a run of function words
	// names no paper, titleRuns), whose title stems, author surnames or
	// names hold it.
	words, stems, surnames, names map[string][]int32

	// nick caches, by word, the paper the library's citations say a name
	// no card holds stands for (citedAs; 0: none): a function of the
	// library state the set was built for, and a full-text search of the
	// whole library each time otherwise (a question's ordinary words
	// "original", "survey" recur from question to question).
	nickMu sync.Mutex
	nick   map[string]int64
}

// citedAs is citedAs(ctx, ix, w, s.cards), remembered for the set's
// library state. A failed search is not remembered.
func (s *cardSet) citedAs(ctx context.Context, ix Index, w string) int64 {
	s.nickMu.Lock()
	id, ok := s.nick[w]
	s.nickMu.Unlock()
	if ok {
		return id
	}
	id, err := citedAs(ctx, ix, w, s.cards)
	if err == nil {
		s.nickMu.Lock()
		if s.nick == nil {
			s.nick = map[string]int64{}
		}
		s.nick[w] = id
		s.nickMu.Unlock()
	}
	return id
}

func newCardSet(cards []*card) *cardSet {
	s := &cardSet{cards: cards, df: map[string]int{}, leads: map[string]int{}, named: map[string]bool{},
		words: map[string][]int32{}, stems: map[string][]int32{}, surnames: map[string][]int32{}, names: map[string][]int32{}}
	add := func(m map[string][]int32, k string, i int32) {
		if l := m[k]; len(l) == 0 || l[len(l)-1] != i {
			m[k] = append(l, i)
		}
	}
	for i, c := range cards {
		k := int32(i)
		for n := range c.names {
			s.df[n]++
			add(s.names, n, k)
			s.named[n] = true
		}
		for n := range c.own {
			s.named[n] = true
		}
		for n := range c.surnames {
			add(s.surnames, n, k)
			s.named[n] = true
		}
		if c.lead != "" {
			s.leads[c.lead]++
			s.named[c.lead] = true
			for _, w := range strings.Fields(c.lead) {
				add(s.words, trimWord(w), k)
			}
		}
		for _, w := range c.words {
			if !embedding.IsStopword(w) {
				add(s.words, w, k)
			}
		}
		for _, t := range c.title {
			add(s.stems, t, k)
		}
	}
	return s
}

// touched returns, in order, the indices of the cards the question could
// mention (a title word, a title stem, an author's surname, a name),
// except those it touches only with function words of their titles (such
// a card scores nothing: see scores).
func (s *cardSet) touched(qwords, qterms map[string]bool, qcaps, qnames []string) []int {
	set := make([]uint64, (len(s.cards)+63)/64)
	mark := func(l []int32) {
		for _, i := range l {
			set[i/64] |= 1 << (i % 64)
		}
	}
	for w := range qwords {
		mark(s.words[w])
	}
	for t := range qterms {
		mark(s.stems[t])
	}
	for _, w := range qcaps {
		mark(s.surnames[strings.ToLower(w)])
	}
	for _, n := range qnames {
		mark(s.names[n])
	}
	var out []int
	for b, x := range set {
		for x != 0 {
			out = append(out, b*64+bits.TrailingZeros64(x))
			x &= x - 1
		}
	}
	return out
}
