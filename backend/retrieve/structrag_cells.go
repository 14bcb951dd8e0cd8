package retrieve

import (
	"context"
	"regexp"
	"sort"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// Cell is the extractive answer of one paper for one aspect (a StructRAG
// table cell, a Compare cell): the paper's best sentence for the aspect with
// the leaf it came from. Found is false when no sentence of the paper
// mentions the aspect (or its usual synonyms) in a passage that is about it:
// the cell then says so instead of guessing.
type Cell struct {
	Found    bool
	Sentence string
	Evidence papertree.Evidence // the leaf, with Text = the quoted sentence(s)
	Score    float64
}

// aspectSynonyms widens common comparison aspects with the words papers use
// for them. These are generic research vocabulary, not fitted to any file.
var aspectSynonyms = map[string]string{
	"dataset":      "dataset datasets corpus corpora benchmark data collection",
	"data":         "dataset datasets corpus corpora benchmark data",
	"model":        "model architecture network method approach",
	"method":       "method approach model algorithm propose framework",
	"metric":       "metric metrics evaluation measure accuracy f1 precision recall bleu score",
	"metrics":      "metric metrics evaluation measure accuracy f1 precision recall bleu score",
	"evaluation":   "evaluation evaluate metric accuracy results",
	"results":      "results result performance outperforms achieves accuracy improvement",
	"result":       "results result performance outperforms achieves accuracy improvement",
	"task":         "task problem classification detection recognition",
	"baseline":     "baseline baselines compare compared previous state-of-the-art",
	"baselines":    "baseline baselines compare compared previous state-of-the-art",
	"limitation":   "limitation limitations drawback however future work fails",
	"limitations":  "limitation limitations drawback however future work fails",
	"training":     "training trained optimizer learning rate epochs batch",
	"code":         "code available github release open-source",
	"language":     "language languages english multilingual",
	"contribution": "contribution contributions we propose introduce novel",
}

// aspectCues are the phrasings papers use when they state an aspect of
// their own work (generic research prose, not fitted to any file); a
// sentence with one gets a bonus in BestCell.
var aspectCues = map[string]*regexp.Regexp{
	"method":      regexp.MustCompile(`(?i)\bwe (?:propose|introduce|present|describe|develop)\b|\bour (?:model|method|approach|system|framework)\b`),
	"model":       regexp.MustCompile(`(?i)\bwe (?:propose|introduce|present|use|train)\b|\bour (?:model|network|architecture)\b`),
	"dataset":     regexp.MustCompile(`(?i)\b(?:we (?:use|used|evaluate|evaluated|conduct|collect|collected)|trained on|experiments on|evaluated on|consists of)\b`),
	"data":        regexp.MustCompile(`(?i)\b(?:we (?:use|used|evaluate|evaluated|collect|collected)|trained on|experiments on|evaluated on|consists of)\b`),
	"results":     regexp.MustCompile(`(?i)\b(?:outperform\w*|achiev\w*|improv\w*|state[- ]of[- ]the[- ]art|best)\b`),
	"result":      regexp.MustCompile(`(?i)\b(?:outperform\w*|achiev\w*|improv\w*|state[- ]of[- ]the[- ]art|best)\b`),
	"metric":      regexp.MustCompile(`(?i)\b(?:accuracy|f1|bleu|rouge|precision|recall|error rate|perplexity|auc|map|measured? (?:by|with|using))\b`),
	"metrics":     regexp.MustCompile(`(?i)\b(?:accuracy|f1|bleu|rouge|precision|recall|error rate|perplexity|auc|map|measured? (?:by|with|using))\b`),
	"limitation":  regexp.MustCompile(`(?i)\b(?:limitation\w*|fails?|cannot|future work|drawback\w*)\b`),
	"limitations": regexp.MustCompile(`(?i)\b(?:limitation\w*|fails?|cannot|future work|drawback\w*)\b`),
}

// skipSection reports whether leaf o sits in back matter that never states
// a paper's own aspects (references, acknowledgements).
func skipSection(d *PaperData, o int) bool {
	for a := d.Parent[o]; a > 0; a = d.Parent[a] {
		t := strings.ToLower(stripNumber(d.Nodes[a].Title))
		for _, p := range []string{"reference", "bibliograph", "acknowledg", "literature cited"} {
			if strings.HasPrefix(t, p) {
				return true
			}
		}
	}
	return false
}

// aboutOthers reports whether leaf o sits in a section about other
// people's work (related work, background): a paper's own dataset or model
// is stated elsewhere, and these sections mention every aspect of every
// cited paper.
func aboutOthers(d *PaperData, o int) bool {
	for a := d.Parent[o]; a > 0; a = d.Parent[a] {
		t := strings.ToLower(stripNumber(d.Nodes[a].Title))
		for _, p := range []string{"related work", "background", "previous work", "prior work", "literature review"} {
			if strings.HasPrefix(t, p) {
				return true
			}
		}
	}
	return false
}

// aspectTerms are the crude stems an aspect's evidence must mention.
func aspectTerms(aspect string) []string {
	base := contentTermsAll(aspect)
	var extra []string
	for _, w := range strings.Fields(strings.ToLower(aspect)) {
		if syn, ok := aspectSynonyms[strings.Trim(w, ".,;:()")]; ok {
			extra = append(extra, contentTermsAll(syn)...)
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range append(base, extra...) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// contentTermsAll is contentTerms without the stop list for short aspects
// ("F1", "data"): every word of 2+ characters counts.
func contentTermsAll(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	}) {
		if len(w) < 2 || (len(w) >= 4 && stopWords[w]) {
			continue
		}
		if len(w) > 6 {
			w = w[:6]
		}
		out = append(out, w)
	}
	return out
}

// hasTerm reports whether text has a word starting with one of terms
// (terms shorter than 4 characters must match a whole word).
func hasTerm(terms []string, text string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	}) {
		for _, t := range terms {
			if w == t || len(t) >= 4 && strings.HasPrefix(w, t) {
				return true
			}
		}
	}
	return false
}

// cellLeaves is how many of a paper's leaves are read for one cell.
const cellLeaves = 4

// BestCell finds paper d's best sentence for aspect (context, e.g. the
// question, narrows it; may be ""). Leaves are ranked by their stored
// vectors against the aspect query plus a bonus when their section heading
// names the aspect; the sentences of the best leaves are embedded and the
// best one that mentions the aspect's terms wins. Deterministic.
func BestCell(ctx context.Context, emb papertree.Embedder, d *PaperData, aspect, context string) (Cell, error) {
	aspect = strings.TrimSpace(aspect)
	terms := aspectTerms(aspect)
	q := aspect
	for _, w := range strings.Fields(strings.ToLower(aspect)) {
		if syn, ok := aspectSynonyms[w]; ok {
			q += " " + syn
		}
	}
	if context != "" {
		q = context + " " + q
	}
	qv, err := emb.EmbedQuery(ctx, q)
	if err != nil {
		return Cell{}, errf("embed aspect", err)
	}
	type lf struct {
		o int
		s float64
	}
	var leaves []lf
	for o, n := range d.Nodes {
		if !n.IsLeaf() || n.Kind == papertree.KindCaption && len(n.Text) < 20 || skipSection(d, o) {
			continue
		}
		s := dot(qv, d.Seg[o])
		if d.Sum[o] != nil {
			s = 0.7*s + 0.3*dot(qv, d.Sum[o])
		}
		if p := d.Parent[o]; p > 0 && hasTerm(terms, stripNumber(d.Nodes[p].Title)) {
			s += 0.15
		}
		if !hasTerm(terms, n.Text) {
			s -= 0.2
		}
		if n.Kind == papertree.KindCaption {
			s -= 0.1
		}
		if aboutOthers(d, o) {
			s -= 0.2
		}
		leaves = append(leaves, lf{o, s})
	}
	sort.SliceStable(leaves, func(i, j int) bool { return leaves[i].s > leaves[j].s })
	if len(leaves) > cellLeaves {
		leaves = leaves[:cellLeaves]
	}
	type sent struct {
		o    int
		text string
		ls   float64
	}
	var sents []sent
	var texts []string
	for _, l := range leaves {
		for _, s := range papertree.SplitSentences(d.Nodes[l.o].Text) {
			s = strings.TrimSpace(s)
			if len([]rune(s)) < 25 || len([]rune(s)) > 450 {
				continue
			}
			sents = append(sents, sent{l.o, s, l.s})
			texts = append(texts, s)
		}
	}
	if len(sents) == 0 {
		return Cell{}, nil
	}
	vs, err := emb.Embed(ctx, texts)
	if err != nil {
		return Cell{}, errf("embed sentences", err)
	}
	best, bestS := -1, 0.0
	for i, s := range sents {
		if !hasTerm(terms, s.text) {
			continue
		}
		sc := dot(qv, vs[i]) + 0.3*s.ls - 0.3*NumericShare(s.text)
		for _, w := range strings.Fields(strings.ToLower(aspect)) {
			if re := aspectCues[w]; re != nil && re.MatchString(s.text) {
				sc += 0.2
				break
			}
		}
		if best < 0 || sc > bestS {
			best, bestS = i, sc
		}
	}
	if best < 0 || bestS <= 0 {
		return Cell{}, nil
	}
	s := sents[best]
	return Cell{Found: true, Sentence: s.text, Evidence: evidenceFor(d, s.o, s.text, bestS), Score: round4(bestS)}, nil
}

// NumericShare is the share of a sentence's words that are numbers or
// symbols: table rows flattened into text read as long "sentences" of
// figures, which quote badly.
func NumericShare(s string) float64 {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0
	}
	n := 0
	for _, w := range f {
		letters := 0
		for _, r := range w {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				letters++
			}
		}
		if letters == 0 {
			n++
		}
	}
	return float64(n) / float64(len(f))
}

// evidenceFor is leaf o of d as evidence quoting text.
func evidenceFor(d *PaperData, o int, text string, score float64) papertree.Evidence {
	node := d.Nodes[o]
	titles, ids := evidencePath(d, o)
	return papertree.Evidence{
		PaperID: d.Paper.ID, PaperTitle: d.Paper.Title, NodeID: node.ID, Kind: node.Kind, Role: node.Role,
		Path: titles, PathIDs: ids, SectionID: ids[len(ids)-1], Text: text, Summary: node.Summary,
		Pages: pageList(node), Boxes: node.Boxes, Score: round4(score), Tokens: papertree.CountTokens(text), Order: node.Order,
	}
}

// CellAt is the cell quoting text from leaf o of d (for callers that chose
// the sentence themselves, e.g. Compare's aspect lexicon).
func CellAt(d *PaperData, o int, text string, score float64) Cell {
	return Cell{Found: true, Sentence: text, Evidence: evidenceFor(d, o, text, score), Score: round4(score)}
}

// InBackMatter reports whether leaf o of d sits in references,
// bibliography or acknowledgements.
func InBackMatter(d *PaperData, o int) bool { return skipSection(d, o) }

// InOthersWork reports whether leaf o of d sits in a section about other
// people's work (related work, background).
func InOthersWork(d *PaperData, o int) bool { return aboutOthers(d, o) }

// SectionTitles are the headings above order o of d, outermost first
// (without the paper's title and section numbers).
func SectionTitles(d *PaperData, o int) []string {
	var out []string
	for a := d.Parent[o]; a > 0; a = d.Parent[a] {
		out = append([]string{stripNumber(d.Nodes[a].Title)}, out...)
	}
	return out
}
