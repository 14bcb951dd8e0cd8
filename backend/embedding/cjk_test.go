package embedding

import (
	"slices"
	"testing"
)

// TestQueryAnalyzersSplitCJK: the query-time analyzers give a CJK clause's
// bigrams (a Chinese question and a Chinese sentence then share words),
// whole, not cut at the 40-byte word limit; the document analyzer and
// English text are unchanged.
func TestQueryAnalyzersSplitCJK(t *testing.T) {
	q := QueryTerms("词向量维度设为多少？")
	if !slices.Contains(q, "维度") || !slices.Contains(q, "多少") {
		t.Errorf("QueryTerms = %q, want the bigrams 维度 and 多少", q)
	}
	long := "综合考虑实验性能和所需时间本实验中词向量维度设为"
	cs := ContentStems(long + "100 x模型y")
	if !slices.Contains(cs, "设为") || !slices.Contains(cs, "100") || !slices.Contains(cs, "模型") {
		t.Errorf("ContentStems = %q, want the last bigram 设为, 100 and 模型", cs)
	}
	var cached []string
	NewStemCache().ContentStems(long+"100 x模型y", func(s string, _ int32) { cached = append(cached, s) })
	if !slices.Equal(cached, cs) {
		t.Errorf("StemCache.ContentStems = %q, want ContentStems' %q", cached, cs)
	}
	if d := DocTerms(long); len(d) != 1 {
		t.Errorf("DocTerms(%q) = %q, want the one (cut) word the stored vectors were built from", long, d)
	}
	en := "How many layers does the multi-channel LSTM use?"
	var words []string
	eachWord(en, func(w string) { words = append(words, w) })
	var terms []string
	eachTermWord(en, func(w string) { terms = append(terms, w) })
	if !slices.Equal(words, terms) {
		t.Errorf("English words %q, query-time words %q", words, terms)
	}
}
