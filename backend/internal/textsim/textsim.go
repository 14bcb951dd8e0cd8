// Package textsim holds text similarity used by both the tree builder (to
// verify outline entries against printed headings) and the tree evaluator (to
// match predicted and gold headings): one implementation, so that the builder
// and its scorer can never disagree about what "similar" means.
package textsim

import "sort"

// Ratio returns Python difflib.SequenceMatcher(None, a, b).ratio() for two
// rune sequences. It reproduces difflib exactly (Ratcliff/Obershelp longest
// matching blocks, recursively on both sides, and the "autojunk" heuristic:
// when b has at least 200 elements, elements occurring more than
// len(b)/100+1 times are "popular" and cannot seed a match, although they can
// still extend one) so that scores agree with the reference scorer that the
// gold README describes. The ratio is not symmetric in rare cases; callers
// pass gold as a and prediction as b.
func Ratio(a, b []rune) float64 {
	total := len(a) + len(b)
	if total == 0 {
		return 1
	}
	m := newSeqMatcher(a, b)
	return 2 * float64(m.matches()) / float64(total)
}

type seqMatcher struct {
	a, b []rune
	b2j  map[rune][]int
}

func newSeqMatcher(a, b []rune) *seqMatcher {
	b2j := make(map[rune][]int)
	for j, r := range b {
		b2j[r] = append(b2j[r], j)
	}
	if n := len(b); n >= 200 {
		ntest := n/100 + 1
		for r, idx := range b2j {
			if len(idx) > ntest {
				delete(b2j, r)
			}
		}
	}
	return &seqMatcher{a: a, b: b, b2j: b2j}
}

// longest is difflib's find_longest_match without a junk function (bjunk is
// empty, so both extension passes reduce to the non-junk one).
func (m *seqMatcher) longest(alo, ahi, blo, bhi int) (int, int, int) {
	besti, bestj, bestsize := alo, blo, 0
	j2len := map[int]int{}
	for i := alo; i < ahi; i++ {
		newj2len := map[int]int{}
		for _, j := range m.b2j[m.a[i]] {
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			k := j2len[j-1] + 1
			newj2len[j] = k
			if k > bestsize {
				besti, bestj, bestsize = i-k+1, j-k+1, k
			}
		}
		j2len = newj2len
	}
	for besti > alo && bestj > blo && m.a[besti-1] == m.b[bestj-1] {
		besti, bestj, bestsize = besti-1, bestj-1, bestsize+1
	}
	for besti+bestsize < ahi && bestj+bestsize < bhi && m.a[besti+bestsize] == m.b[bestj+bestsize] {
		bestsize++
	}
	return besti, bestj, bestsize
}

// matches is the sum of sizes of get_matching_blocks().
func (m *seqMatcher) matches() int {
	type span struct{ alo, ahi, blo, bhi int }
	queue := []span{{0, len(m.a), 0, len(m.b)}}
	type block struct{ i, j, k int }
	var blocks []block
	for len(queue) > 0 {
		s := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		i, j, k := m.longest(s.alo, s.ahi, s.blo, s.bhi)
		if k == 0 {
			continue
		}
		blocks = append(blocks, block{i, j, k})
		if s.alo < i && s.blo < j {
			queue = append(queue, span{s.alo, i, s.blo, j})
		}
		if i+k < s.ahi && j+k < s.bhi {
			queue = append(queue, span{i + k, s.ahi, j + k, s.bhi})
		}
	}
	sort.Slice(blocks, func(x, y int) bool { return blocks[x].i < blocks[y].i })
	n := 0
	for _, b := range blocks {
		n += b.k
	}
	return n
}
