package papertree

import (
	"slices"
	"testing"
)

func TestCJKIndexText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", ""},
		{"English unchanged", "Multi-channel LSTM, naïve “quotes” – 12.5%", "Multi-channel LSTM, naïve “quotes” – 12.5%"},
		{"Chinese run", "情绪分类", " 情绪 绪分 分类 类 "},
		{"one character", "表", " 表 "},
		{"punctuation splits runs", "数据集。实验", " 数据 据集 集 。 实验 验 "},
		{"full-width punctuation and digits", "维度设为100，", " 维度 度设 设为 为 100，"},
		{"mixed scripts glued", "多通道LSTM的方法", " 多通 通道 道 LSTM 的方 方法 法 "},
		{"Hiragana and Katakana", "データセットは", " デー ータ タセ セッ ット トは は "},
		{"Hangul", "감정 분류", " 감정 정   분류 류 "},
		{"Latin only with CJK-range bytes", "α–β → γ", "α–β → γ"},
	}
	for _, tt := range tests {
		if got := CJKIndexText(tt.in); got != tt.want {
			t.Errorf("%s: CJKIndexText(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

func TestCJKBigramsAndSplit(t *testing.T) {
	if got := CJKBigrams("数据集"); !slices.Equal(got, []string{"数据", "据集"}) {
		t.Errorf("CJKBigrams(数据集) = %q", got)
	}
	if got := CJKBigrams("集"); !slices.Equal(got, []string{"集"}) {
		t.Errorf("CJKBigrams(集) = %q", got)
	}
	if got := CJKBigrams("lstm"); got != nil {
		t.Errorf("CJKBigrams(lstm) = %q, want nil", got)
	}
	if got := SplitCJK("lstm模型2"); !slices.Equal(got, []string{"lstm", "模型", "2"}) {
		t.Errorf("SplitCJK(lstm模型2) = %q", got)
	}
	if got := SplitCJK("model"); !slices.Equal(got, []string{"model"}) {
		t.Errorf("SplitCJK(model) = %q", got)
	}
}
