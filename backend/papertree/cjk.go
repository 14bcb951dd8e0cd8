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

// mayHoldCJK is a byte-level pre-check: every CJK character's UTF-8 form
// starts with a byte >= 0xE1 (U+1000 and up), so text without such a byte
// holds none.
func mayHoldCJK(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xE1 {
			return true
		}
	}
	return false
}

// HasCJK reports whether s holds a CJK character (see IsCJK).
func HasCJK(s string) bool {
	if !mayHoldCJK(s) {
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

// MostlyCJK reports whether s is written in a script without spaces
// between words: it holds more CJK characters (IsCJK) than other letters.
// A Chinese question that names a method in Latin letters ("LSTM
// 神经网络使用什么框架？") is one; an English question quoting one Chinese
// word is not.
func MostlyCJK(s string) bool {
	if !mayHoldCJK(s) {
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
