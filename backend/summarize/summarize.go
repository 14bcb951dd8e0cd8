// Package summarize writes the structure-anchored summary of every segment
// (PT-RAG sec. 3.2.2). A summary is conditioned on four signals: the paper
// title T, the hierarchical path H, the segment C_i and the previous
// segment's summary sigma_(i-1) (empty for the first segment of a section).
//
// This package holds the extractive summarizer, the one that runs with no
// model: it anchors the summary to the path, keeps the segment's most central
// sentences (centrality measured against the segment, the path and the
// title), and carries over the key terms of the previous summary so that a
// segment in the middle of an argument still names what the argument is
// about. LLM-written summaries replace it when a model is configured, with
// this as the fallback.
//
// Data flow: treebuild -> summarize -> store. Summaries are deterministic.
package summarize

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/papertree"
)

// Input holds the four signals of one summary.
type Input struct {
	PaperTitle  string
	Path        []string // section titles from the top-level section down to the segment's section
	Segment     string
	PrevSummary string // "" for the first segment of a section
}

// MaxTokens bounds an extractive summary's body (before the path anchor).
const MaxTokens = 80

// Extractive returns the extractive structure-anchored summary of in.
func Extractive(in Input) string {
	sents := papertree.SplitSentences(in.Segment)
	var b strings.Builder
	if len(in.Path) > 0 {
		b.WriteString(strings.Join(in.Path, " > "))
		b.WriteString(". ")
	}
	if len(sents) == 0 {
		return strings.TrimSpace(b.String())
	}
	picked := centralSentences(sents, in, MaxTokens)
	b.WriteString(strings.Join(picked, " "))
	if carry := keyTerms(in.PrevSummary, in.Segment, 4); len(carry) > 0 {
		b.WriteString(" (Continues: ")
		b.WriteString(strings.Join(carry, ", "))
		b.WriteString(".)")
	}
	return b.String()
}

// centralSentences picks the highest-scoring sentences up to maxTokens and
// returns them in their original order. A sentence scores by the cosine of
// its term vector with the segment's (centrality) plus its overlap with the
// title and path terms (anchoring); the first sentence gets a small lead bonus
// because papers state the point of a paragraph first.
func centralSentences(sents []string, in Input, maxTokens int) []string {
	anchor := termCounts(in.PaperTitle + " " + strings.Join(in.Path, " "))
	whole := termCounts(in.Segment)
	type scored struct {
		i     int
		score float64
		tok   int
	}
	ss := make([]scored, len(sents))
	for i, s := range sents {
		tc := termCounts(s)
		score := cosine(tc, whole) + 0.3*overlap(tc, anchor)
		if i == 0 {
			score += 0.1
		}
		if len(tc) < 3 {
			score *= 0.5 // fragments, equations, "See Table 2."
		}
		ss[i] = scored{i, score, papertree.CountTokens(s)}
	}
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].score > ss[b].score })
	var keep []int
	used := 0
	for _, s := range ss {
		if used > 0 && used+s.tok > maxTokens {
			continue
		}
		keep = append(keep, s.i)
		used += s.tok
		if used >= maxTokens {
			break
		}
	}
	sort.Ints(keep)
	out := make([]string, 0, len(keep))
	for _, i := range keep {
		s := sents[i]
		if papertree.CountTokens(s) > maxTokens {
			s = truncateTokens(s, maxTokens)
		}
		out = append(out, s)
	}
	return out
}

// keyTerms returns up to n terms of prev (by frequency, first occurrence
// breaking ties) that the current segment does not already contain.
func keyTerms(prev, current string, n int) []string {
	if prev == "" {
		return nil
	}
	cur := termCounts(current)
	counts := map[string]int{}
	var order []string
	for _, w := range words(prev) {
		if stop[w] || len(w) < 3 || cur[w] > 0 {
			continue
		}
		if counts[w] == 0 {
			order = append(order, w)
		}
		counts[w]++
	}
	sort.SliceStable(order, func(a, b int) bool { return counts[order[a]] > counts[order[b]] })
	if len(order) > n {
		order = order[:n]
	}
	return order
}

func truncateTokens(s string, max int) string {
	fs := strings.Fields(s)
	var b strings.Builder
	for _, f := range fs {
		if papertree.CountTokens(b.String()+" "+f) > max {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f)
	}
	return b.String() + " …"
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	})
}

func termCounts(s string) map[string]float64 {
	m := map[string]float64{}
	for _, w := range words(s) {
		if stop[w] || len(w) < 2 {
			continue
		}
		m[w]++
	}
	return m
}

func cosine(a, b map[string]float64) float64 {
	var dot, na, nb float64
	for k, v := range a {
		na += v * v
		dot += v * b[k]
	}
	for _, v := range b {
		nb += v * v
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

func overlap(a, anchor map[string]float64) float64 {
	if len(a) == 0 || len(anchor) == 0 {
		return 0
	}
	hit := 0
	for k := range a {
		if anchor[k] > 0 {
			hit++
		}
	}
	return float64(hit) / float64(len(anchor))
}

// Paper fills Node.Summary of every segment of p with Extractive summaries,
// carrying the previous summary within each section.
func Paper(p *papertree.Paper) {
	if p == nil || p.Root == nil {
		return
	}
	p.Root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		if n.IsLeaf() {
			return false
		}
		prev := ""
		titles := papertree.PathTitles(path)[1:] // drop the paper title; it is passed on its own
		for _, c := range n.Children {
			if c.Kind != papertree.KindSegment {
				continue
			}
			c.Summary = Extractive(Input{PaperTitle: p.Title, Path: titles, Segment: c.Text, PrevSummary: prev})
			prev = c.Summary
		}
		return true
	})
}

var stop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if then else of in on at to for from by with without about into onto over under
	is are was were be been being am do does did done has have had having this that these those it its they them their there here we our us
	you your he she his her i me my as than so such not no nor can could may might must shall should will would also very more most less
	least other others some any each every all both either neither which who whom whose what when where why how while during between among
	through per via using use used based et al e g i ie eg fig figure table section sec eq one two three first second new`) {
		m[w] = true
	}
	return m
}()
