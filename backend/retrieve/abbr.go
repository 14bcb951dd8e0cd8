package retrieve

import (
	"github.com/papertree/papertree/backend/abbrev"
	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

// abbreviations are the abbreviations d defines in its own text (abbrev,
// Schwartz & Hearst), each as the content stems of its short form and of
// its long form, found once per loaded paper (about 1 ms for 60 KB of
// text, BenchmarkFind). In each searched paper's own signals (best
// sentence, sentence keyword BM25, trimming, the keyword hedge's new-terms
// test), a question that says one form has its terms found in that paper's
// sentences that say the other (query.Question.Same): "Why is the
// interquartile range robust?" and the paper's "without affecting the IQR
// at all". The same term, not another one: a sentence holding both forms
// counts it once, and a question using both forms is left as it is.
func abbreviations(d *PaperData) [][2][]string {
	d.abbrOnce.Do(func() {
		seen := map[string]bool{}
		for _, n := range d.Nodes {
			if !n.IsLeaf() || n.Role == papertree.RoleReferences {
				continue
			}
			for _, p := range abbrev.Find(n.Text) {
				short := distinct(embedding.ContentStems(p.Short))
				long := distinct(embedding.ContentStems(p.Long))
				if len(short) == 0 || len(long) == 0 || query.ContainsAll(long, short) || query.ContainsAll(short, long) {
					continue
				}
				k := p.Short + "\x00" + p.Long
				if seen[k] {
					continue
				}
				seen[k] = true
				d.abbr = append(d.abbr, [2][]string{short, long})
			}
		}
	})
	return d.abbr
}
