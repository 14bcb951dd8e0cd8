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
	if got := CJKParts("lstm数据集"); !slices.Equal(got, []string{"lstm", "数据", "据集"}) {
		t.Errorf("CJKParts(lstm数据集) = %q", got)
	}
}

func TestSplitSentencesCJK(t *testing.T) {
	got := SplitSentences("本文选用微博语料作为实验语料。该语料中共有七种情绪类别！是否平衡？“是的。”最后一句")
	want := []string{"本文选用微博语料作为实验语料。", "该语料中共有七种情绪类别！", "是否平衡？", "“是的。”", "最后一句"}
	if !slices.Equal(got, want) {
		t.Errorf("SplitSentences = %q, want %q", got, want)
	}
	// English text splits as before.
	en := "We use Fig. 3 here. The rate is 3.2 percent! Is it?"
	if got := SplitSentences(en); !slices.Equal(got, []string{"We use Fig. 3 here.", "The rate is 3.2 percent!", "Is it?"}) {
		t.Errorf("SplitSentences(English) = %q", got)
	}
}

func TestReadableCJK(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"本文选用 NLP&CC-2013 中文微博情绪分析评测提供的微博语料作为实验语料。", true},
		{"実験では、データセットとして微博コーパスを用いた。", true},
		{"우리는 감정 분류를 위해 데이터를 사용했다.", true},
		{"h = σ(W x + b) , c = f ⊙ c + i ⊙ g 其中", false},
		{"参数表述 参数值 输入向量长度 120 LSTM 层输出维度 128 全连接层输出维度 64 迭代次数", false},
	} {
		if got := Readable(tt.s); got != tt.want {
			t.Errorf("Readable(%q) = %v (word share %.2f), want %v", tt.s, got, WordShare(tt.s), tt.want)
		}
	}
}

func TestMostlyCJK(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"情绪分类的数据集是什么？", true},
		{"LSTM 神经网络使用什么开源框架搭建？", true}, // 4 Latin letters, 12 CJK characters
		{"この論文はどのデータセットを使いましたか", true},
		{"이 논문은 어떤 데이터를 사용했나요?", true},
		{"What does 情绪 mean in the Chinese paper?", false},
		{"How many tokens of Common Crawl were used?", false},
		{"", false},
		{"2013 ？", false},
	} {
		if got := MostlyCJK(tc.s); got != tc.want {
			t.Errorf("MostlyCJK(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

func TestCJKContentWords(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string
	}{
		// Scaffold words (论文, 使用) and function characters (了, 吗) go.
		{"论文使用了注意力机制吗？", []string{"注意力机制"}},
		{"LSTM 模型训练时使用的学习率是多少？", []string{"模型训练", "学习率"}},
		{"多通道 LSTM 方法的 G-mean 比集成学习方法更高吗？", []string{"多通道", "方法", "集成学习方法"}},
		// Japanese: hiragana (particles, inflections) cut words.
		{"この論文は注意機構を使いましたか", []string{"論文", "注意機構"}},
		// A one-character piece is no word; English gives none.
		{"用了吗", nil},
		{"Does the paper use attention?", nil},
	} {
		if got := CJKContentWords(tc.q); !slices.Equal(got, tc.want) {
			t.Errorf("CJKContentWords(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}
}

func TestCJKPrinted(t *testing.T) {
	text := CJKCompact("已有的情绪分析研究基本都是基于样本分布平衡的假设。综合考虑实验性能，本文提出了一种基于多通道 LSTM 的机\n器学习方法。")
	for _, tc := range []struct {
		w    string
		want bool
	}{
		{"情绪分析", true},
		{"情绪分析研究考虑", true}, // each of its words is printed, not together
		{"机器学习", true},     // across a line break
		{"注意力机制", false},   // no piece of 注意力 is printed
		{"学习率", false},     // 率 is in no printed piece
		{"通道", true},
		{"情", false},
	} {
		if got := CJKPrinted(text, tc.w); got != tc.want {
			t.Errorf("CJKPrinted(%q) = %v, want %v", tc.w, got, tc.want)
		}
	}
}
