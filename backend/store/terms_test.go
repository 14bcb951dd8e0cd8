package store

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// textPaper is a one-section paper whose leaves hold texts.
func textPaper(path, title string, texts ...string) *papertree.Paper {
	sec := &papertree.Node{Kind: papertree.KindSection, Title: "1 Method"}
	for _, t := range texts {
		sec.Children = append(sec.Children, &papertree.Node{Kind: papertree.KindSegment, Text: t, Tokens: papertree.CountTokens(t)})
	}
	return &papertree.Paper{Title: title, Path: path, Pages: 1, Root: &papertree.Node{Kind: papertree.KindRoot, Title: title, Children: []*papertree.Node{sec}}}
}

// What a researcher types must find what the paper printed, under the
// index's own normalisation: "the papers never mention X" is only said when
// none of these forms occurs.
func TestPhraseCountsFindPrintedForms(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	a, err := s.SavePaper(ctx, textPaper("/a.pdf", "Translation",
		"We report BLEU on WMT’14 English-German with VGG-16/19 features.",
		"Our pre-training uses fine-tuning of the corpora.",
		"Image patches are embedded by a linear projection."), Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.SavePaper(ctx, textPaper("/b.pdf", "Trees", "Gradient boosting with oblivious trees."), Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.SavePaper(ctx, textPaper("/c.pdf", "Costs", "We set the cost C = 5 and the window W 8.", "Layer Q-\n7 feeds the output."), Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, typed string
		want        map[int64]int // papers holding it (nil: none)
	}{
		{"letters and digits apart in a formula are not the name", "C5", nil},
		{"letters and digits apart by a space are not the name", "W8", nil},
		{"letters and digits hyphenated at a line end", "Q7", map[int64]int{c: 1}},
		{"straight apostrophe finds curly", "WMT'14", map[int64]int{a: 1}},
		{"model name with slash", "VGG-16/19", map[int64]int{a: 1}},
		{"part of a hyphenated name", "VGG-16", map[int64]int{a: 1}},
		{"letters and digits typed together, printed apart", "VGG16", map[int64]int{a: 1}},
		{"plural typed, singular printed", "projections", map[int64]int{a: 1}},
		{"classical plural typed", "corpus", map[int64]int{a: 1}},
		{"compound typed together", "pretraining", map[int64]int{a: 1}},
		{"hyphen typed, printed together", "gradient-boosting", map[int64]int{b: 1}},
		{"ligature typed (NFKC)", "ﬁne-tuning", map[int64]int{a: 1}},
		{"full-width typed (NFKC)", "ＢＬＥＵ", map[int64]int{a: 1}},
		{"case", "bleu", map[int64]int{a: 1}},
		{"absent word", "AlphaFold2", nil},
		{"absent near-miss", "WMT'16", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.PhraseCounts(ctx, tc.typed, nil)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) && !(len(got) == 0 && tc.want == nil) {
				t.Errorf("PhraseCounts(%q) = %v, want %v", tc.typed, got, tc.want)
			}
		})
	}
	// Scoped to the other paper, the word is absent.
	if got, err := s.PhraseCounts(ctx, "WMT'14", []int64{b}); err != nil || len(got) != 0 {
		t.Errorf("scoped to paper %d: %v, %v; want none", b, got, err)
	}
	// Nothing to look up is an error, never "absent".
	if _, err := s.PhraseCounts(ctx, "’–", nil); err == nil {
		t.Error("a phrase with no word must be an error")
	}
}

// Every paper holding the question's rare words is ranked, and the one
// that holds more of them, more often, ranks first.
func TestPaperBM25(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	var ids []int64
	for i := 0; i < 12; i++ {
		id, err := s.SavePaper(ctx, textPaper(fmt.Sprintf("/filler%d.pdf", i), "Filler", "We train a model and report accuracy on a dataset."), Vectors{}, "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	one, _ := s.SavePaper(ctx, textPaper("/one.pdf", "Raft", "Raft elects a leader with randomized timeouts."), Vectors{}, "")
	two, _ := s.SavePaper(ctx, textPaper("/two.pdf", "Consensus",
		"Raft elects a leader.", "The leader election uses randomized timeouts.", "Raft logs are replicated."), Vectors{}, "")
	got, err := s.PaperBM25(ctx, "How does Raft elect a leader?")
	if err != nil {
		t.Fatal(err)
	}
	if got[two] <= got[one] || got[one] <= 0 {
		t.Errorf("scores %v: want paper %d > paper %d > 0", got, two, one)
	}
	for _, id := range ids {
		if got[id] != 0 {
			t.Errorf("filler paper %d scored %v for words it does not hold", id, got[id])
		}
	}
	if got, err := s.PaperBM25(ctx, "the of and"); err != nil || len(got) != 0 && got[two] == 0 {
		t.Errorf("stopwords only: %v, %v", got, err)
	}
}

// A compound's words are together when one node holds them near each
// other, in either order, or written as one word; words printed in
// different nodes or papers are not.
func TestTogether(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if _, err := s.SavePaper(ctx, textPaper("/a.pdf", "Robots", "The robot moves on wheels.", "Each arm of the spiral galaxy is bright.",
		"We measured the dose of radiation delivered to each patient.", "No single unannounced processdeath is tolerated.",
		"Sun et al. U-Net: machine reading comprehension."), Vectors{}, ""); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		a, b string
		want bool
	}{
		{"robot", "arm", false},          // in two nodes
		{"radiation", "dose", true},      // near, the other order
		{"radiation", "dosage", false},   // "dosage" printed nowhere
		{"process", "death", true},       // written as one word
		{"U-Net", "denoiser", false},     // a hyphenated name and a word it never stands near
		{"U-Net", "comprehension", true}, // ... and one it does
	}
	for _, tc := range tests {
		got, err := s.Together(ctx, tc.a, tc.b, 20)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("Together(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	if _, err := s.Together(ctx, "’–", "arm", 20); err == nil {
		t.Error("a word with nothing to look up must be an error")
	}
}

// TestTogetherIn: the papers whose one node holds both words near each
// other, and only those (a paper holding them in two nodes is not one);
// a paper that holds them only in its reference list holds them, not in
// its body.
func TestTogetherIn(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	a, err := s.SavePaper(ctx, textPaper("/a.pdf", "Vectors", "We trained on a 2014 Wikipedia dump with 1.6 billion tokens."), Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SavePaper(ctx, textPaper("/b.pdf", "Survey", "Wikipedia is large.", "In 2018 we ran a survey."), Vectors{}, ""); err != nil {
		t.Fatal(err)
	}
	c, err := s.SavePaper(ctx, textPaper("/c.pdf", "Corpora", "The 2014 Wikipedia snapshot and the 2018 Wikipedia dump."), Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	refs := textPaper("/d.pdf", "Solvers", "Solvers are compared on a benchmark of the SAT Competition.")
	refs.Root.Children = append(refs.Root.Children, &papertree.Node{Kind: papertree.KindSection, Title: "References", Role: papertree.RoleReferences,
		Children: []*papertree.Node{{Kind: papertree.KindSegment, Text: "[18] A. Biere. Solvers entering the SAT Competition 2023, 2023."}}})
	d, err := s.SavePaper(ctx, refs, Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		a, b       string
		want, body []int64
	}{
		{"2014", "Wikipedia", []int64{a, c}, []int64{a, c}},
		{"2018", "Wikipedia", []int64{c}, []int64{c}}, // paper b holds both words, in two nodes
		{"2020", "Wikipedia", nil, nil},
		{"2023", "SAT", []int64{d}, nil}, // only a reference title
	}
	for _, tc := range tests {
		got, body, err := s.TogetherIn(ctx, tc.a, tc.b, 20)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) || !slices.Equal(body, tc.body) {
			t.Errorf("TogetherIn(%q, %q) = %v, body %v; want %v, body %v", tc.a, tc.b, got, body, tc.want, tc.body)
		}
	}
}

// TestPrintedNodeCounts: a word is counted where it is printed as typed or
// in its plural or singular, not where only a word of its stem is ("weak
// mutation" is no "weakness"), node by node.
func TestPrintedNodeCounts(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	a, err := s.SavePaper(ctx, textPaper("/a.pdf", "Mutants", "Weak mutation kills weak mutants.", "The weakness of testing is its inputs.",
		"Two weaknesses remain.", "A weakly typed language."), Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.SavePaper(ctx, textPaper("/b.pdf", "Strength", "Strong and weak points."), Vectors{}, "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.PrintedNodeCounts(ctx, "weakness")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[a] != 2 || got[b] != 0 {
		t.Errorf("PrintedNodeCounts(weakness) = %v, want {%d: 2}", got, a)
	}
	stemmed, err := s.PhraseCounts(ctx, "weakness", nil)
	if err != nil {
		t.Fatal(err)
	}
	if stemmed[a] <= 2 {
		t.Errorf("PhraseCounts(weakness) = %v: the stemmer no longer folds weak into weakness; PrintedNodeCounts is then PhraseCounts", stemmed)
	}
	if got, err := s.PrintedNodeCounts(ctx, "weaknesses"); err != nil || got[a] != 2 {
		t.Errorf("PrintedNodeCounts(weaknesses) = %v, %v: the plural typed counts the singular printed", got, err)
	}
}

// TestTogetherPrinted: the first word must be printed as typed (or in its
// plural or singular) near the second; a word of its stem near it is not
// enough.
func TestTogetherPrinted(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if _, err := s.SavePaper(ctx, textPaper("/a.pdf", "Mutants", "Weak mutation kills weak mutants.", "The main weakness of parsers is speed."),
		Vectors{}, ""); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		a, b string
		want bool
	}{
		{"weakness", "mutants", false}, // only "weak" stands near it
		{"weakness", "parsers", true},
		{"weaknesses", "parser", true}, // plural typed, singular printed
		{"weak", "mutants", true},
	}
	for _, tc := range tests {
		got, err := s.TogetherPrinted(ctx, tc.a, tc.b, 20)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("TogetherPrinted(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
