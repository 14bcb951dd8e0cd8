package eval

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// The absence oracle finds a claimed word in a paper's text and metadata
// under the index's normalisation, refuses a word the question did not
// type and a word with which the question names the paper it asks about.
func TestAbsenceOracle(t *testing.T) {
	papers := map[int64]*papertree.Paper{
		1: {ID: 1, Title: "dE=- 23 hC", Authors: []string{"H. B. G. Casimir"}, Root: &papertree.Node{Kind: papertree.KindRoot, Children: []*papertree.Node{
			{Kind: papertree.KindSegment, Text: "The force is independent of the material. Our pre-\ntraining uses WMT’14."},
			{Kind: papertree.KindSegment, Text: "| 8x |\n7B | 2 |"},
		}}},
		2: {ID: 2, Title: "Another paper", Root: &papertree.Node{Kind: papertree.KindRoot}},
	}
	o := &AbsenceOracle{All: []int64{1, 2}, Papers: map[string]int64{"casimir.pdf": 1},
		Paper: func(_ context.Context, id int64) (*papertree.Paper, error) { return papers[id], nil }}
	q := Question{Paper: "casimir.pdf", Question: "Does the force Casimir (1948) finds depend on the material, as in WMT'14 pretraining of 8x7B models?"}
	for _, tc := range []struct {
		word   string
		papers []int64
		false_ string // "" = a true claim; else a word of the reason
	}{
		{"Casimir", []int64{2}, ""},                // the other paper: true
		{"Casimir", []int64{1}, "names the paper"}, // the cited paper
		{"Casimir", nil, "names the paper"},        // the library holds the cited paper
		{"material", []int64{1}, "holds"},
		{"depend", []int64{1}, ""}, // "independent" is another word
		{"WMT'14", []int64{1}, "holds"},
		{"pretraining", []int64{1}, "holds"}, // hyphenated at a line end
		{"8x7B", []int64{1}, ""},             // two table cells are not one word
		{"depends", []int64{2}, "typed"},     // not as the question wrote it
		{"countri", []int64{2}, "typed"},
	} {
		why, err := o.Check(context.Background(), q, papertree.AbsenceClaim{Word: tc.word, Papers: tc.papers})
		if err != nil {
			t.Fatal(err)
		}
		if tc.false_ == "" && why != "" || tc.false_ != "" && !strings.Contains(why, tc.false_) {
			t.Errorf("Check(%q of %v) = %q, want %q", tc.word, tc.papers, why, tc.false_)
		}
	}
	// A Chinese word has no spaces to bound it: it is typed when the
	// question holds it anywhere, and held when the text prints it,
	// across a line break too.
	papers[3] = &papertree.Paper{ID: 3, Title: "情绪分类", Root: &papertree.Node{Kind: papertree.KindRoot, Children: []*papertree.Node{
		{Kind: papertree.KindSegment, Text: "最大熵使用 MALLET 机\n器学习工具包，词向量维度设为 100。"}}}}
	zh := Question{Question: "论文使用了注意力机制和机器学习吗？词向量维度是多少？"}
	for _, tc := range []struct{ word, false_ string }{
		{"注意力机制", ""},
		{"机器学习", "holds"},
		{"向量维度", "holds"},
		{"学习率", "typed"},
	} {
		why, err := o.Check(context.Background(), zh, papertree.AbsenceClaim{Word: tc.word, Papers: []int64{3}})
		if err != nil {
			t.Fatal(err)
		}
		if tc.false_ == "" && why != "" || tc.false_ != "" && !strings.Contains(why, tc.false_) {
			t.Errorf("Check(%q) = %q, want %q", tc.word, why, tc.false_)
		}
	}
}

// RunQuestions checks every absence word of every reply and counts the
// false ones, and a reply that says "never mentions" without reporting
// its words is false (it cannot be checked).
func TestRunQuestionsCountsFalseAbsence(t *testing.T) {
	set := &QuestionSet{Questions: []Question{{ID: "u", Kind: "unanswerable", Unanswerable: true, Question: "What about AlphaFold2 and ViT?"}}}
	calls := 0
	ask := func(_ context.Context, q string, ids []int64) (*papertree.Answer, error) {
		calls++
		a := &papertree.Answer{NotFound: true, Text: "These papers do not seem to answer this question. The papers never mention AlphaFold2, ViT."}
		if calls == 1 {
			a.Diag.Absent = []papertree.AbsenceClaim{{Word: "AlphaFold2"}, {Word: "ViT"}}
		}
		return a, nil
	}
	check := func(_ context.Context, _ Question, c papertree.AbsenceClaim) (string, error) {
		if c.Word == "ViT" {
			return "paper 3 holds it", nil
		}
		return "", nil
	}
	for _, unreported := range []bool{false, true} {
		calls = 0
		if unreported {
			calls = 1
		}
		rep, err := RunQuestions(context.Background(), set, QuestionsOptions{Ask: ask, Absence: check})
		if err != nil {
			t.Fatal(err)
		}
		want := [2]int{2, 1}
		if unreported {
			want = [2]int{1, 1}
		}
		if got := [2]int{rep.Library.AbsenceWords, rep.Library.FalseAbsence}; got != want {
			t.Errorf("unreported %v: absence words, false = %v, want %v", unreported, got, want)
		}
	}
}
