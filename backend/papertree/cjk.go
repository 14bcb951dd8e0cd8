package papertree

import (
	"strings"
	"unicode"
)

// IsCJK reports whether r is a character of a script written without
// spaces between words, which word splitters (FTS5's unicode61, ScanWords)
// would otherwise glue into one "word" per clause: Han (Chinese characters,
// Japanese kanji, the iteration mark 々), Hiragana, Katakana (and the
// prolonged sound mark ー) and Hangul.
func IsCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	return r == 0x30FC || unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// MayHoldCJK is a byte-level pre-check: every CJK character's UTF-8 form
// starts with a byte >= 0xE1 (U+1000 and up), so text without such a byte
// holds none. It takes a scanned word's bytes too, so that a caller need
// not make a string of every word to ask.
func MayHoldCJK[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xE1 {
			return true
		}
	}
	return false
}

// HasCJK reports whether s holds a CJK character (see IsCJK).
func HasCJK(s string) bool {
	if !MayHoldCJK(s) {
		return false
	}
	for _, r := range s {
		if IsCJK(r) {
			return true
		}
	}
	return false
}

// CJKIndexText is the text the full-text index tokenizes for s: every run
// of CJK characters is replaced by its overlapping character bigrams, each
// a separate word, followed by the run's last character alone ("情绪分类" ->
// " 情绪 绪分 分类 类 "), so that every character of the run begins exactly
// one indexed word: a word of two or more characters is the phrase of its
// bigrams (CJKPhrase), a single character the prefix query of its
// character. Bigrams are the usual retrieval unit for these scripts
// (Lucene's CJKAnalyzer): they need no dictionary and a word is found iff
// it is printed. Text without CJK characters is returned unchanged, byte
// for byte, so its words are indexed exactly as before.
func CJKIndexText(s string) string {
	if !HasCJK(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) * 2)
	var run []rune
	flush := func() {
		if len(run) == 0 {
			return
		}
		b.WriteByte(' ')
		for i := 0; i+1 < len(run); i++ {
			b.WriteRune(run[i])
			b.WriteRune(run[i+1])
			b.WriteByte(' ')
		}
		b.WriteRune(run[len(run)-1])
		b.WriteByte(' ')
		run = run[:0]
	}
	for _, r := range s {
		if IsCJK(r) {
			run = append(run, r)
			continue
		}
		flush()
		b.WriteRune(r)
	}
	flush()
	return b.String()
}

// CJKBigrams returns the words a question's CJK run is searched by: its
// overlapping bigrams, or the character itself for a one-character run.
// It returns nil for a string holding a non-CJK character.
func CJKBigrams(run string) []string {
	rs := []rune(run)
	if len(rs) == 0 {
		return nil
	}
	for _, r := range rs {
		if !IsCJK(r) {
			return nil
		}
	}
	if len(rs) == 1 {
		return []string{run}
	}
	out := make([]string, 0, len(rs)-1)
	for i := 0; i+1 < len(rs); i++ {
		out = append(out, string(rs[i:i+2]))
	}
	return out
}

// SplitCJK splits a word (a run of letters and digits) at the boundaries
// between CJK and other characters: "lstm模型" -> "lstm", "模型". A word
// without CJK characters is returned alone.
func SplitCJK(w string) []string {
	if !HasCJK(w) {
		return []string{w}
	}
	var out []string
	start, prev := 0, false
	for i, r := range w {
		c := IsCJK(r)
		if i > 0 && c != prev {
			out = append(out, w[start:i])
			start = i
		}
		prev = c
	}
	return append(out, w[start:])
}

// CJKParts splits a word into its non-CJK parts and the character bigrams
// of its CJK parts (CJKBigrams): the words a question's word is searched by
// ("lstm模型" -> "lstm", "模型"). A word without CJK characters is returned
// alone.
func CJKParts(w string) []string {
	var out []string
	for _, p := range SplitCJK(w) {
		if bi := CJKBigrams(p); bi != nil {
			out = append(out, bi...)
		} else {
			out = append(out, p)
		}
	}
	return out
}

// MostlyCJK reports whether s is written in a script without spaces
// between words: it holds more CJK characters (IsCJK) than other letters.
// A Chinese question that names a method in Latin letters ("LSTM
// 神经网络使用什么框架？") is one; an English question quoting one Chinese
// word is not.
func MostlyCJK(s string) bool {
	if !MayHoldCJK(s) {
		return false
	}
	cjk, other := 0, 0
	for _, r := range s {
		switch {
		case IsCJK(r):
			cjk++
		case unicode.IsLetter(r):
			other++
		}
	}
	return cjk > other
}

// cjkScaffold are the words a Chinese question is built from rather than
// what it asks about: the paper itself, asking and using verbs, question
// words. Like English scaffold words ("paper", "use", "what"), their
// absence from a paper says nothing.
var cjkScaffold = []string{
	"为什么", "有没有", "论文", "本文", "文章", "这篇", "该文", "作者", "使用", "采用", "利用", "用到",
	"什么", "多少", "哪些", "哪个", "哪种", "如何", "怎么", "怎样", "为何", "是否", "提到", "提及",
}

// cjkStop are single characters that are function words in a Chinese
// question (particles, pronouns, prepositions, the copula, 时 "when", the
// comparison markers 比 更 最): a content word
// never starts or ends across them.
const cjkStop = "的了吗呢吧啊是在时和与及或有对用为被把从到于由之其这那该个些也都还就会能可将给并而比更最"

// CJKContentWords returns the words a question's CJK text asks about,
// without a dictionary: each run of CJK characters is cut at question
// scaffold words (cjkScaffold), function characters (cjkStop) and, for
// Japanese, at hiragana (particles and inflections); every remaining piece
// of two or more characters is a content word ("论文使用了注意力机制吗" ->
// "注意力机制"). Non-CJK text gives none: its words are read as words.
func CJKContentWords(s string) []string {
	if !HasCJK(s) {
		return nil
	}
	for _, w := range cjkScaffold {
		s = strings.ReplaceAll(s, w, " ")
	}
	var out []string
	var run []rune
	flush := func() {
		if len(run) >= 2 {
			out = append(out, string(run))
		}
		run = run[:0]
	}
	for _, r := range s {
		if IsCJK(r) && !unicode.Is(unicode.Hiragana, r) && !strings.ContainsRune(cjkStop, r) {
			run = append(run, r)
			continue
		}
		flush()
	}
	flush()
	return out
}

// CJKCompact is text as a CJK word is looked up in it: without the spaces
// and line breaks PDF extraction leaves between characters ("机 器学习").
func CJKCompact(text string) string {
	return strings.Join(strings.Fields(text), "")
}

// CJKPrinted reports whether the CJK word w (a CJKContentWords word) is
// printed in compact (CJKCompact of a text) as words of two or more
// characters: every character of w lies in a piece of w of two or more
// characters that compact prints. Without a dictionary a question's run of
// words ("情绪分析研究考虑") is used when its words are ("情绪分析", "研究",
// "考虑"), and missing only where part of it is printed nowhere
// ("注意力机制", no piece of 注意力 printed).
func CJKPrinted(compact, w string) bool {
	rs := []rune(w)
	if len(rs) < 2 {
		return false
	}
	covered := make([]bool, len(rs))
	for a := 0; a+1 < len(rs); a++ {
		b := a + 2
		if !strings.Contains(compact, string(rs[a:b])) {
			continue
		}
		for b < len(rs) && strings.Contains(compact, string(rs[a:b+1])) {
			b++
		}
		for i := a; i < b; i++ {
			covered[i] = true
		}
	}
	for _, c := range covered {
		if !c {
			return false
		}
	}
	return true
}
