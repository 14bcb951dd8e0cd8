package papertree

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// abbreviations that end with a period but rarely end a sentence in papers.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "et al": true, "al": true, "fig": true, "figs": true, "eq": true, "eqs": true,
	"sec": true, "secs": true, "tab": true, "vs": true, "cf": true, "resp": true, "approx": true, "no": true,
	"dr": true, "mr": true, "ms": true, "prof": true, "etc": true, "ref": true, "refs": true, "ch": true,
	"viz": true, "incl": true, "min": true, "max": true, "avg": true, "std": true, "vol": true, "pp": true,
	"st": true, "jr": true, "inc": true, "ltd": true, "co": true, "corp": true, "alg": true, "thm": true,
	"def": true, "prop": true, "lem": true, "appx": true, "app": true, "ex": true,
}

// SplitSentences splits text into sentences. It is tuned for scientific
// prose: it does not split after common abbreviations ("et al.", "Fig.",
// "e.g."), single capital initials ("J. Smith"), or inside numbers ("3.2"),
// and it keeps closing quotes/brackets with their sentence. Whitespace inside
// a sentence is preserved; surrounding whitespace is trimmed.
func SplitSentences(text string) []string {
	var out []string
	start := 0
	n := len(text)
	for i := 0; i < n; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r != '.' && r != '?' && r != '!' {
			i += size
			continue
		}
		end := i + size
		// absorb runs of terminators and closing punctuation
		for end < n {
			r2, s2 := utf8.DecodeRuneInString(text[end:])
			if r2 == '.' || r2 == '?' || r2 == '!' || r2 == '"' || r2 == '\'' || r2 == ')' || r2 == ']' || r2 == '’' || r2 == '”' {
				end += s2
				continue
			}
			break
		}
		if end < n {
			r2, _ := utf8.DecodeRuneInString(text[end:])
			if !unicode.IsSpace(r2) {
				i = end
				continue // "3.2", "e.g.x", URL
			}
		}
		if r == '.' && !sentenceBreakAfterPeriod(text[start:i], text[end:]) {
			i = end
			continue
		}
		if s := strings.TrimSpace(text[start:end]); s != "" {
			out = append(out, s)
		}
		start = end
		i = end
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// sentenceBreakAfterPeriod decides whether a period ends the sentence given
// the text before it (same sentence so far) and after it.
func sentenceBreakAfterPeriod(before, after string) bool {
	after = strings.TrimLeftFunc(after, unicode.IsSpace)
	if after == "" {
		return true
	}
	next, _ := utf8.DecodeRuneInString(after)
	// Find the last word before the period.
	j := strings.LastIndexFunc(before, func(r rune) bool { return unicode.IsSpace(r) || r == '(' || r == '[' })
	word := before[j+1:]
	lw := strings.ToLower(word)
	if abbreviations[lw] {
		return false // "et al." ends on "al", which is listed
	}
	// Single capital initial: "J. Smith".
	if utf8.RuneCountInString(word) == 1 {
		r, _ := utf8.DecodeRuneInString(word)
		if unicode.IsUpper(r) {
			return false
		}
	}
	// A lowercase continuation rarely starts a sentence.
	if unicode.IsLower(next) {
		return false
	}
	return true
}
