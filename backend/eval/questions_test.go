package eval

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

func TestSupports(t *testing.T) {
	tests := []struct {
		name, text, support string
		want                bool
	}{
		{"verbatim", "We train with AdaGrad. The initial learning rate is 0.05.", "The initial learning rate is 0.05.", true},
		{"line breaks and hyphenation", "sampling non- zero ele-\nments from X", "sampling nonzero elements from X", true},
		{"ligatures", "the ﬁnal ﬂow", "the final flow", true},
		{"a few reordered words", "results are added and each filter is applied to both channels", "each filter is applied to both channels and the results are added", true},
		{"another sentence", "We use dropout of 0.5 on the penultimate layer.", "The initial learning rate is 0.05.", false},
		{"empty support never matches", "anything", "  ", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Supports(tc.text, tc.support); got != tc.want {
				t.Errorf("Supports = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestHoldsValues(t *testing.T) {
	tests := []struct {
		name, text string
		values     []string
		want       bool
	}{
		{"row with headers", "ViT-Large: Layers 24, Hidden size 1024, Params 307M", []string{"307M", "24"}, true},
		{"decimal kept whole", "CNN-static: MR 81.0, SST-1 45.5", []string{"81.0"}, true},
		{"longer decimal is another number", "MR 81.05", []string{"81.0"}, false},
		{"digits inside a larger number", "Params 1307M", []string{"307M"}, false},
		{"thousands separator", "N 10,662", []string{"10,662"}, true},
		{"one value missing", "Layers 24", []string{"24", "307M"}, false},
		{"empty value never matches", "anything", []string{" - "}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := HoldsValues(tc.text, tc.values); got != tc.want {
				t.Errorf("HoldsValues = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestInSection(t *testing.T) {
	ev := func(path ...string) papertree.Evidence { return papertree.Evidence{Path: path} }
	tests := []struct {
		name    string
		e       papertree.Evidence
		section string
		want    bool
	}{
		{"numbered title", ev("Paper", "4 Experiments", "4.2 Corpora and training details"), "Corpora and training details", true},
		{"parent section", ev("Paper", "4 Experiments", "4.2 Corpora"), "Experiments", true},
		{"other section", ev("Paper", "2 Related Work"), "Abstract", false},
		{"front matter", ev("Paper"), "", true},
		{"the paper title is no section", ev("Abstract Meaning Representation"), "Abstract", false},
		{"appendix letter", ev("Paper", "A Additional Details for BERT", "A.1 Illustration of the Pre-training Tasks"), "Illustration of the Pre-training Tasks", true},
		{"roman numeral", ev("Paper", "II. Related Work"), "Related Work", true},
		{"roman with letter", ev("Paper", "IV. Experiments", "IV.B Datasets"), "Datasets", true},
		{"a title that starts with the article A", ev("Paper", "A Simple Method"), "A Simple Method", true},
		{"a word is no enumerator", ev("Paper", "Appendix Proofs"), "Proofs", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := inSection(tc.e, tc.section); got != tc.want {
				t.Errorf("inSection = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLoadQuestionsRejectsBadSets(t *testing.T) {
	tests := []struct{ name, body string }{
		{"not json", `{`},
		{"repeated id", `{"questions":[{"id":"a","question":"Q?","paper":"p.pdf","support":"s"},{"id":"a","question":"Q?","paper":"p.pdf","support":"s"}]}`},
		{"answerable without support", `{"questions":[{"id":"a","question":"Q?","paper":"p.pdf"}]}`},
		{"yes/no without answer", `{"questions":[{"id":"a","kind":"yesno","question":"Is it?","paper":"p.pdf","support":"s"}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "q.json")
			if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := LoadQuestions(p); papertree.ErrorCode(err) != papertree.EInvalid {
				t.Errorf("err = %v, want an invalid-input error", err)
			}
		})
	}
	if _, err := LoadQuestions("testdata/questions-single.json"); err != nil {
		t.Errorf("the shipped question set does not load: %v", err)
	}
}

// The scorer's arithmetic, with scripted answers.
func TestRunQuestionsScores(t *testing.T) {
	set := &QuestionSet{Questions: []Question{
		{ID: "f", Kind: "factual", NamesPaper: true, Paper: "a.pdf", Section: "Method", Question: "What rate?", Support: "The rate is 0.05."},
		{ID: "y", Kind: "yesno", Answer: "yes", Paper: "b.pdf", Section: "Results", Question: "Does it help?", Support: "It helps a lot."},
		{ID: "u", Kind: "unanswerable", Unanswerable: true, Question: "What about AlphaFold2?"},
	}}
	papers := map[string]int64{"a.pdf": 1, "b.pdf": 2}
	ask := func(_ context.Context, q string, ids []int64) (*papertree.Answer, error) {
		switch q {
		case "What rate?": // right paper, right section, support quoted
			return &papertree.Answer{Text: "The rate is 0.05. [1]", Evidence: []papertree.Evidence{
				{PaperID: 1, Path: []string{"A", "3 Method"}, Text: "We train. The rate is 0.05.", Score: 0.9},
				{PaperID: 2, Path: []string{"B", "Intro"}, Text: "Other.", Score: 0.2}}}, nil
		case "Does it help?": // wrong paper on top, wrong verdict
			return &papertree.Answer{Text: "No. [1]", Verdict: "no", Evidence: []papertree.Evidence{
				{PaperID: 1, Path: []string{"A", "Intro"}, Text: "Nothing.", Score: 0.8},
				{PaperID: 2, Path: []string{"B", "5 Results"}, Text: "It helps a lot.", Score: 0.5}}}, nil
		default: // answered an unanswerable question
			return &papertree.Answer{Text: "Something [1]", Evidence: []papertree.Evidence{{PaperID: 1, Text: "x", Score: 0.3}}}, nil
		}
	}
	rep, err := RunQuestions(context.Background(), set, QuestionsOptions{Papers: papers, Ask: ask})
	if err != nil {
		t.Fatal(err)
	}
	l := rep.Library
	checks := []struct {
		name      string
		got, want float64
	}{
		{"paper hit", l.PaperHit, 0.5}, {"named paper hit", l.PaperHitNamed, 1}, {"unnamed paper hit", l.PaperHitUnnamed, 0},
		{"section hit", l.SectionHit, 0.5}, {"section hit any", l.SectionHitAny, 1}, {"support hit", l.SupportHit, 1},
		{"answer quotes", l.AnswerQuotes, 0.5}, {"verdict precision", l.VerdictPrecision, 0}, {"verdict coverage", l.VerdictCoverage, 1},
		{"not found on unanswerable", l.NotFoundUnanswerable, 0}, {"not found on answerable", l.NotFoundAnswerable, 0},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if rep.Scoped.Unanswerable != 0 || rep.Library.Unanswerable != 1 {
		t.Errorf("an unanswerable question about no paper is asked library-wide only: %+v", rep.Scoped)
	}
}
