package retrieve

import (
	"context"
	"regexp"
	"slices"
	"sync"

	"github.com/papertree/papertree/backend/store"
)

// Absence claims are verified, not inferred. A reply that says "the papers
// never mention X" speaks of a scope: the papers the researcher chose, or
// the whole library. Retrieval computes its missing words over the papers
// it searched (a shortlist, for a library-wide question), which is not that
// scope; so before the claim is shown, every word of it is looked up in the
// full-text index of the scope, with the index's own normalisation
// (store.PhraseCounts), and only words with no occurrence at all are said
// to be missing.

// phraseCounter is implemented by indexes backed by a full-text index.
type phraseCounter interface {
	PhraseCounts(ctx context.Context, phrase string, paperIDs []int64) (map[int64]int, error)
}

// PhraseCounts counts the nodes of each paper holding phrase (see
// store.PhraseCounts).
func (ix *StoreIndex) PhraseCounts(ctx context.Context, phrase string, paperIDs []int64) (map[int64]int, error) {
	return ix.st.PhraseCounts(ctx, phrase, paperIDs)
}

// paperRanker is implemented by indexes that can rank every paper of the
// library by its full text.
type paperRanker interface {
	PaperBM25(ctx context.Context, query string) (map[int64]float64, error)
}

// PaperBM25 ranks every paper by BM25 over its nodes (see store.PaperBM25).
func (ix *StoreIndex) PaperBM25(ctx context.Context, query string) (map[int64]float64, error) {
	return ix.st.PaperBM25(ctx, query)
}

var _ phraseCounter = (*StoreIndex)(nil)
var _ paperRanker = (*StoreIndex)(nil)

// metaHolder is implemented by indexes that can look a word up in the
// papers' metadata (store.MetaHolders).
type metaHolder interface {
	MetaHolders(ctx context.Context, phrase string) ([]int64, error)
}

// MetaHolders lists the papers whose metadata holds phrase (see
// store.MetaHolders).
func (ix *StoreIndex) MetaHolders(ctx context.Context, phrase string) ([]int64, error) {
	return ix.st.MetaHolders(ctx, phrase)
}

var _ metaHolder = (*StoreIndex)(nil)

// WordHolders returns the lookup an absence claim must pass: holders(word)
// lists the papers whose full-text index holds word in any printed form
// (store.PhraseCounts over the whole library) or whose metadata (title,
// authors, venue, ...) holds it (store.MetaHolders), sorted by id; ok is false
// when the index cannot count words or the lookup fails, and then no claim
// about the word may be made. Results are memoised for the reply.
func WordHolders(ctx context.Context, ix Index) func(word string) (papers []int64, ok bool) {
	pc, can := ix.(phraseCounter)
	type entry struct {
		ids []int64
		ok  bool
	}
	var mu sync.Mutex
	seen := map[string]entry{}
	return func(word string) ([]int64, bool) {
		if !can || word == "" {
			return nil, false
		}
		mu.Lock()
		defer mu.Unlock()
		if e, hit := seen[word]; hit {
			return e.ids, e.ok
		}
		n, err := pc.PhraseCounts(ctx, word, nil)
		e := entry{ok: err == nil}
		for id := range n {
			e.ids = append(e.ids, id)
		}
		if g := gluedSubscripts(word); g != word && e.ok {
			// "x_max" printed "xmax" (subscripts)
			n, err := pc.PhraseCounts(ctx, g, nil)
			e.ok = err == nil
			for id := range n {
				e.ids = append(e.ids, id)
			}
		}
		if mh, can := ix.(metaHolder); can && e.ok {
			ids, err := mh.MetaHolders(ctx, word)
			e.ok = err == nil
			e.ids = append(e.ids, ids...)
		}
		slices.Sort(e.ids)
		e.ids = slices.Compact(e.ids)
		seen[word] = e
		return e.ids, e.ok
	}
}

// termCounter is implemented by indexes that know how many nodes hold a
// word (store.TermNodeCounts).
type termCounter interface {
	TermNodeCounts(ctx context.Context, words []string) (int64, []int64, error)
}

// TermNodeCounts counts the nodes holding each word (see
// store.TermNodeCounts).
func (ix *StoreIndex) TermNodeCounts(ctx context.Context, words []string) (int64, []int64, error) {
	return ix.st.TermNodeCounts(ctx, words)
}

var _ termCounter = (*StoreIndex)(nil)

// togetherer is implemented by indexes that can tell whether one passage
// holds two words near each other (store.Together).
type togetherer interface {
	Together(ctx context.Context, a, b string, within int) (bool, error)
}

// Together reports whether one node holds a and b within within tokens
// (see store.Together).
func (ix *StoreIndex) Together(ctx context.Context, a, b string, within int) (bool, error) {
	return ix.st.Together(ctx, a, b, within)
}

var _ togetherer = (*StoreIndex)(nil)

// CompoundWindow is how near the two words of a compound must stand in a
// passage to be read as that compound: a sentence's span, so "the dose of
// radiation delivered" holds "radiation dosage" as a compound would, and
// a table's caption and header hold "zero-shot ... perplexity".
const CompoundWindow = 20

// Together returns the lookup a compound check needs: together(a, b)
// reports whether any passage of the library holds the typed words a and
// b within CompoundWindow tokens of each other; ok is false when the index
// cannot tell, and then nothing is concluded. Results are memoised for the
// reply.
func Together(ctx context.Context, ix Index) func(a, b string) (together, ok bool) {
	t, can := ix.(togetherer)
	return memoPairs(can, func(a, b string) (bool, error) {
		yes, err := t.Together(ctx, a, b, CompoundWindow)
		if ga, gb := gluedSubscripts(a), gluedSubscripts(b); err == nil && !yes && (ga != a || gb != b) {
			yes, err = t.Together(ctx, ga, gb, CompoundWindow) // "x_max" printed "xmax"
		}
		return yes, err
	})
}

// memoPairs memoises a lookup of word pairs for one reply: ok is false when
// the index cannot tell (it has no such lookup, can false, or it failed).
func memoPairs(can bool, look func(a, b string) (bool, error)) func(a, b string) (yes, ok bool) {
	var mu sync.Mutex
	seen := map[[2]string][2]bool{}
	return func(a, b string) (bool, bool) {
		if !can {
			return false, false
		}
		mu.Lock()
		defer mu.Unlock()
		k := [2]string{a, b}
		if e, hit := seen[k]; hit {
			return e[0], e[1]
		}
		yes, err := look(a, b)
		seen[k] = [2]bool{yes, err == nil}
		return yes, err == nil
	}
}

// togetherIner is implemented by indexes that can tell which papers hold
// two words near each other in one passage (store.TogetherIn).
type togetherIner interface {
	TogetherIn(ctx context.Context, a, b string, within int) (papers, body []int64, err error)
}

// TogetherIn reports the papers with a node holding a and b within within
// tokens, and those with such a node outside their references (see
// store.TogetherIn).
func (ix *StoreIndex) TogetherIn(ctx context.Context, a, b string, within int) (papers, body []int64, err error) {
	return ix.st.TogetherIn(ctx, a, b, within)
}

var _ togetherIner = (*StoreIndex)(nil)

// TogetherIn is Together that says where: in(a, b) lists the papers with a
// passage holding the typed words a and b within CompoundWindow tokens of
// each other, and (body) those with such a passage outside their reference
// list and acknowledgements, so a reply that speaks of one paper checks
// that paper and a reference title is not taken for what a paper states;
// ok is false when the index cannot tell. Results are memoised for the
// reply.
func TogetherIn(ctx context.Context, ix Index) func(a, b string) (papers, body []int64, ok bool) {
	t, can := ix.(togetherIner)
	var mu sync.Mutex
	type entry struct {
		papers, body []int64
		ok           bool
	}
	seen := map[[2]string]entry{}
	return func(a, b string) ([]int64, []int64, bool) {
		if !can {
			return nil, nil, false
		}
		mu.Lock()
		defer mu.Unlock()
		k := [2]string{a, b}
		if e, hit := seen[k]; hit {
			return e.papers, e.body, e.ok
		}
		papers, body, err := t.TogetherIn(ctx, a, b, CompoundWindow)
		if ga, gb := gluedSubscripts(a), gluedSubscripts(b); err == nil && (ga != a || gb != b) {
			// "x_max" printed "xmax"
			p2, b2, err2 := t.TogetherIn(ctx, ga, gb, CompoundWindow)
			papers, body, err = union(papers, p2), union(body, b2), err2
		}
		seen[k] = entry{papers, body, err == nil}
		return papers, body, err == nil
	}
}

// union is the sorted union of two id lists.
func union(a, b []int64) []int64 {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// identRE matches a run of letters, digits and underscores.
var identRE = regexp.MustCompile(`[\p{L}\p{N}_]+`)

// gluedSubscripts writes each symbol of s typed with an underscore
// subscript ("x_max") as the one word papers print for it ("xmax",
// subscripts); s when it has none.
func gluedSubscripts(s string) string {
	return identRE.ReplaceAllStringFunc(s, func(w string) string {
		if g, ok := store.GluedSymbol(w); ok {
			return g
		}
		return w
	})
}

// printedTogetherer is implemented by indexes that can tell whether one
// passage holds a word as printed near another (store.TogetherPrinted).
type printedTogetherer interface {
	TogetherPrinted(ctx context.Context, a, b string, within int) (bool, error)
}

// TogetherPrinted reports whether a node holds a, as printed, within
// within tokens of b (see store.TogetherPrinted).
func (ix *StoreIndex) TogetherPrinted(ctx context.Context, a, b string, within int) (bool, error) {
	return ix.st.TogetherPrinted(ctx, a, b, within)
}

var _ printedTogetherer = (*StoreIndex)(nil)

// TogetherPrinted returns the lookup of Together with its first word as
// printed, not through the stemmer (store.TogetherPrinted): together(a,
// b) reports whether any passage of the library prints a within
// CompoundWindow tokens of b; ok is false when the index cannot tell.
// Results are memoised for the reply.
func TogetherPrinted(ctx context.Context, ix Index) func(a, b string) (together, ok bool) {
	t, can := ix.(printedTogetherer)
	return memoPairs(can, func(a, b string) (bool, error) { return t.TogetherPrinted(ctx, a, b, CompoundWindow) })
}

// printedCounter is implemented by indexes that can count the passages
// printing a word as typed, not through the stemmer
// (store.PrintedNodeCounts).
type printedCounter interface {
	PrintedNodeCounts(ctx context.Context, word string) (map[int64]int, error)
}

// PrintedNodeCounts counts the nodes of each paper printing word (see
// store.PrintedNodeCounts).
func (ix *StoreIndex) PrintedNodeCounts(ctx context.Context, word string) (map[int64]int, error) {
	return ix.st.PrintedNodeCounts(ctx, word)
}

var _ printedCounter = (*StoreIndex)(nil)

// WordDwell returns the lookup of how much the library dwells on a word:
// dwell(word) is the largest number of passages one paper prints it in,
// as typed or in its plural or singular (store.PrintedNodeCounts; 0: no
// paper prints it so); ok is false when the index cannot tell. Results
// are memoised for the reply.
func WordDwell(ctx context.Context, ix Index) func(word string) (n int, ok bool) {
	pc, can := ix.(printedCounter)
	type entry struct {
		n  int
		ok bool
	}
	var mu sync.Mutex
	seen := map[string]entry{}
	return func(word string) (int, bool) {
		if !can || word == "" {
			return 0, false
		}
		mu.Lock()
		defer mu.Unlock()
		if e, hit := seen[word]; hit {
			return e.n, e.ok
		}
		counts, err := pc.PrintedNodeCounts(ctx, word)
		e := entry{ok: err == nil}
		for _, c := range counts {
			e.n = max(e.n, c)
		}
		seen[word] = e
		return e.n, e.ok
	}
}
