// Package abbrev finds the abbreviations a text defines, by the algorithm
// of Schwartz & Hearst (2003), "A simple algorithm for identifying
// abbreviation definitions in biomedical text": a definition is a long
// form next to a parenthesised short form, "interquartile range (IQR)",
// or the reverse, "IQR (interquartile range)"; the short form's letters
// and digits, read right to left, are found in that order inside the long
// form, its first character at the start of a word of the long form.
//
// Short forms must look like abbreviations: one word of two to ten
// characters, a letter or a digit first, two capital letters or all
// capitals ("IQR", "CNNs", "BatchNorm", "2D"); long forms hold no brackets,
// formula signs or digits the short form lacks. That refuses what else stands in parentheses ("(see
// Fig. 3)", "(2019)", "(e.g., a small model)", "(p < 0.05)").
package abbrev

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxBefore bounds the bytes before a parenthesis read for its long form.
const maxBefore = 400

// Pair is one definition: Short is the abbreviation as written ("IQR",
// "CNNs"), Long the words it stands for ("interquartile range").
type Pair struct {
	Short, Long string
}

// Find returns the definitions in text in order of appearance, each
// (short, lowercased long) pair once.
func Find(text string) []Pair {
	var out []Pair
	seen := map[[2]string]bool{}
	add := func(p Pair) {
		k := [2]string{p.Short, strings.ToLower(p.Long)}
		if !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	for i := 0; i < len(text); i++ {
		if text[i] != '(' {
			continue
		}
		end := strings.IndexByte(text[i+1:], ')')
		if end < 0 {
			return out
		}
		inner := text[i+1 : i+1+end]
		if strings.ContainsRune(inner, '(') {
			continue // nested: the inner '(' is visited next
		}
		// A long form has at most 20 words: what comes before them is
		// never read (reading the whole text before each parenthesis made
		// a paper's scan quadratic).
		from := max(0, i-maxBefore)
		for from > 0 && !utf8.RuneStart(text[from]) {
			from++
		}
		before := text[from:i]
		// A definition is the first clause of the parenthesis:
		// "(IQR; see below)", "(CNN, LeCun et al.)".
		if k := strings.IndexAny(inner, ";,"); k >= 0 {
			inner = inner[:k]
		}
		inner = strings.TrimSpace(inner)
		if p, ok := forward(before, inner); ok {
			add(p)
		} else if p, ok := reverse(before, inner); ok {
			add(p)
		}
		i += end
	}
	return out
}

// forward reads "long form (SF)": the short form in parentheses, the long
// form among the words before them.
func forward(before, sf string) (Pair, bool) {
	if !shortForm(sf) {
		return Pair{}, false
	}
	words := strings.Fields(lastClause(before))
	n := min(len([]rune(sf))+5, 2*len([]rune(sf)))
	if len(words) > n {
		words = words[len(words)-n:]
	}
	if len(words) == 0 {
		return Pair{}, false
	}
	lf := bestLongForm(sf, strings.Join(words, " "))
	if lf == "" {
		return Pair{}, false
	}
	return Pair{Short: sf, Long: lf}, true
}

// reverse reads "SF (long form)": the word before the parentheses is the
// short form, the parenthesis the long form.
func reverse(before, lf string) (Pair, bool) {
	words := strings.Fields(before)
	if len(words) == 0 {
		return Pair{}, false
	}
	sf := strings.TrimFunc(words[len(words)-1], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if !shortForm(sf) || len(strings.Fields(lf)) > min(len([]rune(sf))+5, 2*len([]rune(sf))) {
		return Pair{}, false
	}
	got := bestLongForm(sf, lf)
	if got == "" || got != strings.TrimSpace(lf) {
		return Pair{}, false // the whole parenthesis must be the long form
	}
	return Pair{Short: sf, Long: got}, true
}

// lastClause is text after its last clause or sentence break, so a long
// form never reaches into the sentence or clause before it.
func lastClause(text string) string {
	for _, sep := range []string{". ", "; ", ": ", "! ", "? "} {
		if k := strings.LastIndex(text, sep); k >= 0 {
			text = text[k+len(sep):]
		}
	}
	return text
}

// shortForm reports whether s may be an abbreviation.
func shortForm(s string) bool {
	n := utf8.RuneCountInString(s)
	if n < 2 || n > 10 {
		return false
	}
	first, _ := utf8.DecodeRuneInString(s)
	if !unicode.IsLetter(first) && !unicode.IsDigit(first) {
		return false
	}
	upper, lower := 0, 0
	for _, r := range s {
		if unicode.IsUpper(r) {
			upper++
		} else if unicode.IsLower(r) {
			lower++
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '/' && r != '&' && r != '.' {
			return false
		}
	}
	// "IQR", "CNNs", "BatchNorm", "2D"; not a capitalised word ("Sato").
	return upper >= 2 || upper == 1 && lower == 0
}

// longForm reports whether lf, found for sf, may be its long form: words,
// no brackets or formula signs, and no digit sf does not have (a citation,
// "McSherry and Najork 2008", or a formula is not a long form).
func longForm(sf, lf string) bool {
	if strings.ContainsAny(lf, "()[]{}=<>+") {
		return false
	}
	if f := strings.Fields(lf); len(f) > 0 && functionWord[strings.ToLower(f[0])] {
		return false // "AEI (and the Spanish Research State Agency)", "NF (not be funded)"
	}
	digits := strings.IndexFunc(sf, unicode.IsDigit) >= 0
	return digits || strings.IndexFunc(lf, unicode.IsDigit) < 0
}

// functionWord are words a term does not start with: a long form whose
// first letter matched one ("and", "not", "of") took the short form's
// initial from a word that is not part of a name.
var functionWord = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "nor": true, "but": true, "not": true, "no": true,
	"of": true, "to": true, "in": true, "on": true, "at": true, "by": true, "for": true, "from": true, "with": true,
	"as": true, "is": true, "are": true, "was": true, "were": true, "be": true, "if": true, "than": true,
}

// bestLongForm is Schwartz & Hearst's findBestLongForm: the shortest end
// of lf in which the letters and digits of sf are found right to left,
// the first one at the start of a word; "" when there is none or the long
// form is not longer than the short form.
func bestLongForm(sf, lf string) string {
	s := []rune(strings.ToLower(sf))
	orig := []rune(lf)
	l := make([]rune, len(orig))
	for i, r := range orig {
		l[i] = unicode.ToLower(r)
	}
	si, li := len(s)-1, len(l)-1
	for ; si >= 0; si-- {
		c := s[si]
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			continue
		}
		for li >= 0 && (l[li] != c || si == 0 && li > 0 && (unicode.IsLetter(l[li-1]) || unicode.IsDigit(l[li-1]))) {
			li--
		}
		if li < 0 {
			return ""
		}
		li--
	}
	// The first character matched starts a word: the long form starts there.
	out := strings.TrimSpace(string(orig[li+1:]))
	if !longForm(sf, out) || utf8.RuneCountInString(out) <= utf8.RuneCountInString(sf) || strings.Contains(strings.ToLower(out), strings.ToLower(sf)) {
		return ""
	}
	return out
}
