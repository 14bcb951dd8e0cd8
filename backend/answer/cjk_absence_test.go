package answer_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/answer"
	"github.com/papertree/papertree/backend/internal/storetest"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/retrieve"
)

// A Chinese question asked of a Chinese paper: a content word the paper
// prints nowhere (注意力机制, checked in the real full-text index) is said
// never mentioned; a question whose content words it prints, one of them
// across a line break (机\n器学习), is answered, and no word is claimed
// missing.
func TestChineseContentWordNeverMentioned(t *testing.T) {
	ask := askOnePaper(t, "基于多通道 LSTM 的不平衡情绪分类方法", "4 实验",
		"实验中用到的分类算法包括最大熵和 LSTM 神经网络。其中最大熵使用 MALLET 机\n器学习工具包；LSTM 神经网络使用深度学习开源框架 Keras 搭建。",
		"综合考虑实验性能和所需时间，本实验中词向量维度设为 100。",
		"本文使用的 LSTM 单元由门控机制控制历史信息的更新和利用。")
	for _, tc := range []struct {
		question string
		never    []string // nil: answered
	}{
		{"论文使用了注意力机制吗？", []string{"注意力机制"}},
		{"最大熵使用什么机器学习工具包？", nil},
		{"LSTM 神经网络使用什么开源框架搭建？", nil},
	} {
		out, said := ask(tc.question)
		if out.NotFound != (tc.never != nil) || !slices.Equal(said, tc.never) {
			t.Errorf("%s: not found %v, never mentioned %q (%s); want %q", tc.question, out.NotFound, said, out.Text, tc.never)
		}
		if tc.never != nil && !strings.Contains(out.Text, "never mentions "+tc.never[0]) {
			t.Errorf("%s: %s", tc.question, out.Text)
		}
	}
}

// askOnePaper saves a paper titled title, one section of the given leaves,
// in a real store and returns a function that asks it a question as
// library.Ask does (auto retrieval scoped to it, the term counts, Compose
// with the full-text index's holders) and gives the reply and the words it
// says are never mentioned.
func askOnePaper(t *testing.T, title, section string, leaves ...string) func(question string) (answer.Output, []string) {
	t.Helper()
	ctx := context.Background()
	sec := &papertree.Node{Kind: papertree.KindSection, Title: section}
	for _, s := range leaves {
		sec.Children = append(sec.Children, &papertree.Node{Kind: papertree.KindSegment, Text: s, Tokens: papertree.CountTokens(s)})
	}
	p := &papertree.Paper{Title: title, Path: "/paper.pdf", Pages: 1, Root: &papertree.Node{Kind: papertree.KindRoot, Title: title,
		Children: []*papertree.Node{sec}}}
	st, emb, ids := storetest.Library(t, p)
	id := ids[0]
	ix := retrieve.NewStoreIndex(st, emb, 0)
	strat, err := retrieve.Get("auto")
	if err != nil {
		t.Fatal(err)
	}
	return func(question string) (answer.Output, []string) {
		t.Helper()
		q := query.Parse(question)
		res, err := strat.Retrieve(ctx, ix, retrieve.Request{Query: question, Question: q, PaperIDs: []int64{id}, Budget: 512})
		if err != nil {
			t.Fatal(err)
		}
		uses, err := retrieve.QuestionTermUse(ctx, ix, q, retrieve.EvidencePapers(res.Evidence))
		if err != nil {
			t.Fatal(err)
		}
		out, err := answer.Compose(ctx, emb, answer.Input{Question: question, Q: q, Evidence: res.Evidence,
			Missing: res.Missing, MissingName: res.MissingName, Terms: res.Terms, Uses: uses, Scoped: true,
			Claims: answer.Claims{Holders: retrieve.WordHolders(ctx, ix), Scope: []int64{id}}}, answer.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		var said []string
		for _, c := range out.Absent {
			said = append(said, c.Word)
		}
		return out, said
	}
}
