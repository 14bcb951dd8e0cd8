package answer_test

import (
	"slices"
	"testing"
)

// A Korean question attaches a particle to each noun (학습률은, 학습률이,
// 데이터셋을) and ends in a predicate (얼마인가, 사용하는가); a paper prints
// the noun with another particle. The noun is what the question asks
// about: printed with any particle, it is not said never mentioned; a noun
// the paper prints nowhere (드롭아웃, 비율, checked in the real full-text
// index) is, and the question words (얼마인가, 어떤) never are.
func TestKoreanNounHeldWithAnotherParticle(t *testing.T) {
	ask := askOnePaper(t, "다중 채널 LSTM 기반 감정 분류", "4 실험",
		"모든 실험에서 학습률은 0.001로 설정하였다.",
		"본 연구에서는 네이버 영화 리뷰 데이터셋을 사용하였다.",
		"LSTM 모델의 은닉층 크기는 128이다.")
	for _, tc := range []struct {
		question string
		never    []string // nil: no word claimed missing
	}{
		{"실험에서 학습률이 얼마인가?", nil},
		{"어떤 데이터셋이 사용되었는가?", nil},
		{"은닉층의 크기는 몇인가?", nil},
		{"드롭아웃 비율은 얼마인가?", []string{"드롭아웃", "비율은"}},
	} {
		out, said := ask(tc.question)
		t.Logf("%s: not found %v, said %q: %s", tc.question, out.NotFound, said, out.Text)
		if !slices.Equal(said, tc.never) {
			t.Errorf("%s: never mentioned %q; want %q", tc.question, said, tc.never)
		}
	}
}
