package retrieve

import (
	querypkg "github.com/papertree/papertree/backend/query"
	"slices"
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
			out := selectSoft(cs, owner, tc.R, 0.05, tc.budget, querypkg.Parse("encoder question"), -1)
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

// A section the keyword signal points at (keep) gets a share of its own
// even when the softmax gives it less than minShare; the budget holds.
func TestSelectSoftKeepsKeywordSection(t *testing.T) {
	for _, tc := range []struct {
		name       string
		keep       int
		wantSecond bool
	}{
		{"no keyword section: the runner-up's share is too small to keep", -1, false},
		{"the runner-up holds the best keyword sentence: it keeps a share", 1, true},
		{"the best section holds it: nothing changes", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, owner := softCands()
			out := selectSoft(cs, owner, []float64{0.50, 0.30}, 0.05, 512, querypkg.Parse("encoder question"), tc.keep)
			used, second := 0, false
			for _, c := range out {
				used += c.cost
				second = second || owner[c.o] == 1
			}
			if used > 512 {
				t.Fatalf("used %d tokens of 512", used)
			}
			if second != tc.wantSecond {
				t.Fatalf("runner-up contributes = %v, want %v (selection %v)", second, tc.wantSecond, out)
			}
		})
	}
	cs, owner := softCands()
	cs[9].kwv, cs[2].kwv = 0.7, 0.4
	if got := keywordSection(cs, owner); got != 1 {
		t.Fatalf("keywordSection = %d, want 1 (the section of the best keyword passage)", got)
	}
	for i := range cs {
		cs[i].kwv = 0
	}
	if got := keywordSection(cs, owner); got != -1 {
		t.Fatalf("keywordSection with no keyword score = %d, want -1", got)
	}
}

func TestReclaimSkipped(t *testing.T) {
	d := &PaperData{Paper: &papertree.Paper{ID: 1}}
	other := &PaperData{Paper: &papertree.Paper{ID: 2}}
	short := "The masked words are predicted from both sides of the context."
	long := strings.Repeat("Intuitively, a deep bidirectional model is more powerful than a left-to-right model. ", 12) +
		"In all of our experiments, we mask 15% of all WordPiece tokens in each sequence at random."
	mk := func(d *PaperData, o int, S float64, text string) cand {
		n := papertree.CountTokens(text)
		return cand{d: d, o: o, S: S, rel: S - 0.3, cost: n, text: text, score: S}
	}
	query := "What percentage of WordPiece tokens does BERT mask at random?"
	tests := []struct {
		name     string
		sel      []cand
		pool     []cand
		budget   int
		margin   float64
		wantO    int // the reclaimed passage's order, -1 for none
		wantText string
	}{
		{"long passage near the best is trimmed to its answering sentence",
			[]cand{mk(d, 1, 0.87, short)}, []cand{mk(d, 1, 0.87, short), mk(d, 0, 0.80, long)}, 120, 0.24, 0, "we mask 15%"},
		{"a passage too far below the best is not reclaimed",
			[]cand{mk(d, 1, 0.87, short)}, []cand{mk(d, 0, 0.70, long)}, 120, 0.24, -1, ""},
		{"no room left: nothing is added",
			[]cand{mk(d, 1, 0.87, long)}, []cand{mk(d, 0, 0.86, short)}, papertree.CountTokens(long) + 10, 0.24, -1, ""},
		{"a paper the selection dropped stays dropped",
			[]cand{mk(d, 1, 0.87, short)}, []cand{mk(other, 0, 0.86, long)}, 400, 0.24, -1, ""},
		{"the best skipped passage wins over a weaker one",
			[]cand{mk(d, 1, 0.87, short)}, []cand{mk(d, 3, 0.70, short), mk(d, 2, 0.82, short)}, 400, 0.24, 2, short},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := reclaimSkipped(tc.sel, tc.pool, tc.budget, tc.margin, querypkg.Parse(query))
			used := 0
			var added *cand
			for i, c := range out {
				used += c.cost
				if i > 0 && out[i-1].o >= c.o {
					t.Fatalf("not in document order: %d after %d", c.o, out[i-1].o)
				}
				if c.d != tc.sel[0].d || c.o != tc.sel[0].o {
					added = &out[i]
				}
			}
			if used > tc.budget {
				t.Fatalf("used %d tokens of %d", used, tc.budget)
			}
			switch {
			case tc.wantO < 0 && added != nil:
				t.Fatalf("reclaimed %d (%q), want none", added.o, added.text)
			case tc.wantO >= 0 && added == nil:
				t.Fatalf("nothing reclaimed, want %d", tc.wantO)
			case tc.wantO >= 0 && (added.o != tc.wantO || !strings.Contains(added.text, tc.wantText)):
				t.Fatalf("reclaimed %d %q, want %d containing %q", added.o, added.text, tc.wantO, tc.wantText)
			}
			if added != nil && added.cost != papertree.CountTokens(added.text) {
				t.Fatalf("cost %d does not match the text's %d tokens", added.cost, papertree.CountTokens(added.text))
			}
		})
	}
}

func TestKeepBest(t *testing.T) {
	d := &PaperData{Paper: &papertree.Paper{ID: 1}}
	long := strings.Repeat("Two advances are ordered boosting and a new algorithm for categorical features. ", 3) +
		"Both techniques were created to fight a prediction shift caused by target leakage."
	filler := strings.Repeat("The complexity of each component is shown in the table. ", 8)
	mk := func(o int, S float64, text string) cand {
		return cand{d: d, o: o, S: S, rel: S - 0.3, cost: papertree.CountTokens(text), text: text, score: S}
	}
	best := mk(0, 0.76, long)
	cut := best
	cut.text = cutWords(long, 20)
	cut.cost = papertree.CountTokens(cut.text)
	cut.trim = true
	others := []cand{mk(1, 0.72, filler), mk(2, 0.71, filler), mk(3, 0.65, filler)}
	budget := 3*others[0].cost + cut.cost
	tests := []struct {
		name      string
		out       []cand
		wantBest  int  // least tokens of the best passage kept
		wantDrop3 bool // the least relevant other passage gives way
	}{
		{"best passage cut short: weaker passages make room", append([]cand{cut}, others...), min(best.cost, bestKeep), true},
		{"best passage missing: it comes back", others, min(best.cost, bestKeep), true},
		{"best passage whole: nothing changes", []cand{best, others[0]}, best.cost, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			all := append([]cand{best}, others...)
			out := keepBest(append([]cand(nil), tc.out...), all, max(budget, best.cost+others[0].cost), bestKeep, querypkg.Parse("What problem do ordered boosting and categorical features fight?"))
			got, used, has3 := 0, 0, false
			for _, c := range out {
				used += c.cost
				if c.o == 0 {
					got = c.cost
				}
				has3 = has3 || c.o == 3
			}
			if got < tc.wantBest {
				t.Fatalf("best passage keeps %d tokens, want at least %d (%v)", got, tc.wantBest, out)
			}
			if used > max(budget, best.cost+others[0].cost) {
				t.Fatalf("used %d tokens of %d", used, budget)
			}
			if tc.wantDrop3 == has3 && len(tc.out) > 2 {
				t.Fatalf("least relevant passage kept = %v, want %v", has3, !tc.wantDrop3)
			}
		})
	}
}

// TestKeepBestTwoSentences: when the best passage's sentence that restates
// the question is longer than bestKeep alone, the next best sentence (the
// one that answers) is kept with it rather than cut.
func TestKeepBestTwoSentences(t *testing.T) {
	d := &PaperData{Paper: &papertree.Paper{ID: 1}}
	restate := "Two critical algorithmic advances introduced in CatBoost are the implementation of ordered boosting, " +
		"a permutation-driven alternative to the classic algorithm, and an innovative algorithm for processing categorical features."
	answer := "Both techniques were created to fight a prediction shift caused by a special kind of target leakage."
	long := "This paper presents the key algorithmic techniques behind a new gradient boosting toolkit. " + restate + " " + answer +
		" Their combination leads to better quality than other publicly available implementations on a variety of datasets."
	filler := strings.Repeat("The complexity of each component is shown in the table. ", 8)
	mk := func(o int, S float64, text string) cand {
		return cand{d: d, o: o, S: S, rel: S - 0.3, cost: papertree.CountTokens(text), text: text, score: S}
	}
	if papertree.CountTokens(restate) > bestKeep || papertree.CountTokens(restate+" "+answer) <= bestKeep {
		t.Fatalf("fixture: restating sentence %d tokens, with the answer %d; want one under and two over %d",
			papertree.CountTokens(restate), papertree.CountTokens(restate+" "+answer), bestKeep)
	}
	best := mk(0, 0.9, long)
	others := []cand{mk(1, 0.8, filler), mk(2, 0.7, filler), mk(3, 0.6, filler)}
	budget := 3*others[0].cost + 20
	q := "What problem do CatBoost's ordered boosting and categorical feature processing fight?"
	out := keepBest(append([]cand(nil), others...), append([]cand{best}, others...), budget, bestKeep, querypkg.Parse(q))
	var got *cand
	used := 0
	for i := range out {
		used += out[i].cost
		if out[i].o == 0 {
			got = &out[i]
		}
	}
	if got == nil {
		t.Fatalf("best passage not kept: %v", out)
	}
	if !strings.Contains(got.text, "fight a prediction shift") || !strings.Contains(got.text, "ordered boosting") {
		t.Fatalf("best passage kept as %q, want its two best sentences", got.text)
	}
	if used > budget {
		t.Fatalf("used %d tokens of %d", used, budget)
	}
}

// TestMergePapers: across papers, the most relevant passage stays in the
// evidence even when shorter passages of other papers have more relevance
// per token.
func TestMergePapers(t *testing.T) {
	a := &PaperData{Paper: &papertree.Paper{ID: 1}}
	b := &PaperData{Paper: &papertree.Paper{ID: 2}}
	long := strings.Repeat("For ground-based telescopes the background can account for most of the recorded events. ", 12)
	short := "A short passage that is about something else entirely in another paper."
	mk := func(d *PaperData, o int, S, base float64, text string) cand {
		return cand{d: d, o: o, S: S, rel: S - base, cost: papertree.CountTokens(text), text: text, score: S}
	}
	var all []cand
	all = append(all, mk(a, 0, 0.79, 0.4, long))
	for o := 0; o < 12; o++ {
		all = append(all, mk(b, o, 0.60, 0.3, short))
	}
	budget := 200
	if all[0].cost <= budget {
		t.Fatalf("fixture: the best passage (%d tokens) must not fit the %d budget whole", all[0].cost, budget)
	}
	for _, keep := range []bool{false, true} {
		name := map[bool]string{false: "relevance per token alone drops it", true: "merge keeps it"}[keep]
		t.Run(name, func(t *testing.T) {
			cs := append([]cand(nil), all...)
			var out []cand
			if keep {
				out = mergePapers(cs, budget, querypkg.Parse("What fraction of the recorded events can the background account for?"))
			} else {
				out = selectBudget(cs, budget)
			}
			has, used := false, 0
			for _, c := range out {
				used += c.cost
				has = has || c.d == a
			}
			if has != keep {
				t.Fatalf("best passage in the selection = %v, want %v", has, keep)
			}
			if used > budget {
				t.Fatalf("used %d tokens of %d", used, budget)
			}
		})
	}
}

// TestMergePapersBestFirst: the passage rated highest across the searched
// papers enters whole before the others, even when passages of other
// papers are more relevant per token; a long passage rated below another
// paper's best is not the one kept whole.
func TestMergePapersBestFirst(t *testing.T) {
	a := &PaperData{Paper: &papertree.Paper{ID: 1}}
	b := &PaperData{Paper: &papertree.Paper{ID: 2}}
	long := strings.Repeat("The leader replicates its log entries to the followers before it commits them. ", 8)
	weaker := "Log entries are numbered by their term."
	short := "A short passage of another paper on replicated logs."
	mk := func(d *PaperData, o int, S, base float64, text string) cand {
		return cand{d: d, o: o, S: S, rel: S - base, cost: papertree.CountTokens(text), text: text, score: S}
	}
	q := querypkg.Parse("Does the leader commit log entries before replicating them?")
	cost := func(cs []cand) int {
		n := 0
		for _, c := range cs {
			n += c.cost
		}
		return n
	}
	for _, longS := range []float64{0.80, 0.65} {
		all := []cand{mk(a, 0, longS, 0.4, long), mk(a, 1, 0.50, 0.4, weaker)}
		for o := 0; o < 12; o++ {
			all = append(all, mk(b, o, 0.70, 0.4, short))
		}
		budget := all[0].cost + 3*all[2].cost
		if out := selectBudget(append([]cand(nil), all...), budget); slices.ContainsFunc(out, func(c cand) bool { return c.o == 0 && c.d == a && c.text == long }) {
			t.Fatalf("fixture: relevance per token alone should drop the long passage: %v", out)
		}
		out := mergePapers(append([]cand(nil), all...), budget, q)
		if cost(out) > budget {
			t.Fatalf("long passage rated %.2f: used %d tokens of %d", longS, cost(out), budget)
		}
		whole := slices.ContainsFunc(out, func(c cand) bool { return c.d == a && c.o == 0 && c.text == long })
		if whole != (longS > 0.70) {
			t.Errorf("long passage rated %.2f against 0.70: whole in the evidence = %v", longS, whole)
		}
		if !slices.ContainsFunc(out, func(c cand) bool { return c.d == b }) {
			t.Errorf("long passage rated %.2f: the other paper lost all its evidence: %v", longS, out)
		}
	}
}

func TestAbstractHedge(t *testing.T) {
	leaf := func(text string) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Text: text, Tokens: papertree.CountTokens(text)}
	}
	abs := "We train language models on WebText. " + strings.Repeat("The models are evaluated in a zero-shot setting on many tasks. ", 4) +
		"Our largest model, GPT-2, is a 1.5B parameter Transformer."
	body := "The model largely follows the details of the OpenAI GPT model with a few modifications."
	weak := "Samples from the model reflect these improvements and contain coherent paragraphs of text, as shown in the appendix."
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{
		{Kind: papertree.KindSection, Title: "Abstract", Role: papertree.RoleAbstract, Children: []*papertree.Node{leaf(abs)}},
		{Kind: papertree.KindSection, Title: "2 Approach", Children: []*papertree.Node{leaf(body)}},
		{Kind: papertree.KindSection, Title: "6 Discussion", Children: []*papertree.Node{leaf(weak)}},
	}}
	d := NewPaperData(&papertree.Paper{ID: 1, Title: "P", Root: root}, nil, nil, nil)
	other := NewPaperData(&papertree.Paper{ID: 2, Title: "Q", Root: root}, nil, nil, nil)
	var ao, bo, wo int
	for o, n := range d.Nodes {
		switch n.Text {
		case abs:
			ao = o
		case body:
			bo = o
		case weak:
			wo = o
		}
	}
	mk := func(d *PaperData, o int, S float64) cand {
		n := d.Nodes[o]
		return cand{d: d, o: o, S: S, cost: n.Tokens, text: n.Text, score: S}
	}
	query := "How many parameters does GPT-2, the largest model, have?"
	tests := []struct {
		name    string
		sel     []cand
		pool    []cand
		budget  int
		wantAbs bool
	}{
		{"room left: the abstract's best sentences join", []cand{mk(d, bo, 0.9)}, []cand{mk(d, bo, 0.9), mk(d, ao, 0.4)}, 512, true},
		{"no room", []cand{mk(d, bo, 0.9)}, []cand{mk(d, ao, 0.4)}, mk(d, bo, 0.9).cost + 10, false},
		{"the abstract is already evidence", []cand{mk(d, ao, 0.9)}, []cand{mk(d, ao, 0.9)}, 512, false},
		{"only papers the answer cites", []cand{mk(d, bo, 0.9)}, []cand{mk(other, ao, 0.4)}, 512, false},
		{"a less relevant passage makes room", []cand{mk(d, bo, 0.9), mk(d, wo, 0.2)}, []cand{mk(d, ao, 0.4)},
			mk(d, bo, 0.9).cost + mk(d, wo, 0.2).cost + 10, true},
		{"a passage more relevant than the abstract stays", []cand{mk(d, bo, 0.9), mk(d, wo, 0.6)}, []cand{mk(d, ao, 0.4)},
			mk(d, bo, 0.9).cost + mk(d, wo, 0.6).cost + 10, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := abstractHedge(tc.sel, tc.pool, tc.budget, querypkg.Parse(query))
			used, got := 0, false
			for _, c := range out {
				used += c.cost
				if c.o == ao && !slices.ContainsFunc(tc.sel, func(s cand) bool { return s.o == ao }) {
					got = true
					if c.cost > abstractKeep || !strings.Contains(c.text, "1.5B parameter") {
						t.Fatalf("abstract passage %d tokens %q: want its answering sentence within %d tokens", c.cost, c.text, abstractKeep)
					}
				}
			}
			if got != tc.wantAbs {
				t.Fatalf("abstract added = %v, want %v (%d passages)", got, tc.wantAbs, len(out))
			}
			if used > tc.budget {
				t.Fatalf("used %d of %d tokens", used, tc.budget)
			}
			if slices.ContainsFunc(tc.sel, func(c cand) bool { return c.o == bo }) && !slices.ContainsFunc(out, func(c cand) bool { return c.o == bo }) {
				t.Fatalf("the most relevant passage was dropped: %d passages", len(out))
			}
		})
	}
}

// TestAddsTerms: the keyword hedge adds a passage only when one of its best
// sentences holds question terms that no selected sentence holds together.
func TestAddsTerms(t *testing.T) {
	d := &PaperData{Paper: &papertree.Paper{ID: 1}}
	mk := func(text string) cand { return cand{d: d, text: text, cost: papertree.CountTokens(text)} }
	q := "Does using smaller patches make a vision transformer more expensive to compute?"
	hedge := mk("Models with smaller patch size are computationally more expensive.")
	tests := []struct {
		name string
		sel  []cand
		want bool
	}{
		{"one selected sentence already says it", []cand{mk("A vision transformer with a smaller patch size is computationally more expensive than one with large patches.")}, false},
		{"the terms are only scattered", []cand{mk("We split each image into patches of a fixed size."), mk("The compute budget is expensive for larger models.")}, true},
		{"nothing selected", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := addsTerms(tc.sel, hedge, querypkg.Parse(q)); got != tc.want {
				t.Errorf("addsTerms = %v, want %v", got, tc.want)
			}
		})
	}
}

// A table keeps its caption, header and first row when trimmed, so it may
// not fit what keepBest first freed for it; the less relevant passages then
// make room for the whole table (Kim's Table 1, the paper's best passage
// for "how many target classes does TREC have", had been left out).
func TestKeepBestWholeTableWhenTrimmingCannotFit(t *testing.T) {
	caption := "Table 1: Summary statistics for the datasets after tokenization. c: Number of target classes. l: Average sentence length. N: Dataset size. |V|: Vocabulary size. Test: Test set size (CV means there was no standard train/test split and thus 10-fold CV was used)."
	txt := papertree.Table{Caption: caption, Header: []string{"Data", "c", "l", "N", "|V|", "Test"}, Rows: [][]string{
		{"MR", "2", "20", "10662", "18765", "CV"}, {"TREC", "6", "10", "5952", "9592", "500"}, {"SST-1", "5", "18", "11855", "17836", "2210"}}}.Format()
	d := tablePaper(&papertree.Node{Kind: papertree.KindSegment, Role: papertree.RoleTable, Text: txt, Tokens: papertree.CountTokens(txt)})
	o := -1
	for i, n := range d.Nodes {
		if n.IsLeaf() {
			o = i
		}
	}
	q := querypkg.Parse("How many target classes does the TREC dataset have?")
	best := cand{d: d, o: o, S: 0.9, rel: 0.6, cost: d.Nodes[o].Tokens, text: txt, score: 0.9}
	prose := func(o int, S float64, n int) cand {
		text := strings.Repeat("We train the model with dropout on every layer. ", n)
		return cand{d: d, o: o, S: S, rel: S - 0.3, cost: papertree.CountTokens(text), text: text, score: S}
	}
	others := []cand{prose(10, 0.8, 10), prose(11, 0.7, 10), prose(12, 0.5, 7)}
	used := 0
	for _, c := range others {
		used += c.cost
	}
	budget := used + 10
	freed := budget - used + others[2].cost // what making room for bestKeep frees
	if trimmed := papertree.CountTokens(trimTableRows(txt, q, freed, false, nil)); trimmed <= freed || freed < bestKeep || best.cost > budget-others[0].cost {
		t.Fatalf("fixture: table %d tokens, trimmed to %d in %d freed of %d", best.cost, trimmed, freed, budget)
	}
	out := keepBest(append([]cand(nil), others...), append([]cand{best}, others...), budget, bestKeep, q)
	total := 0
	var got *cand
	for i := range out {
		total += out[i].cost
		if out[i].o == o {
			got = &out[i]
		}
	}
	if got == nil || !strings.Contains(got.text, "TREC") {
		t.Fatalf("the table is not kept: %v", out)
	}
	if total > budget {
		t.Fatalf("used %d tokens of %d", total, budget)
	}
}
