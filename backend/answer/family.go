package answer

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/retrieve"
)

// Word families (retrieve.Related): the verdict reader holds a question's
// word by any form of its family.

// verdictCoverage is coverageOf with a question stem held by any stem of
// its word family (retrieve.FamilyHeld): the share of what a yes/no question is about
// that a deciding sentence says, in whatever form of the words.
func verdictCoverage(qstems []string, have map[string]bool) float64 {
	return idfShare(qstems, func(t string) bool { return retrieve.FamilyHeld(t, have) })
}

// hyphenCompounds maps the joined stem of each hyphenated word of text
// ("page-table": "pagetabl") to its parts' stems ("page", "tabl"). The
// word splitter cuts a hyphenated word in two, so "page-table" and
// "pagetable" share no stem.
func hyphenCompounds(text string) map[string][]string {
	var out map[string][]string
	for j, w := range joinedHyphenated(text) {
		parts := embedding.ContentStems(w)
		joined := embedding.ContentStems(j)
		if len(parts) < 2 || len(joined) != 1 {
			continue
		}
		if out == nil {
			out = map[string][]string{}
		}
		out[joined[0]] = parts
	}
	return out
}

// withCompounds returns a sentence's stems (have) with a closed compound
// and its hyphenated form counted as one word: the joined stem of each of
// the sentence's hyphenated words (sc: hyphenCompounds of the sentence;
// "page-table" holds the question's "pagetable"), and the parts of each
// of the question's hyphenated words (qc) whose joined stem the sentence
// holds ("pagetable" holds the question's "page-table"). have itself when
// nothing is added.
func withCompounds(have map[string]bool, sc, qc map[string][]string) map[string]bool {
	add := map[string]bool{}
	for j := range sc {
		if !have[j] {
			add[j] = true
		}
	}
	for j, parts := range qc {
		if have[j] {
			for _, p := range parts {
				if !have[p] {
					add[p] = true
				}
			}
		}
	}
	return unionStems(have, add)
}

// joinedHyphenated maps the closed form of each hyphenated word of text,
// lowercased ("pagetable"), to the word ("page-table").
func joinedHyphenated(text string) map[string]string {
	var out map[string]string
	for _, f := range strings.Fields(text) {
		w := strings.ToLower(bareWord(f))
		if !strings.Contains(w, "-") {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[strings.ReplaceAll(w, "-", "")] = w
	}
	return out
}

// bareWord is f without the punctuation around it (letters and digits
// kept at both ends).
func bareWord(f string) string {
	return strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// wordRE matches w as a whole word, in any case.
func wordRE(w string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(w) + `\b`)
}

// compoundSpeller returns a function that spells a sentence's compounds
// as the question does: a hyphenated word whose closed form the question
// writes ("page-table" for "pagetable"), and a closed word the question
// hyphenates ("pagetable" for "page-table"), so that the verdict's
// readers, which split a hyphenated word in two, see the question's
// words. The identity when the question gives no compound a chance.
func compoundSpeller(question string) func(string) string {
	closed := map[string]bool{}
	for _, f := range strings.Fields(strings.ToLower(question)) {
		if w := bareWord(f); len(w) >= 6 && !strings.Contains(w, "-") {
			closed[w] = true
		}
	}
	// The question's hyphenated words, by their closed form, with the
	// pattern of that closed form: built once, not for every sentence.
	type spelling struct {
		hyphenated string
		re         *regexp.Regexp
	}
	hyph := map[string]spelling{}
	for j, h := range joinedHyphenated(question) {
		hyph[j] = spelling{h, wordRE(j)}
	}
	return func(s string) string {
		out := s
		for j, h := range joinedHyphenated(s) {
			if closed[j] {
				out = wordRE(h).ReplaceAllString(out, j)
			}
		}
		if len(hyph) > 0 {
			low := strings.ToLower(s)
			for j, sp := range hyph {
				if strings.Contains(low, j) {
					out = sp.re.ReplaceAllString(out, sp.hyphenated)
				}
			}
		}
		return out
	}
}
