package answer_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/papertree/papertree/backend/answer"
	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
	"github.com/papertree/papertree/backend/retrieve"
	"github.com/papertree/papertree/backend/store"
)

// A Korean question attaches a particle to each noun (학습률은, 학습률이,
// 데이터셋을) and ends in a predicate (얼마인가, 사용하는가); a paper prints
// the noun with another particle. The noun is what the question asks
// about: printed with any particle, it is not said never mentioned; a noun
// the paper prints nowhere (드롭아웃, 비율, checked in the real full-text
// index) is, and the question words (얼마인가, 어떤) never are.
func TestKoreanNounHeldWithAnotherParticle(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "lib.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	emb := embedding.NewBuiltin()
	if _, err := st.EnsureEmbedder(ctx, emb.Name(), emb.Dim()); err != nil {
		t.Fatal(err)
	}
	leaf := func(s string) *papertree.Node {
		return &papertree.Node{Kind: papertree.KindSegment, Text: s, Tokens: papertree.CountTokens(s)}
	}
	p := &papertree.Paper{Title: "다중 채널 LSTM 기반 감정 분류", Path: "/ko.pdf", Pages: 1, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "다중 채널 LSTM 기반 감정 분류",
		Children: []*papertree.Node{{Kind: papertree.KindSection, Title: "4 실험", Children: []*papertree.Node{
			leaf("모든 실험에서 학습률은 0.001로 설정하였다."),
			leaf("본 연구에서는 네이버 영화 리뷰 데이터셋을 사용하였다."),
			leaf("LSTM 모델의 은닉층 크기는 128이다."),
		}}}}}
	v, err := embedding.EmbedPaper(ctx, emb, p)
	if err != nil {
		t.Fatal(err)
	}
	id, err := st.SavePaper(ctx, p, store.Vectors(v), "")
	if err != nil {
		t.Fatal(err)
	}
	ix := retrieve.NewStoreIndex(st, emb, 0)
	strat, err := retrieve.Get("auto")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		question string
		never    []string // nil: no word claimed missing
	}{
		{"실험에서 학습률이 얼마인가?", nil},
		{"어떤 데이터셋이 사용되었는가?", nil},
		{"은닉층의 크기는 몇인가?", nil},
		{"드롭아웃 비율은 얼마인가?", []string{"드롭아웃", "비율은"}},
	} {
		q := query.Parse(tc.question)
		res, err := strat.Retrieve(ctx, ix, retrieve.Request{Query: tc.question, Question: q, PaperIDs: []int64{id}, Budget: 512})
		if err != nil {
			t.Fatal(err)
		}
		uses, err := retrieve.QuestionTermUse(ctx, ix, q, retrieve.EvidencePapers(res.Evidence))
		if err != nil {
			t.Fatal(err)
		}
		out, err := answer.Compose(ctx, emb, answer.Input{Question: tc.question, Q: q, Evidence: res.Evidence,
			Missing: res.Missing, MissingName: res.MissingName, Terms: res.Terms, Uses: uses, Scoped: true,
			Claims: answer.Claims{Holders: retrieve.WordHolders(ctx, ix), Scope: []int64{id}}}, answer.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		var said []string
		for _, c := range out.Absent {
			said = append(said, c.Word)
		}
		t.Logf("%s: missing %q, not found %v, said %q: %s", tc.question, res.Missing, out.NotFound, said, out.Text)
		if !slices.Equal(said, tc.never) {
			t.Errorf("%s: never mentioned %q; want %q", tc.question, said, tc.never)
		}
	}
}
