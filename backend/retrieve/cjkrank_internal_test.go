package retrieve

import (
	"context"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// A library-wide question written in Chinese ranks papers by the full-text
// index's bigrams, not by the stored vectors (built from whole clauses, so
// they read only its Latin words): the Chinese paper that prints the
// question's words comes first, ahead of English papers full of the one
// Latin word ("LSTM") the question shares with them, and it is the one
// paper searched. An English question on the same library keeps the fused
// ranking and the papers searched.
func TestSpacelessQuestionRanksPapersByFullText(t *testing.T) {
	ctx := context.Background()
	paper := func(title, body string) *papertree.Paper {
		seg := &papertree.Node{Kind: papertree.KindSegment, Text: body, Tokens: papertree.CountTokens(body)}
		root := &papertree.Node{Kind: papertree.KindRoot, Title: title, Children: []*papertree.Node{
			{Kind: papertree.KindSection, Title: "1 Method", Children: []*papertree.Node{seg}}}}
		return &papertree.Paper{Title: title, Authors: []string{"A. Author"}, Year: 2017, Path: "/" + title + ".pdf", Pages: 1, Root: root}
	}
	ix, ids := storeIndexWith(t,
		paper("LSTM Networks", "LSTM networks: an LSTM cell, LSTM gates, LSTM training, stacked LSTM layers and bidirectional LSTM models."),
		paper("LSTM Language Models", "We train LSTM language models; the LSTM hidden size is 650 and each LSTM layer uses dropout."),
		paper("基于多通道 LSTM 的情绪分类", "LSTM 神经网络使用深度学习开源框架 Keras 搭建，最大熵使用 MALLET 工具包。"),
		paper("Sorting Networks", "A sorting network compares and swaps values in a fixed order."),
	)
	for _, tc := range []struct {
		q      string
		want   int64
		papers int
	}{
		{"LSTM 神经网络使用什么开源框架搭建？", ids[2], 1},
		{"How large is the hidden size of the LSTM language models?", ids[1], 3},
	} {
		req := Request{Query: tc.q}
		req.Params = DefaultParams()
		req.Params.MaxPapers = 3
		qv, err := ix.Embedder().EmbedQuery(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := scopePapers(ctx, ix, req, qv)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tc.papers || got[0] != tc.want {
			t.Errorf("%s: searched %v, want %d papers, paper %d first", tc.q, got, tc.papers, tc.want)
		}
	}
}
