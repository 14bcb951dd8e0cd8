package retrieve

import (
	querypkg "github.com/papertree/papertree/backend/query"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// kwPaper is a paper with one section per leaf text; leaf orders are
// returned in the order of texts.
func kwPaper(texts ...string) (*PaperData, []int) {
	sec := &papertree.Node{Kind: papertree.KindSection, Title: "1 Body"}
	for _, t := range texts {
		sec.Children = append(sec.Children, &papertree.Node{Kind: papertree.KindSegment, Text: t, Tokens: papertree.CountTokens(t)})
	}
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "P", Children: []*papertree.Node{sec}}
	d := NewPaperData(&papertree.Paper{ID: 1, Title: "P", Root: root}, nil, nil, nil)
	var leaves []int
	for o, n := range d.Nodes {
		if n.IsLeaf() {
			leaves = append(leaves, o)
		}
	}
	return d, leaves
}

func TestSentKeyword(t *testing.T) {
	common := "The word vectors are trained on a large corpus of text."
	filler := []string{
		"Word vectors capture the meaning of words.",
		"We evaluate the word vectors on analogy tasks.",
		"Vectors of rare words are noisy.",
		"The vectors improve named entity recognition.",
	}
	tests := []struct {
		name   string
		texts  []string
		query  string
		better int // index into texts of the leaf that must score higher
		worse  int
	}{
		{"a sentence holding the paper's rare term beats one holding its common terms",
			append([]string{common, "We also train on 42 billion tokens of Common Crawl data."}, filler...),
			"How many tokens of Common Crawl were the word vectors trained on?", 1, 0},
		{"a shorter sentence with the same terms scores higher (length normalisation)",
			append([]string{"The Common Crawl data were cleaned, deduplicated, tokenised, lower-cased, filtered by language and split into training and validation parts before any of the experiments reported below.", "We use Common Crawl data."}, filler...),
			"Which Common Crawl data is used?", 1, 0},
		{"a passage without any question term scores below one with a term",
			append([]string{"Results are in Table 2.", common}, filler...),
			"What corpus are the vectors trained on?", 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, leaves := kwPaper(tc.texts...)
			k, v := newSentKeyword(d, &querypkg.Question{Terms: QuestionTerms(tc.query)}, leaves)
			if k == nil {
				t.Fatal("no signal")
			}
			b, w := v[leaves[tc.better]], v[leaves[tc.worse]]
			if b <= w {
				t.Fatalf("score %.3f of %q not above %.3f of %q", b, tc.texts[tc.better], w, tc.texts[tc.worse])
			}
			for _, o := range leaves {
				if v[o] < 0 || v[o] > 1 {
					t.Fatalf("score %.3f outside [0, 1]", v[o])
				}
			}
			// The trimming scorer agrees with the per-leaf scores.
			if got := k.sentence(tc.texts[tc.better]); len(papertree.SplitSentences(tc.texts[tc.better])) == 1 && got != b {
				t.Fatalf("sentence() = %.3f, leaf score %.3f", got, b)
			}
		})
	}
}

func TestSentKeywordEdgeCases(t *testing.T) {
	d, leaves := kwPaper("Word vectors capture meaning.", "We train on Common Crawl.", "Results are in Table 2.")
	tests := []struct {
		name    string
		query   string
		leaves  []int
		wantNil bool
		zero    []int // indices into leaves that must score 0
	}{
		{"no question term in the paper: no signal", "What about zebras?", leaves, true, []int{0, 1, 2}},
		{"leaves left out (bibliography) score 0", "Which data do they train on?", leaves[:1], true, []int{1, 2}},
		{"a leaf without the terms scores 0", "Which data do they train on?", leaves, false, []int{0, 2}},
		{"no question terms at all", "", leaves, true, []int{0, 1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k, v := newSentKeyword(d, &querypkg.Question{Terms: QuestionTerms(tc.query)}, tc.leaves)
			if (k == nil) != tc.wantNil {
				t.Fatalf("signal nil = %v, want %v", k == nil, tc.wantNil)
			}
			for _, i := range tc.zero {
				if v[leaves[i]] != 0 {
					t.Fatalf("leaf %d scores %.3f, want 0", i, v[leaves[i]])
				}
			}
			if k == nil && k.sentence("We train on Common Crawl.") != 0 {
				t.Fatal("a nil signal scores a sentence")
			}
		})
	}
}

// An unknown question term lowers every score: a paper that lacks part of
// the question must not look as good as one that holds all of it.
func TestSentKeywordMissingTermLowersScores(t *testing.T) {
	d, leaves := kwPaper("We train on Common Crawl.", "Word vectors capture meaning.", "Results are in Table 2.")
	_, full := newSentKeyword(d, &querypkg.Question{Terms: QuestionTerms("Do they train on Common Crawl?")}, leaves)
	_, part := newSentKeyword(d, &querypkg.Question{Terms: QuestionTerms("Do they train on Common Crawl with zebras?")}, leaves)
	if part[leaves[0]] >= full[leaves[0]] {
		t.Fatalf("with a missing term %.3f, without %.3f", part[leaves[0]], full[leaves[0]])
	}
}

func TestKeywordHedge(t *testing.T) {
	d := &PaperData{Paper: &papertree.Paper{ID: 1}}
	other := &PaperData{Paper: &papertree.Paper{ID: 2}}
	topic := strings.Repeat("The model is trained with a large batch on many machines for a long time. ", 4)
	answer := strings.Repeat("Training details are given in the appendix. ", 6) + "Our models have 4 layers of LSTMs, each of which resides on a separate GPU."
	mk := func(d *PaperData, o int, S, kwv float64, text string) cand {
		return cand{d: d, o: o, S: S, rel: S - 0.3, cost: papertree.CountTokens(text), text: text, score: S, kwv: kwv}
	}
	query := "How many LSTM layers do the models have and where does each reside?"
	tests := []struct {
		name     string
		sel      []cand
		pool     []cand
		budget   int
		wantO    int // the hedge's order, -1 for none
		wantText string
		dropped  int // selected passages dropped to make room
	}{
		{"the best keyword passage off the selection adds its answering sentence",
			[]cand{mk(d, 0, 0.9, 0.2, topic)}, []cand{mk(d, 0, 0.9, 0.2, topic), mk(d, 1, 0.6, 0.8, answer)}, 512, 1, "4 layers of LSTMs", 0},
		{"already selected: nothing changes",
			[]cand{mk(d, 1, 0.6, 0.8, answer)}, []cand{mk(d, 0, 0.9, 0.2, topic), mk(d, 1, 0.6, 0.8, answer)}, 512, -1, "", 0},
		{"a full budget drops the least relevant passage to make room",
			[]cand{mk(d, 0, 0.9, 0.2, topic), mk(d, 2, 0.7, 0.1, topic)}, []cand{mk(d, 1, 0.6, 0.8, answer)}, 2 * papertree.CountTokens(topic), 1, "4 layers of LSTMs", 1},
		{"the most relevant passage is never dropped to make room",
			[]cand{mk(d, 0, 0.9, 0.2, topic)}, []cand{mk(d, 1, 0.6, 0.8, answer)}, papertree.CountTokens(topic) + 10, -1, "", 0},
		{"no keyword signal: nothing changes",
			[]cand{mk(d, 0, 0.9, 0, topic)}, []cand{mk(d, 1, 0.6, 0, answer)}, 512, -1, "", 0},
		{"a paper the selection does not hold is not hedged",
			[]cand{mk(d, 0, 0.9, 0.2, topic)}, []cand{mk(other, 1, 0.6, 0.8, answer)}, 512, -1, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := keywordHedge(tc.sel, tc.pool, tc.budget, querypkg.Parse(query))
			used := 0
			var added *cand
			inSel := map[int]bool{}
			for _, c := range tc.sel {
				inSel[c.o] = true
			}
			kept := 0
			for i, c := range out {
				used += c.cost
				if i > 0 && out[i-1].o >= c.o {
					t.Fatalf("not in document order: %d after %d", c.o, out[i-1].o)
				}
				if inSel[c.o] {
					kept++
				} else {
					added = &out[i]
				}
			}
			if used > tc.budget {
				t.Fatalf("used %d tokens of %d", used, tc.budget)
			}
			switch {
			case tc.wantO < 0 && added != nil:
				t.Fatalf("added %d (%q), want none", added.o, added.text)
			case tc.wantO >= 0 && added == nil:
				t.Fatalf("nothing added, want %d", tc.wantO)
			case added != nil && (added.o != tc.wantO || !strings.Contains(added.text, tc.wantText) || added.cost > keywordKeep):
				t.Fatalf("added %d (%d tokens) %q, want %d with %q", added.o, added.cost, added.text, tc.wantO, tc.wantText)
			}
			if d := len(tc.sel) - kept; d != tc.dropped {
				t.Fatalf("dropped %d selected passages, want %d", d, tc.dropped)
			}
		})
	}
}

// The cut-off compares scores without the sentence keyword share, so the
// share does not make it stricter.
func TestCutoffIgnoresKeywordShare(t *testing.T) {
	d := &PaperData{Paper: &papertree.Paper{ID: 1}}
	cs := []cand{
		{d: d, o: 0, S: 1.0, lex: 0.4}, // 0.6 without its keyword share
		{d: d, o: 1, S: 0.5, lex: 0.1}, // 0.4: within 0.24 of 0.6
		{d: d, o: 2, S: 0.3},           // 0.3: too far
	}
	out := cutoff(cs, 0.24)
	if len(out) != 2 || out[0].o != 0 || out[1].o != 1 {
		t.Fatalf("kept %v, want orders 0 and 1", out)
	}
}

// The cut-off keeps a prefix of the ranking by the full score: a passage
// scoring above one it keeps stays, even when its keyword share puts it
// below the margin (a question's second passage was cut while its third
// stayed).
func TestCutoffKeepsARankingPrefix(t *testing.T) {
	d := &PaperData{Paper: &papertree.Paper{ID: 1}}
	cs := []cand{
		{d: d, o: 0, S: 1.0, lex: 0.1},  // 0.9 without its keyword share
		{d: d, o: 1, S: 0.95, lex: 0.5}, // 0.45: below the margin, but above o=2's full score
		{d: d, o: 2, S: 0.8},            // 0.8: within the margin
		{d: d, o: 3, S: 0.5},            // below every kept passage
	}
	out := cutoff(cs, 0.24)
	if len(out) != 3 || out[0].o != 0 || out[1].o != 1 || out[2].o != 2 {
		t.Fatalf("kept %v, want orders 0, 1 and 2", out)
	}
}

// With one paper searched, a sentence holding the question's term that the
// paper rarely uses outranks one holding only the paper's topic word, which
// is in every passage; counting every term alike rates the two the same.
func TestBestSentenceWeighsTermsWithinThePaper(t *testing.T) {
	d, leaves := kwPaper(
		"Capsules are trained as groups of neurons whose activity vector represents an entity.",
		"Each capsule is trained to predict the output of the capsules in the layer above.",
		"We add a reconstruction loss and the digit capsules encode the instantiation parameters.",
		"The capsule network is trained on shifted digits.",
		"Routing between capsules is trained with three iterations.",
	)
	q := querypkg.Parse("How is the reconstruction penalty weighted in capsule training?")
	plain := bestSentence(d, q, nil)
	within := bestSentence(d, q, leaves)
	// Leaf 3 holds "capsul" and "train" (in 5 and 4 of the 5 leaves), leaf
	// 2 "reconstruct" (in 1) and "capsul": counted alike, they tie.
	if plain[leaves[2]] != plain[leaves[3]] {
		t.Fatalf("unweighted: %.3f and %.3f, want a tie (fixture)", plain[leaves[2]], plain[leaves[3]])
	}
	if within[leaves[2]] <= within[leaves[3]] {
		t.Errorf("within the paper: the reconstruction sentence %.3f, the topic sentence %.3f; want it higher", within[leaves[2]], within[leaves[3]])
	}
}
