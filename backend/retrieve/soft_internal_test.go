package retrieve

import (
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// softCands builds two sections' leaves: section 0 (ranks first) holds
// leaves 0-7, section 1 holds leaves 8-11; every leaf costs 84 tokens and is
// above the paper's median.
func softCands() ([]cand, map[int]int) {
	d := &PaperData{Paper: &papertree.Paper{ID: 1}}
	sentence := "The encoder reads the question and the passage together. "
	text := strings.Repeat(sentence, 6)
	var cs []cand
	owner := map[int]int{}
	for o := 0; o < 12; o++ {
		s := 0.6 - 0.02*float64(o%8)
		cs = append(cs, cand{d: d, o: o, S: s, rel: s - 0.3, cost: papertree.CountTokens(text), text: text, score: s})
		owner[o] = o / 8
	}
	return cs, owner
}

func TestSelectSoft(t *testing.T) {
	tests := []struct {
		name        string
		R           []float64
		budget      int
		wantSecond  bool // does the runner-up section contribute evidence?
		wantFirstAt int  // at least this many leaves from the best section
	}{
		{"near tie: both sections share the budget", []float64{0.50, 0.49}, 512, true, 2},
		{"confident: the runner-up's share is too small to keep", []float64{0.50, 0.30}, 512, false, 4},
		{"moderate gap, large budget: the runner-up gets a hedge", []float64{0.50, 0.40}, 1024, true, 4},
		{"moderate gap, small budget: no room for a hedge", []float64{0.50, 0.40}, 168, false, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs, owner := softCands()
			out := selectSoft(cs, owner, tc.R, 0.05, tc.budget, "encoder question")
			used, first, second := 0, 0, false
			for i, c := range out {
				used += c.cost
				if i > 0 && out[i-1].o >= c.o {
					t.Fatalf("not in document order: %d after %d", c.o, out[i-1].o)
				}
				if owner[c.o] == 0 {
					first++
				} else {
					second = true
				}
			}
			if used > tc.budget {
				t.Fatalf("used %d tokens of %d", used, tc.budget)
			}
			if second != tc.wantSecond {
				t.Fatalf("runner-up contributes = %v, want %v (selection %v)", second, tc.wantSecond, out)
			}
			if first < tc.wantFirstAt {
				t.Fatalf("best section gave %d leaves, want >= %d", first, tc.wantFirstAt)
			}
		})
	}
}
