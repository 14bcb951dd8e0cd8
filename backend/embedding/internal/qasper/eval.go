package qasper

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Method ranks one paper's paragraphs for its questions. Prepare sees the
// paragraphs once (to index or embed them) and returns a scorer for queries;
// higher scores rank first.
type Method interface {
	Name() string
	Prepare(paragraphs []string) (func(query string) ([]float64, error), error)
}

// Metrics are means over questions.
type Metrics struct {
	Method string
	// Questions counted for EvidenceF1 (all questions of the papers).
	Questions int
	// Ranked counts questions with at least one gold text paragraph present
	// among the paper's paragraphs; recall and MRR are means over these.
	Ranked                      int
	Recall1, Recall3, Recall5   float64
	MRR                         float64
	EvidenceF1                  float64 // top-2 paragraphs, QASPER set F1, max over annotations
	EvidenceF1Answerable        float64 // same, over questions with some non-empty gold
	answerable                  int
	sumR1, sumR3, sumR5, sumMRR float64
	sumF1, sumF1Answerable      float64
}

// Evaluate runs m over every question of papers.
func Evaluate(papers []Paper, m Method) (Metrics, error) {
	out := Metrics{Method: m.Name()}
	for _, p := range papers {
		if len(p.Questions) == 0 || len(p.Paragraphs) == 0 {
			continue
		}
		score, err := m.Prepare(p.Paragraphs)
		if err != nil {
			return out, fmt.Errorf("prepare %s: %w", p.ID, err)
		}
		index := make(map[string]int, len(p.Paragraphs))
		for i, para := range p.Paragraphs {
			index[para] = i
		}
		for _, q := range p.Questions {
			s, err := score(q.Text)
			if err != nil {
				return out, fmt.Errorf("score %s: %w", q.ID, err)
			}
			if len(s) != len(p.Paragraphs) {
				return out, fmt.Errorf("score %s: %d scores for %d paragraphs", q.ID, len(s), len(p.Paragraphs))
			}
			rank := Rank(s)
			out.add(q, rank, p.Paragraphs, index)
		}
	}
	out.finish()
	return out, nil
}

// Rank returns paragraph indices by descending score; ties keep paper order
// so the ranking is deterministic.
func Rank(s []float64) []int {
	idx := make([]int, len(s))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return s[idx[a]] > s[idx[b]] })
	return idx
}

func (m *Metrics) add(q Question, rank []int, paras []string, index map[string]int) {
	m.Questions++
	// Evidence F1 of the top-2 paragraphs, max over annotations; an
	// annotation with empty gold scores 1 only against an empty prediction
	// (never, here), as the QASPER evaluator does.
	top := map[string]bool{}
	for _, i := range rank[:min(2, len(rank))] {
		top[paras[i]] = true
	}
	best := 0.0
	hasGold := false
	for _, gold := range q.Gold {
		if len(gold) > 0 {
			hasGold = true
		}
		best = math.Max(best, setF1(top, gold))
	}
	m.sumF1 += best
	if hasGold {
		m.answerable++
		m.sumF1Answerable += best
	}

	// Ranking metrics over annotations whose gold paragraphs exist.
	pos := make([]int, len(rank)) // paragraph index -> 1-based rank
	for r, i := range rank {
		pos[i] = r + 1
	}
	var r1, r3, r5, rr float64
	counted := false
	for _, gold := range q.Gold {
		var ranks []int
		for _, g := range gold {
			if i, ok := index[g]; ok {
				ranks = append(ranks, pos[i])
			}
		}
		if len(ranks) == 0 {
			continue
		}
		counted = true
		n := float64(len(uniqueStrings(gold)))
		var h1, h3, h5 float64
		first := math.MaxInt
		for _, r := range ranks {
			if r <= 1 {
				h1++
			}
			if r <= 3 {
				h3++
			}
			if r <= 5 {
				h5++
			}
			first = min(first, r)
		}
		r1 = math.Max(r1, h1/n)
		r3 = math.Max(r3, h3/n)
		r5 = math.Max(r5, h5/n)
		rr = math.Max(rr, 1/float64(first))
	}
	if counted {
		m.Ranked++
		m.sumR1 += r1
		m.sumR3 += r3
		m.sumR5 += r5
		m.sumMRR += rr
	}
}

func uniqueStrings(s []string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, x := range s {
		m[x] = true
	}
	return m
}

func setF1(pred map[string]bool, gold []string) float64 {
	g := uniqueStrings(gold)
	if len(pred) == 0 && len(g) == 0 {
		return 1
	}
	if len(pred) == 0 || len(g) == 0 {
		return 0
	}
	common := 0
	for x := range pred {
		if g[x] {
			common++
		}
	}
	if common == 0 {
		return 0
	}
	p := float64(common) / float64(len(pred))
	r := float64(common) / float64(len(g))
	return 2 * p * r / (p + r)
}

func (m *Metrics) finish() {
	if m.Questions > 0 {
		m.EvidenceF1 = m.sumF1 / float64(m.Questions)
	}
	if m.answerable > 0 {
		m.EvidenceF1Answerable = m.sumF1Answerable / float64(m.answerable)
	}
	if m.Ranked > 0 {
		n := float64(m.Ranked)
		m.Recall1, m.Recall3, m.Recall5, m.MRR = m.sumR1/n, m.sumR3/n, m.sumR5/n, m.sumMRR/n
	}
}

// Table formats metrics as a Markdown table.
func Table(rows []Metrics) string {
	var b strings.Builder
	b.WriteString("| method | questions | ranked | R@1 | R@3 | R@5 | MRR | evidence F1 (top-2) | F1 answerable |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n",
			r.Method, r.Questions, r.Ranked, r.Recall1, r.Recall3, r.Recall5, r.MRR, r.EvidenceF1, r.EvidenceF1Answerable)
	}
	return b.String()
}
